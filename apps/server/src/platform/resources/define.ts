import type { SelectionRule } from '@tumble/contracts/resources';
import { getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../auth.ts';
import type { AppDeps } from '../deps.ts';
import type { Permission } from '../permissions.ts';
import type { Tenant } from '../tenancy.ts';
import type { FieldDef } from './fields.ts';

export type ResourceValues = Record<string, unknown>;
export type ResourceRow = Record<string, unknown> & { id: number };

export interface ResourceContext {
  deps: AppDeps;
  tenant: Tenant;
  auth: AuthContext;
  /** The transaction the write or action runs in. */
  tx: Db;
  /** The parent's id for nested resources (events/:parentId/sessions). */
  parentId: number | null;
  /** The ids of the parent's own ancestors, outermost first (terms/:t/classes/:parentId/sessions: [t]). */
  ancestorIds: number[];
  /** Work to do once the transaction has committed (e.g. offer freed places to the waitlist). */
  afterCommit: (work: () => Promise<unknown>) => void;
}

export interface ActionDef {
  label: string;
  selection: SelectionRule;
  /** Words for 'Are you sure to {confirm}?'; omit for no confirmation. */
  confirm?: string;
  /** The confirmation's button that leaves without running (e.g. 'Keep booking'); 'Cancel' when omitted. */
  dismiss?: string;
  /** Who may run it; the resource's write permission when omitted. */
  permission?: Permission;
  /**
   * Runs inside one transaction with the selected rows (already checked to be the tenant's).
   * Returns the message shown to the user. Throw AppError for a refusal.
   */
  run?: (ctx: ResourceContext, rows: ResourceRow[], values: ResourceValues) => Promise<string>;
  /** Instead of dispatching, the SPA opens this custom screen for the selected row. */
  screen?: string;
  /** Values the action asks for (validated like form fields before `run`). */
  fields?: Record<string, FieldDef>;
}

/**
 * A read-only list under a row on its page (a booking's children and days, a parent's bookings).
 * `rows` reads through the owning feature's service; a row's `href` links it to its admin page.
 */
export interface SectionDef {
  label: string;
  columns: { name: string; label: string }[];
  rows: (
    ctx: Omit<ResourceContext, 'afterCommit'>,
    row: ResourceRow,
  ) => Promise<Record<string, string | number | null>[]>;
}

/** Field name → message, for checks that span fields or need the database. */
export type FieldErrors = Record<string, string>;

export interface ResourceDefinition {
  /** URL segment and registry key, e.g. 'venues', 'price-tiers'. */
  name: string;
  label: string;
  singular: string;
  /**
   * Must carry `id` and `companyId` (unless `scope` is 'installation'); for nested resources also
   * the parent column.
   */
  table: PgTable;
  /**
   * Nested under another resource: its name and this table's column pointing at the parent's id.
   * The parent may itself be nested (term → class → sessions): every ancestor in the URL is checked
   * to be the tenant's and the parent of the next one.
   */
  parent?: { resource: string; column: string };
  /**
   * 'company' (the default): every row belongs to one company and every query is scoped to the
   * caller's. 'installation': rows belong to the installation itself (the platform's plans and
   * modules), queries are not tenant-scoped, and only an installation permission may be named.
   */
  scope?: 'company' | 'installation';
  /** Where staff find it in the sidebar; omit for resources reached from another (nested, references). */
  nav?: NavPlacement;
  /** The field that names a row in references, titles and confirmations. */
  titleField: string;
  fields: Record<string, FieldDef>;
  list: {
    columns: string[];
    /** Text fields searched by `q` (ILIKE). */
    search?: string[];
    /** Fields filterable by equality from the `filter` query. */
    filters?: string[];
    defaultSort?: { field: string; order: 'asc' | 'desc' };
  };
  actions?: Record<string, ActionDef>;
  /** Related lists shown on a row's page, in this order. */
  sections?: Record<string, SectionDef>;
  permissions: { read: Permission; write: Permission };
  /** 'archive' sets `archivedAt` and hides the row (history keeps pointing at it); 'none' forbids deletion. */
  deleteMode?: 'delete' | 'archive' | 'none';
  /** false for read-only resources (bookings are made by parents, not typed in by staff). */
  canCreate?: boolean;
  canEdit?: boolean;
  /** Cross-field and database checks after each field validated; return messages per field. */
  check?: (
    values: ResourceValues,
    ctx: ResourceContext & { id: number | null },
  ) => Promise<FieldErrors | undefined> | FieldErrors | undefined;
  /** A fixed condition on every query (e.g. parents are the users whose role is student). */
  where?: SQL;
  /** Fills columns the form does not carry (computed values) just before insert or update. */
  beforeSave?: (
    values: ResourceValues,
    ctx: ResourceContext & { id: number | null },
  ) => Promise<ResourceValues> | ResourceValues;
}

/** The sidebar's groups, by what staff do, in the order shown (SPA: app/layouts/staff-frame.tsx). */
export const navGroups = [
  'Classes',
  'Events',
  'Parties',
  'Families',
  'Money',
  'Communications',
  'Reports',
  'Settings',
] as const;
export type NavGroup = (typeof navGroups)[number];

export interface NavPlacement {
  group: NavGroup;
  icon: string;
  /** The entry's words when they differ from the resource's label (e.g. 'NSW vouchers'). */
  label?: string;
}

/** A definition checked against its table, with its columns resolved. */
export interface Resource extends ResourceDefinition {
  columns: Record<string, PgColumn>;
  idColumn: PgColumn;
  /** null only for installation resources. */
  companyColumn: PgColumn | null;
  parentColumn: PgColumn | null;
  archiveColumn: PgColumn | null;
  /** Field name → column. */
  fieldColumns: Record<string, PgColumn>;
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const registry = new Map<string, Resource>();

/**
 * Declares an admin resource; the engine (platform/resources/engine.routes.ts) derives its
 * validation, tenant-scoped SQL and endpoints. Example (features/venues/venues.resource.ts):
 *
 * ```ts
 * export const venuesResource = defineResource({
 *   name: 'venues', label: 'Venues', singular: 'Venue', table: venues, titleField: 'name',
 *   fields: { name: field.text('Name', { required: true }), suburb: field.text('Suburb') },
 *   list: { columns: ['name', 'suburb'], search: ['name', 'suburb'] },
 *   permissions: { read: 'catalog.read', write: 'catalog.write' },
 * });
 * ```
 *
 * A mistake (a field without a column, a table without company_id) throws at start.
 */
export function defineResource(definition: ResourceDefinition): Resource {
  const columns = getTableColumns(definition.table) as Record<string, PgColumn>;
  const need = (key: string, what: string) => {
    const column = columns[key];
    if (!column) throw new Error(`resource ${definition.name}: ${what} has no column '${key}'`);
    return column;
  };
  const fieldColumns: Record<string, PgColumn> = {};
  for (const [name, def] of Object.entries(definition.fields)) {
    fieldColumns[name] = need(def.column ?? camel(name), `field ${name}`);
  }
  for (const name of [
    definition.titleField,
    ...definition.list.columns,
    ...(definition.list.search ?? []),
    ...(definition.list.filters ?? []),
  ]) {
    if (!definition.fields[name]) throw new Error(`resource ${definition.name}: unknown field '${name}'`);
  }
  const resource: Resource = {
    deleteMode: 'delete',
    canCreate: true,
    canEdit: true,
    ...definition,
    columns,
    idColumn: need('id', 'the id'),
    companyColumn: definition.scope === 'installation' ? null : need('companyId', 'tenancy'),
    parentColumn: definition.parent ? need(definition.parent.column, 'the parent') : null,
    archiveColumn: definition.deleteMode === 'archive' ? need('archivedAt', 'archiving') : null,
    fieldColumns,
  };
  if (definition.scope === 'installation') {
    // Installation rows are no company's: only the installation's operators may reach them.
    for (const permission of Object.values(definition.permissions))
      if (!permission.startsWith('installation.'))
        throw new Error(
          `resource ${definition.name}: an installation resource needs installation.* permissions`,
        );
    if (definition.parent)
      throw new Error(`resource ${definition.name}: installation resources are not nested`);
  }
  if (registry.has(resource.name)) throw new Error(`resource ${resource.name} is defined twice`);
  registry.set(resource.name, resource);
  return resource;
}

export function getResource(name: string): Resource | undefined {
  return registry.get(name);
}

export function allResources(): Resource[] {
  return [...registry.values()];
}

/** A nested resource's ancestors, outermost first (sessions of a class of a term: [terms, classes]). */
export function ancestorsOf(resource: Resource): Resource[] {
  const chain: Resource[] = [];
  let current = resource;
  while (current.parent) {
    const parent = registry.get(current.parent.resource);
    if (!parent) throw new Error(`resource ${current.name}: unknown parent '${current.parent.resource}'`);
    if (chain.includes(parent)) throw new Error(`resource ${resource.name}: its parents form a loop`);
    chain.unshift(parent);
    current = parent;
  }
  return chain;
}

/** The route parameter of each ancestor's id: the direct parent's is `parentId`. */
export function ancestorParams(resource: Resource): string[] {
  const chain = ancestorsOf(resource);
  return chain.map((_, i) => (i === chain.length - 1 ? 'parentId' : `ancestor${i + 1}Id`));
}

/**
 * The URL of a resource's collection; nested ones carry each ancestor's id:
 * `/api/v1/admin/events/:parentId/sessions`, `/api/v1/admin/terms/:ancestor1Id/classes/:parentId/sessions`.
 */
export function collectionPath(resource: Resource): string {
  const params = ancestorParams(resource);
  const prefix = ancestorsOf(resource)
    .map((ancestor, i) => `${ancestor.name}/:${params[i]}/`)
    .join('');
  return `/api/v1/admin/${prefix}${resource.name}`;
}

/** A collection path with its parameters filled in (tests, redirects): ids outermost first. */
export function fillPath(path: string, ids: readonly number[]): string {
  let i = 0;
  return path.replace(/:(ancestor\d+Id|parentId)/g, () => String(ids[i++] ?? ':missing'));
}
