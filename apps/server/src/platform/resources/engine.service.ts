import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import {
  type DispatchResponse,
  EXACT_TOTAL_LIMIT,
  type FieldMeta,
  type FormDefinition,
  type ListQuery,
  type ListResponse,
  type Option,
  type RecordSections,
  type ResourceMeta,
} from '@tumble/contracts/resources';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../audit/audit.ts';
import type { AuthContext } from '../auth.ts';
import { pgCode } from '../db-errors.ts';
import type { AppDeps } from '../deps.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors.ts';
import { formErrors } from '../forms.ts';
import { roleHas } from '../permissions.ts';
import type { Tenant } from '../tenancy.ts';
import {
  type ActionDef,
  ancestorsOf,
  collectionPath,
  fillPath,
  getResource,
  type Resource,
  type ResourceContext,
  type ResourceRow,
  type ResourceValues,
} from './define.ts';
import { fieldMetaOf, fieldSchema, toApiValue } from './fields.ts';

export interface EngineCall {
  deps: AppDeps;
  auth: AuthContext;
  parentId: number | null;
  /** The parent's own ancestors' ids, outermost first (empty for one level of nesting). */
  ancestorIds: number[];
}

const tenantOf = (call: EngineCall): Tenant => call.auth.tenant;
const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The rows of a resource the caller may see: the tenant's (`company_id = tenant`), or, for an
 * installation resource, every row (only installation operators reach those routes), and always
 * the resource's fixed `where`. Every query of the engine starts here.
 */
function rowsOf(resource: Resource, call: EngineCall, ...conditions: (SQL | undefined)[]): SQL {
  if (!resource.companyColumn) return and(resource.where, ...conditions) ?? sql`true`;
  return tenantOf(call).where({ companyId: resource.companyColumn }, resource.where, ...conditions);
}

/** `rowsOf`, and `parent = parentId` for nested resources. */
function scope(resource: Resource, call: EngineCall, ...conditions: (SQL | undefined)[]): SQL {
  return rowsOf(
    resource,
    call,
    resource.parentColumn ? eq(resource.parentColumn, call.parentId ?? -1) : undefined,
    ...conditions,
  );
}

/**
 * Every ancestor in a nested URL must be the tenant's and the parent of the next one
 * (terms/1/classes/2/sessions: term 1 is the tenant's, class 2 is the tenant's and term 1's),
 * or the whole call is 404.
 */
async function assertParent(
  resource: Resource,
  call: EngineCall,
  db: Db = call.deps.database.db,
): Promise<void> {
  if (!resource.parent) return;
  const chain = ancestorsOf(resource);
  const ids = [...call.ancestorIds, call.parentId];
  if (ids.length !== chain.length) throw new NotFoundError();
  for (const [i, ancestor] of chain.entries()) {
    const id = ids[i];
    if (id === null || id === undefined) throw new NotFoundError();
    const [found] = await db
      .select({ id: ancestor.idColumn })
      .from(ancestor.table)
      .where(
        rowsOf(
          ancestor,
          call,
          eq(ancestor.idColumn, id),
          i > 0 && ancestor.parentColumn ? eq(ancestor.parentColumn, ids[i - 1]!) : undefined,
        ),
      )
      .limit(1);
    if (!found) throw new NotFoundError();
  }
}

/** Field name → the table's key of its column, per resource (a list serializes every field of 25+ rows). */
const columnKeys = new WeakMap<Resource, Map<string, string>>();
function columnKey(resource: Resource, field: string): string {
  let keys = columnKeys.get(resource);
  if (!keys) {
    keys = new Map(
      Object.keys(resource.fields).map((name) => [
        name,
        Object.entries(resource.columns).find(([, c]) => c === resource.fieldColumns[name])![0],
      ]),
    );
    columnKeys.set(resource, keys);
  }
  return keys.get(field)!;
}

/** The columns `serialize` reads (the id and every field's), keyed as `select()` would key them. */
const listColumns = (resource: Resource): Record<string, PgColumn> => ({
  id: resource.idColumn,
  ...Object.fromEntries(
    Object.keys(resource.fields).map((name) => [columnKey(resource, name), resource.fieldColumns[name]!]),
  ),
});

/** A database row as the API shows it: the id and every field by its API name. */
function serialize(resource: Resource, row: Record<string, unknown>): ResourceRow {
  const out: ResourceRow = { id: row.id as number };
  for (const [name, def] of Object.entries(resource.fields))
    out[name] = toApiValue(def, row[columnKey(resource, name)]);
  // A conditional field shows its column only while its condition holds (percent or fixed amount).
  for (const [name, def] of Object.entries(resource.fields))
    if (def.when && String(out[def.when.field]) !== def.when.value) out[name] = null;
  return out;
}

/**
 * Conditional fields (`when`): required only while their condition holds, and dropped otherwise
 * so that a field sharing their column writes it.
 */
function applyConditions(resource: Resource, values: ResourceValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [name, def] of Object.entries(resource.fields)) {
    if (!def.when || def.readOnly) continue;
    if (String(values[def.when.field]) !== def.when.value) delete values[name];
    else if (def.required && (values[name] === null || values[name] === undefined))
      errors[name] = `${def.label} is required.`;
  }
  return errors;
}

/**
 * A value left out of a not-null column that has a default takes the default (an event saved
 * without a booking fee has a fee of 0) instead of failing on the null.
 */
function withColumnDefaults(resource: Resource, columns: Record<string, unknown>, creating: boolean) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(columns)) {
    const column = resource.columns[key];
    if ((value === null || value === undefined) && column?.notNull && column.hasDefault) {
      if (!creating) out[key] = sql`default`;
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** Adds `_labels` with the title of every referenced row, one query per referenced resource. */
async function withReferenceLabels(
  resource: Resource,
  call: EngineCall,
  rows: ResourceRow[],
): Promise<ResourceRow[]> {
  const labels = rows.map(() => ({}) as Record<string, string>);
  for (const [name, def] of Object.entries(resource.fields)) {
    if (def.type !== 'reference' || !def.reference) continue;
    const target = getResource(def.reference);
    if (!target) continue;
    const ids = [...new Set(rows.map((r) => r[name]).filter((v): v is number => typeof v === 'number'))];
    if (ids.length === 0) continue;
    const found = await call.deps.database.db
      .select({ id: target.idColumn, title: target.fieldColumns[target.titleField]! })
      .from(target.table)
      .where(rowsOf(target, call, inArray(target.idColumn, ids)));
    const byId = new Map(found.map((f) => [f.id as number, String(f.title ?? '')]));
    rows.forEach((row, i) => {
      const id = row[name];
      if (typeof id === 'number' && byId.has(id)) labels[i]![name] = byId.get(id)!;
    });
  }
  return rows.map((row, i) => ({ ...row, _labels: labels[i] }));
}

const canWrite = (resource: Resource, auth: AuthContext) => roleHas(auth.role, resource.permissions.write);

function actionsOf(resource: Resource): Record<string, ActionDef> {
  const builtIn: Record<string, ActionDef> =
    resource.deleteMode === 'none'
      ? {}
      : {
          delete: {
            label: resource.deleteMode === 'archive' ? 'Archive' : 'Delete',
            selection: 'many',
            confirm: resource.deleteMode === 'archive' ? 'archive' : 'delete',
          },
        };
  return { ...resource.actions, ...builtIn };
}

/** The list columns a list may be sorted by (not rich text or multiselect). */
const sortableOf = (resource: Resource) =>
  resource.list.columns.filter((c) => !['richtext', 'multiselect'].includes(resource.fields[c]!.type));

export function meta(resource: Resource, auth: AuthContext): ResourceMeta {
  const writable = canWrite(resource, auth);
  return {
    name: resource.name,
    label: resource.label,
    singular: resource.singular,
    parent: resource.parent?.resource ?? null,
    children: childIndex.get(resource.name) ?? [],
    titleField: resource.titleField,
    fields: Object.entries(resource.fields).map(([name, def]) => fieldMetaOf(name, def)),
    columns: resource.list.columns,
    sortable: sortableOf(resource),
    defaultSort: resource.list.defaultSort ?? { field: resource.titleField, order: 'asc' },
    filters: resource.list.filters ?? [],
    searchable: (resource.list.search ?? []).length > 0,
    actions: Object.entries(actionsOf(resource))
      .filter(([, a]) => roleHas(auth.role, a.permission ?? resource.permissions.write))
      .map(([name, a]) => ({
        name,
        label: a.label,
        selection: a.selection,
        confirm: a.confirm ?? null,
        ...(a.dismiss ? { dismiss: a.dismiss } : {}),
        ...(a.screen ? { screen: a.screen } : {}),
        ...(a.fields
          ? { fields: Object.entries(a.fields).map(([field, def]) => fieldMetaOf(field, def)) }
          : {}),
      })),
    canWrite: writable,
    canCreate: writable && resource.canCreate !== false,
    canEdit: writable && resource.canEdit !== false,
    canDelete: writable && resource.deleteMode !== 'none',
    deleteMode: resource.deleteMode ?? 'delete',
    ...(resource.sections
      ? { sections: Object.entries(resource.sections).map(([name, s]) => ({ name, label: s.label })) }
      : {}),
  };
}

/** The related lists of one row (its `sections`), read once the row is known to be the tenant's. */
export async function sections(resource: Resource, call: EngineCall, id: number): Promise<RecordSections> {
  await assertParent(resource, call);
  const row = serialize(resource, await findRow(resource, call, id));
  const ctx = {
    deps: call.deps,
    tenant: tenantOf(call),
    auth: call.auth,
    tx: call.deps.database.db,
    parentId: call.parentId,
    ancestorIds: call.ancestorIds,
  };
  const out: RecordSections = [];
  for (const [name, section] of Object.entries(resource.sections ?? {})) {
    out.push({ name, label: section.label, columns: section.columns, rows: await section.rows(ctx, row) });
  }
  return out;
}

/** Parent resource → its nested resources, built when the engine's routes are registered. */
const childIndex = new Map<string, { name: string; label: string }[]>();
let mounted: Resource[] = [];
/** The resources whose routes the app registered, in the order given (the sidebar's order). */
export function mountedResources(): readonly Resource[] {
  return mounted;
}
export function indexChildren(resources: Resource[]) {
  mounted = [...resources];
  childIndex.clear();
  for (const r of resources) {
    if (!r.parent) continue;
    childIndex.set(r.parent.resource, [
      ...(childIndex.get(r.parent.resource) ?? []),
      { name: r.name, label: r.label },
    ]);
  }
}

function filterConditions(
  resource: Resource,
  raw: string | undefined,
): { conditions: SQL[]; archived: boolean } {
  if (!raw) return { conditions: [], archived: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BadRequestError('Invalid filter.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new BadRequestError('Invalid filter.');
  const conditions: SQL[] = [];
  let archived = false;
  for (const [name, value] of Object.entries(parsed)) {
    if (name === 'archived' && resource.archiveColumn) {
      archived = value === true || value === 'true';
      continue;
    }
    if (!(resource.list.filters ?? []).includes(name) || value === '' || value === null) continue;
    const def = resource.fields[name]!;
    const parsedValue = fieldSchema(name, { ...def, required: true }).safeParse(value);
    if (!parsedValue.success) throw new BadRequestError(`Invalid filter for ${def.label}.`);
    conditions.push(eq(resource.fieldColumns[name]!, parsedValue.data));
  }
  return { conditions, archived };
}

/**
 * One page of a resource and its total. The total is counted exactly up to `exactUpTo` rows and
 * no further (`count(*)` of a subquery with `LIMIT exactUpTo + 1`): a 50,000-row list then costs a
 * bounded count, and past the limit the answer is `total: exactUpTo, totalIsEstimate: true`
 * ("10,000+" in the pager, which still pages forward). `exactUpTo` is a parameter for tests only.
 */
export async function list(
  resource: Resource,
  call: EngineCall,
  query: ListQuery,
  exactUpTo: number = EXACT_TOTAL_LIMIT,
): Promise<ListResponse> {
  const { conditions, archived } = filterConditions(resource, query.filter);
  const search =
    query.q && resource.list.search?.length
      ? or(...resource.list.search.map((f) => ilike(resource.fieldColumns[f]!, `%${escapeLike(query.q!)}%`)))
      : undefined;
  const archiveCondition = resource.archiveColumn
    ? archived
      ? isNotNull(resource.archiveColumn)
      : isNull(resource.archiveColumn)
    : undefined;
  const where = scope(resource, call, search, archiveCondition, ...conditions);
  const sortField = query.sort && sortableOf(resource).includes(query.sort) ? query.sort : null;
  const sort = sortField
    ? { field: sortField, order: query.order ?? 'asc' }
    : (resource.list.defaultSort ?? { field: resource.titleField, order: 'asc' as const });
  const sortColumn = resource.fieldColumns[sort.field] ?? resource.idColumn;
  const direction = sort.order === 'desc' ? desc : asc;
  const { db } = call.deps.database;
  const order = [direction(sortColumn), direction(resource.idColumn)];
  // The page's ids first, then their rows (a "deferred join"): the ids of the rows OFFSET skips come
  // from the sort's index alone (an index-only scan), so page 200 no longer reads 5,000 whole rows
  // from the table, or sorts them when the planner expects that to be cheaper (23 → 1.2 ms at 15,000).
  const pageIds = db
    .select({ id: resource.idColumn })
    .from(resource.table)
    .where(where)
    .orderBy(...order)
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage);
  // The parent check runs beside the page's queries, not before them (one round trip less per
  // page): those are scoped to the tenant and the parent, so a foreign parent reads nothing there,
  // and its 404 is still the answer.
  const [, rows, [counted]] = await Promise.all([
    assertParent(resource, call),
    // Only the columns the page shows: a booking's pricing (jsonb) and the like are not parsed for nothing.
    db
      .select(listColumns(resource))
      .from(resource.table)
      .where(rowsOf(resource, call, inArray(resource.idColumn, pageIds)))
      .orderBy(...order),
    db.select({ value: count() }).from(
      db
        .select({ one: sql`1`.as('one') })
        .from(resource.table)
        .where(where)
        .limit(exactUpTo + 1)
        .as('capped'),
    ),
  ]);
  const total = counted?.value ?? 0;
  const data = await withReferenceLabels(
    resource,
    call,
    rows.map((r) => serialize(resource, r as Record<string, unknown>)),
  );
  return total > exactUpTo
    ? { data, total: exactUpTo, totalIsEstimate: true }
    : { data, total, totalIsEstimate: false };
}

async function findRow(resource: Resource, call: EngineCall, id: number, db: Db = call.deps.database.db) {
  const [row] = await db
    .select()
    .from(resource.table)
    .where(scope(resource, call, eq(resource.idColumn, id)))
    .limit(1);
  if (!row) throw new NotFoundError();
  return row as Record<string, unknown>;
}

export async function view(resource: Resource, call: EngineCall, id: number): Promise<ResourceRow> {
  await assertParent(resource, call);
  const [row] = await withReferenceLabels(resource, call, [
    serialize(resource, await findRow(resource, call, id)),
  ]);
  return row!;
}

const formFields = (resource: Resource): [string, FieldMeta][] =>
  Object.entries(resource.fields)
    .filter(([, def]) => !def.readOnly)
    .map(([name, def]) => [name, fieldMetaOf(name, def)]);

export async function formDefinition(
  resource: Resource,
  call: EngineCall,
  id: number | null,
): Promise<FormDefinition> {
  await assertParent(resource, call);
  if (id === null ? resource.canCreate === false : resource.canEdit === false) throw new NotFoundError();
  const row = id === null ? null : serialize(resource, await findRow(resource, call, id));
  return {
    title: id === null ? `Add ${resource.singular}` : `Edit ${resource.singular}`,
    fields: formFields(resource).map(([name, meta]) => ({
      ...meta,
      value: row ? row[name] : (meta.default ?? null),
    })),
  };
}

/** The zod schema of a resource's form, derived from its fields. */
export function formSchema(resource: Resource) {
  return z.object(
    Object.fromEntries(
      formFields(resource).map(([name]) => {
        const def = resource.fields[name]!;
        // A conditional field's requirement is checked once its condition is known (applyConditions).
        return [name, fieldSchema(name, def.when ? { ...def, required: false } : def)];
      }),
    ),
  );
}

async function checkReferences(resource: Resource, call: EngineCall, tx: Db, values: ResourceValues) {
  const errors: Record<string, string> = {};
  for (const [name, def] of Object.entries(resource.fields)) {
    const value = values[name];
    if (def.readOnly || value === null || value === undefined) continue;
    if ((def.type === 'reference' || def.type === 'multiselect') && def.reference) {
      const ids = def.type === 'reference' ? [value as number] : (value as number[]);
      if (ids.length === 0) continue;
      const target = getResource(def.reference)!;
      const found = await tx
        .select({ id: target.idColumn })
        .from(target.table)
        .where(rowsOf(target, call, inArray(target.idColumn, ids)));
      if (found.length !== ids.length) {
        errors[name] =
          `Please choose ${def.type === 'reference' ? 'a valid' : 'valid'} ${def.label.toLowerCase()}.`;
      }
    }
    if (
      (def.type === 'file' || def.type === 'image') &&
      !String(value).startsWith(`public/${tenantOf(call).companyId}/`)
    ) {
      errors[name] = `Please upload the ${def.label.toLowerCase()} again.`;
    }
  }
  return errors;
}

const invalid = (errors: Record<string, string>): FormResponse => ({
  valid: false,
  error: {
    html_message: 'Please correct the errors below.',
    element: Object.entries(errors).map(([name, message]) => ({ name, messages: [message] })),
  },
});

function toColumns(resource: Resource, values: ResourceValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const column = resource.fieldColumns[name];
    out[column ? columnKey(resource, name) : name] = value;
  }
  return out;
}

/** Drizzle cannot type an insert into a table chosen at run time; the engine checked the columns at definition. */
type LooseTable = PgTable & Record<string, PgColumn>;
const loose = (table: PgTable) => table as LooseTable;

/** Create (id null) or update: validate, check, save in one transaction, answer the generated form response. */
export async function save(
  resource: Resource,
  call: EngineCall,
  id: number | null,
  body: unknown,
): Promise<FormResponse> {
  if (id === null ? resource.canCreate === false : resource.canEdit === false) throw new NotFoundError();
  await assertParent(resource, call);
  const parsed = formSchema(resource).safeParse(body ?? {});
  if (!parsed.success) return formErrors(parsed.error);
  const values = parsed.data as ResourceValues;
  const afterCommit: (() => Promise<unknown>)[] = [];
  try {
    const result = await call.deps.database.db.transaction(async (tx) => {
      const before = id !== null ? await findRow(resource, call, id, tx) : null;
      const ctx = {
        deps: call.deps,
        tenant: tenantOf(call),
        auth: call.auth,
        tx,
        parentId: call.parentId,
        ancestorIds: call.ancestorIds,
        id,
        afterCommit: (work: () => Promise<unknown>) => afterCommit.push(work),
      };
      const errors = {
        ...applyConditions(resource, values),
        ...(await checkReferences(resource, call, tx, values)),
        ...((await resource.check?.(values, ctx)) ?? {}),
      };
      if (Object.keys(errors).length > 0) return invalid(errors);
      const columns = withColumnDefaults(
        resource,
        toColumns(resource, (await resource.beforeSave?.(values, ctx)) ?? values),
        id === null,
      );
      if (id === null) {
        const parentKey = resource.parentColumn
          ? {
              [Object.entries(resource.columns).find(([, c]) => c === resource.parentColumn)![0]]:
                call.parentId,
            }
          : {};
        const row = { ...columns, ...parentKey };
        const [created] = await tx
          .insert(loose(resource.table))
          .values((resource.companyColumn ? tenantOf(call).values(row) : row) as never)
          .returning();
        await audit(tx, resource, call, 'create', null, created as Record<string, unknown>);
      } else {
        const [updated] = await tx
          .update(loose(resource.table))
          .set(columns as never)
          .where(scope(resource, call, eq(resource.idColumn, id)))
          .returning();
        await audit(tx, resource, call, 'update', before, updated as Record<string, unknown>);
      }
      return {
        valid: true,
        redirect: listPagePath(resource, call),
        info: { title: 'Saved', message: `The ${resource.singular.toLowerCase()} has been saved.` },
      };
    });
    for (const work of afterCommit) await work();
    return result;
  } catch (error) {
    if (pgCode(error) === '23505')
      return invalid({
        [resource.titleField]: `A ${resource.singular.toLowerCase()} with this ${resource.fields[resource.titleField]!.label.toLowerCase()} already exists.`,
      });
    throw error;
  }
}

/** The SPA page that lists a resource: its API path without the API prefix. */
export function listPagePath(resource: Resource, call: Pick<EngineCall, 'parentId' | 'ancestorIds'>): string {
  const ids = resource.parent ? [...call.ancestorIds, call.parentId ?? 0] : [];
  return fillPath(collectionPath(resource), ids).replace('/api/v1/admin/', '/admin/');
}

async function removeRows(resource: Resource, call: EngineCall, tx: Db, ids: number[]) {
  const where = scope(resource, call, inArray(resource.idColumn, ids));
  try {
    const before = (await tx.select().from(resource.table).where(where)) as Record<string, unknown>[];
    if (resource.archiveColumn) {
      const key = Object.entries(resource.columns).find(([, c]) => c === resource.archiveColumn)![0];
      const archived = (await tx
        .update(loose(resource.table))
        .set({ [key]: sql`now()` } as never)
        .where(where)
        .returning()) as Record<string, unknown>[];
      for (const row of archived)
        await audit(
          tx,
          resource,
          call,
          'archive',
          before.find((b) => b.id === row.id),
          row,
        );
    } else {
      await tx.delete(resource.table).where(where);
      for (const row of before) await audit(tx, resource, call, 'delete', row, null);
    }
  } catch (error) {
    if (pgCode(error) === '23503') {
      throw new ConflictError(`This ${resource.singular.toLowerCase()} is in use and cannot be deleted.`);
    }
    throw error;
  }
}

export async function remove(resource: Resource, call: EngineCall, id: number): Promise<void> {
  if (resource.deleteMode === 'none') throw new NotFoundError();
  await assertParent(resource, call);
  await call.deps.database.db.transaction(async (tx) => {
    await findRow(resource, call, id, tx);
    await removeRows(resource, call, tx, [id]);
  });
}

/** Every change made through the engine goes into the audit trail, in the same transaction. */
function audit(
  tx: Db,
  resource: Resource,
  call: EngineCall,
  action: string,
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null,
) {
  const row = after ?? before;
  return recordAudit(tx, call.auth, {
    action,
    entity: resource.name,
    entityId: typeof row?.id === 'number' ? row.id : null,
    before,
    after,
  });
}

/** SPEC.md point 8's row-selection messages, enforced on the server as in the SPA. */
export function selectionError(rule: ActionDef['selection'], count: number): string | null {
  if (rule === 'one' && count === 0) return messages.selectOne;
  if (rule === 'one' && count > 1) return messages.onlyOneRecord;
  if (rule === 'many' && count === 0) return messages.selectAtLeastOne;
  return null;
}

export async function dispatch(
  resource: Resource,
  call: EngineCall,
  name: string,
  ids: number[],
  rawValues: Record<string, unknown> = {},
): Promise<DispatchResponse> {
  const action = actionsOf(resource)[name];
  if (!action || action.screen) throw new NotFoundError();
  if (!roleHas(call.auth.role, action.permission ?? resource.permissions.write)) throw new ForbiddenError();
  const unique = [...new Set(ids)];
  const refusal = selectionError(action.selection, unique.length);
  if (refusal) throw new BadRequestError(refusal);
  await assertParent(resource, call);
  const afterCommit: (() => Promise<unknown>)[] = [];
  const result = await call.deps.database.db.transaction(async (tx) => {
    // Lock in id order so two actions on overlapping rows cannot deadlock.
    const rows = unique.length
      ? await tx
          .select()
          .from(resource.table)
          .where(scope(resource, call, inArray(resource.idColumn, unique)))
          .orderBy(resource.idColumn)
          .for('update')
      : [];
    // One foreign id makes the whole action 404: nothing of it runs.
    if (rows.length !== unique.length) throw new NotFoundError();
    // The action's own values are checked once the rows are known to be the tenant's.
    const parsedValues = z
      .object(
        Object.fromEntries(
          Object.entries(action.fields ?? {}).map(([field, def]) => [field, fieldSchema(field, def)]),
        ),
      )
      .safeParse(rawValues);
    if (!parsedValues.success) throw new BadRequestError(parsedValues.error.issues[0]!.message);
    const serialized = rows.map((r) => serialize(resource, r as Record<string, unknown>));
    if (name === 'delete' && !resource.actions?.delete) {
      await removeRows(resource, call, tx, unique);
      const verb = resource.archiveColumn ? 'archived' : 'deleted';
      return {
        success: true,
        message: `${unique.length} ${unique.length === 1 ? resource.singular.toLowerCase() : resource.label.toLowerCase()} ${verb}.`,
      };
    }
    const ctx: ResourceContext = {
      deps: call.deps,
      tenant: tenantOf(call),
      auth: call.auth,
      tx,
      parentId: call.parentId,
      ancestorIds: call.ancestorIds,
      afterCommit: (work) => afterCommit.push(work),
    };
    const message = await action.run!(ctx, serialized, parsedValues.data as ResourceValues);
    const after = (await tx
      .select()
      .from(resource.table)
      .where(scope(resource, call, inArray(resource.idColumn, unique)))) as Record<string, unknown>[];
    for (const row of rows as Record<string, unknown>[])
      await audit(tx, resource, call, name, row, after.find((a) => a.id === row.id) ?? null);
    return { success: true, message };
  });
  for (const work of afterCommit) await work();
  return result;
}

/** Choices for a reference field: `{ value: id, label: title }`, searchable, at most 50. */
export async function options(
  resource: Resource,
  call: EngineCall,
  q: string | undefined,
): Promise<Option[]> {
  await assertParent(resource, call);
  const title = resource.fieldColumns[resource.titleField]!;
  const rows = await call.deps.database.db
    .select({ id: resource.idColumn, title })
    .from(resource.table)
    .where(
      rowsOf(
        resource,
        call,
        // A nested resource's choices are its parent's own rows (sessions of this event).
        resource.parentColumn && call.parentId !== null
          ? eq(resource.parentColumn, call.parentId)
          : undefined,
        q ? ilike(title, `%${escapeLike(q)}%`) : undefined,
        resource.archiveColumn ? isNull(resource.archiveColumn) : undefined,
      ),
    )
    .orderBy(asc(title))
    .limit(50);
  return rows.map((r) => ({ value: r.id as number, label: String(r.title ?? '') }));
}
