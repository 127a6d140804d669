import {
  type ImportColumnsResponse,
  type ImportDryRunResponse,
  type ImportMapping,
  type ImportRunView,
  importMessages,
  importPresets,
} from '@tumble/contracts/import';
import { parse } from 'csv-parse/sync';
import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf, normaliseEmail } from '../accounts/accounts.service.ts';
import { inviteImportedParent, usersByEmails } from '../accounts/imported-families.service.ts';
import {
  ClassFullError,
  type ImportableClass,
  importableClasses,
  importPlacesLeft,
  placeImportedChildren,
} from '../classes/imported-places.service.ts';
import { companyToday } from '../classes/roll.service.ts';
import { createChildren } from '../students/children.service.ts';
import { importMappings, importRuns } from './import.tables.ts';
import { parseDob, presetMapping } from './mappings.ts';

/**
 * Importing families from another system (issue 17). Nothing is kept between steps: the page sends
 * the file with each request, the dry run only reads, and the import checks the file again and
 * writes it in one transaction (families, children, places, invitations in the outbox) or not at all.
 * Rows are numbered as a spreadsheet shows them: the header is row 1, the first family row 2.
 */

interface Csv {
  columns: string[];
  rows: string[][];
}

/** The file as a header and rows (BOM, quotes, CRLF handled by csv-parse); a broken file is a 400. */
export function readCsv(file: Buffer): Csv {
  let records: string[][];
  try {
    records = parse(file, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    throw new BadRequestError(`${importMessages.notCsv}${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header || rows.length === 0) throw new BadRequestError(importMessages.noRows);
  return { columns: header, rows };
}

export async function savedMapping(db: Db, tenant: Tenant): Promise<ImportMapping | null> {
  const [row] = await db.select().from(importMappings).where(tenant.where(importMappings));
  return row ? (row.mapping as ImportMapping) : null;
}

/** The upload's answer: the columns, the mapping to start from (saved, else a matching preset). */
export async function describeFile(
  deps: AppDeps,
  auth: AuthContext,
  file: Buffer,
): Promise<ImportColumnsResponse> {
  const { db } = deps.database;
  const { columns, rows } = readCsv(file);
  const presets = Object.fromEntries(importPresets.map((p) => [p, presetMapping(p, columns)])) as Record<
    (typeof importPresets)[number],
    ImportMapping
  >;
  const saved = await savedMapping(db, auth.tenant);
  const usable = saved && Object.values(saved).every((c) => !c || columns.includes(c)) ? saved : null;
  const best = [...Object.values(presets)].sort((a, b) => Object.keys(b).length - Object.keys(a).length)[0]!;
  const today = await companyToday(db, auth.tenant);
  return {
    columns,
    rows: rows.length,
    mapping: usable ?? best,
    presets,
    has_classes: (await importableClasses(db, auth.tenant, today)).size > 0,
  };
}

interface PlannedChild {
  row: number;
  firstName: string;
  lastName: string;
  dob: string;
  medicalNotes: string | null;
  cls: ImportableClass | null;
}

interface PlannedFamily {
  rows: number[];
  email: string;
  fullName: string;
  phone: string | null;
  existingId: number | null;
  children: PlannedChild[];
}

interface Plan {
  rows: number;
  problems: string[];
  actions: string[];
  families: PlannedFamily[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('d') ? 'ren' : 's'}`;

/** Checks every row against the company's data; writes nothing. */
async function plan(db: Db, tenant: Tenant, csv: Csv, mapping: ImportMapping): Promise<Plan> {
  const index = (field: keyof ImportMapping) => {
    const column = mapping[field];
    return column ? csv.columns.indexOf(column) : -1;
  };
  const has = (field: keyof ImportMapping) => index(field) >= 0;
  if (
    !has('email') ||
    !has('child_first_name') ||
    !has('dob') ||
    !(has('parent_full_name') || (has('parent_first_name') && has('parent_last_name')))
  )
    throw new BadRequestError(importMessages.badMapping);
  const today = await companyToday(db, tenant);
  const classes = has('class_name')
    ? await importableClasses(db, tenant, today)
    : new Map<string, ImportableClass>();
  const problems: string[] = [];
  const families = new Map<string, PlannedFamily>();
  const seenChildren = new Map<string, number>();

  csv.rows.forEach((cells, i) => {
    const row = i + 2;
    const cell = (field: keyof ImportMapping) => {
      const at = index(field);
      return at >= 0 ? (cells[at] ?? '').trim() : '';
    };
    const say = (text: string) => problems.push(`Row ${row}: ${text}`);
    const before = problems.length;
    const email = normaliseEmail(cell('email'));
    const parentLast = cell('parent_last_name');
    const fullName =
      cell('parent_full_name') || [cell('parent_first_name'), parentLast].filter(Boolean).join(' ');
    if (!email) say('no parent email');
    else if (!EMAIL.test(email)) say(`the email '${email}' is not an email address`);
    if (!fullName) say('no parent name');
    const firstName = cell('child_first_name');
    const lastName = cell('child_last_name') || parentLast || fullName.split(' ').slice(-1)[0] || '';
    if (!firstName) say('no child first name');
    const dobText = cell('dob');
    const dob = dobText ? parseDob(dobText, today) : null;
    if (!dobText) say('no date of birth');
    else if (!dob) say(`the date of birth ${dobText} is not a date`);
    const className = cell('class_name');
    const cls = className ? (classes.get(className.toLowerCase()) ?? null) : null;
    if (className && !cls) say(`the class '${className}' does not exist`);
    const family = families.get(email);
    if (email && family && fullName && family.fullName.toLowerCase() !== fullName.toLowerCase())
      say(`the email ${email} is also on row ${family.rows[0]} for ${family.fullName}`);
    const childKey = `${email}|${firstName.toLowerCase()}|${dob}`;
    const sameChild = seenChildren.get(childKey);
    if (sameChild) say(`${firstName} is already on row ${sameChild}`);
    if (problems.length > before) return;
    seenChildren.set(childKey, row);
    const child = { row, firstName, lastName, dob: dob!, medicalNotes: cell('medical_notes') || null, cls };
    if (family) {
      family.rows.push(row);
      family.children.push(child);
    } else
      families.set(email, {
        rows: [row],
        email,
        fullName,
        phone: cell('phone') || null,
        existingId: null,
        children: [child],
      });
  });

  const existing = await usersByEmails(db, tenant, [...families.keys()]);
  for (const family of families.values()) {
    const user = existing.get(family.email);
    if (user && user.role !== 'student')
      problems.push(`Row ${family.rows[0]}: ${family.email} is a staff member's email, not a family's`);
    family.existingId = user?.id ?? null;
  }

  // Places: the classes' free places from their next session, in row order.
  const wanted = [...families.values()].flatMap((f) => f.children).filter((c) => c.cls);
  const left = await importPlacesLeft(db, tenant, [
    ...new Map(wanted.map((c) => [c.cls!.id, c.cls!])).values(),
  ]);
  for (const child of wanted.sort((a, b) => a.row - b.row)) {
    const free = left.get(child.cls!.id) ?? 0;
    if (free < 1) problems.push(`Row ${child.row}: the class '${child.cls!.name}' is full`);
    left.set(child.cls!.id, free - 1);
  }

  const actions = [...families.values()].map((f) => {
    const rows = f.rows.length === 1 ? `Row ${f.rows[0]}` : `Rows ${f.rows.join(', ')}`;
    const kids = plural(f.children.length, 'child');
    const places = f.children.filter((c) => c.cls).length;
    const enrols = places > 0 ? `, ${plural(places, 'class place')}` : '';
    return f.existingId
      ? `${rows}: adds ${kids} to an existing family (${f.email})${enrols}`
      : `${rows}: new family ${f.fullName} (${f.email}) with ${kids}${enrols}`;
  });
  problems.sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
  return { rows: csv.rows.length, problems, actions, families: [...families.values()] };
}

export async function dryRun(
  deps: AppDeps,
  auth: AuthContext,
  file: Buffer,
  mapping: ImportMapping,
): Promise<ImportDryRunResponse> {
  const result = await plan(deps.database.db, auth.tenant, readCsv(file), mapping);
  const children = result.families.flatMap((f) => f.children);
  return {
    rows: result.rows,
    problems: result.problems,
    actions: result.problems.length ? [] : result.actions,
    summary: {
      new_families: result.families.filter((f) => !f.existingId).length,
      existing_families: result.families.filter((f) => f.existingId).length,
      children: children.length,
      enrolments: children.filter((c) => c.cls).length,
    },
  };
}

const view = (run: typeof importRuns.$inferSelect): ImportRunView => ({
  id: run.id,
  status: run.status,
  total_rows: run.totalRows,
  done_rows: run.doneRows,
  families: run.families,
  children: run.children,
  enrolments: run.enrolments,
  invitations: run.invitations,
  message: run.message,
});

/**
 * Starts the import: checks the file again (a problem refuses it, nothing written), keeps the
 * mapping for the next file, and answers the run at once; the page polls it while it writes.
 */
export async function startImport(
  deps: AppDeps,
  auth: AuthContext,
  file: Buffer,
  mapping: ImportMapping,
  logError: (error: unknown) => void,
): Promise<ImportRunView> {
  const { db } = deps.database;
  const { tenant } = auth;
  const checked = await plan(db, tenant, readCsv(file), mapping);
  if (checked.problems.length > 0) throw new BadRequestError(importMessages.hasProblems);
  await db
    .insert(importMappings)
    .values(tenant.values({ mapping: mapping as Record<string, string> }))
    .onConflictDoUpdate({ target: importMappings.companyId, set: { mapping, updatedAt: new Date() } });
  const [run] = await db
    .insert(importRuns)
    .values(tenant.values({ totalRows: checked.rows, createdBy: auth.userId }))
    .returning();
  // The write runs after the answer; its failures end on the run row, never unhandled.
  void writeImport(deps, auth, run!.id, checked.families, logError);
  return view(run!);
}

async function writeImport(
  deps: AppDeps,
  auth: AuthContext,
  runId: number,
  families: PlannedFamily[],
  logError: (error: unknown) => void,
) {
  const { db } = deps.database;
  const { tenant } = auth;
  const progress = (set: Partial<typeof importRuns.$inferInsert>) =>
    db.update(importRuns).set(set).where(tenant.byId(importRuns, runId));
  const totals = { families: 0, children: 0, enrolments: 0, invitations: 0 };
  try {
    const company = await companyOf(db, tenant);
    await db.transaction(async (tx) => {
      const places: { cls: ImportableClass; childId: number }[] = [];
      let doneRows = 0;
      for (const family of families) {
        const parentId =
          family.existingId ??
          (await inviteImportedParent(tx, deps, auth, company, {
            email: family.email,
            fullName: family.fullName,
            phone: family.phone,
            childNames: family.children.map((c) => c.firstName),
          }));
        if (!family.existingId) totals.invitations += 1;
        totals.families += 1;
        const ids = await createChildren(
          tx,
          tenant,
          parentId,
          family.children.map((c) => ({
            firstName: c.firstName,
            lastName: c.lastName,
            dob: c.dob,
            consent: false,
            medicalNotes: c.medicalNotes,
          })),
        );
        totals.children += ids.length;
        family.children.forEach((c, i) => {
          if (c.cls) places.push({ cls: c.cls, childId: ids[i]! });
        });
        doneRows += family.rows.length;
        // Outside the transaction (its own connection), so the page sees it while this one runs.
        await progress({ doneRows });
      }
      totals.enrolments = await placeImportedChildren(tx, tenant, places);
      await recordAudit(tx, auth, {
        action: 'import',
        entity: 'import-runs',
        entityId: runId,
        after: totals,
      });
    });
    await progress({ status: 'done', ...totals, finishedAt: new Date() });
    await deps.jobs.nudge(queues.mailDeliver);
  } catch (error) {
    const message =
      error instanceof ClassFullError
        ? `${error.message} Nothing was imported.`
        : 'The import stopped and nothing was imported. Please try again.';
    if (!(error instanceof ClassFullError)) logError(error);
    await progress({ status: 'failed', doneRows: 0, message, finishedAt: new Date() }).catch(() => undefined);
  }
}

export async function importRun(db: Db, tenant: Tenant, id: number): Promise<ImportRunView> {
  const [run] = await db.select().from(importRuns).where(tenant.byId(importRuns, id));
  if (!run) throw new NotFoundError('That import could not be found.');
  return view(run);
}

/** The latest import of the company (the page reopens on it), or null. */
export async function latestRun(db: Db, tenant: Tenant): Promise<ImportRunView | null> {
  const [run] = await db
    .select()
    .from(importRuns)
    .where(tenant.where(importRuns))
    .orderBy(desc(importRuns.id))
    .limit(1);
  return run ? view(run) : null;
}
