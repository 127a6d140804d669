import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { lockParent, retireDuplicateParent } from '../accounts/merge-accounts.service.ts';
import * as ledger from '../billing/merge-ledger.service.ts';
import * as bookings from '../bookings/merge-bookings.service.ts';
import * as feeds from '../calendar-feeds/merge-feeds.service.ts';
import * as places from '../classes/merge-places.service.ts';
import { doubledPlaces, doubledVoucherPeriods } from '../classes/merge-places.service.ts';
import * as lessons from '../coaches/merge-lessons.service.ts';
import * as communications from '../communications/merge-communications.service.ts';
import * as contacts from '../crm/merge-contacts.service.ts';
import * as parties from '../parties/merge-parties.service.ts';
import * as anomalies from '../registration/merge-anomalies.service.ts';
import * as tasks from '../tasks/merge-tasks.service.ts';
import * as uniforms from '../uniforms/merge-uniforms.service.ts';
import * as waivers from '../waivers/merge-waivers.service.ts';
import { flagAssignments } from './flags.tables.ts';
import { type MovedCounts, moveRows } from './merge-rows.ts';
import { children } from './students.tables.ts';

/**
 * Every feature whose rows name a family or a child, in one list: a merge calls each. The schema
 * test in merge.int.test.ts fails when a table with a parent_id or child_id column is not moved
 * by one of these, so a new feature cannot be forgotten.
 */
const FAMILY_MOVERS = [
  ledger,
  bookings,
  contacts,
  places,
  lessons,
  parties,
  anomalies,
  tasks,
  uniforms,
  waivers,
  communications,
  feeds,
];
const CHILD_MOVERS = [bookings, places, lessons, parties, anomalies, tasks, uniforms, waivers];

export interface MergeResult {
  /** Rows per table (what moved, or in a preview what would move), every table the merge covers. */
  moved: MovedCounts;
  /** What the merge will decide for staff (places cancelled, …), in words. */
  notes: string[];
}

/** Thrown inside a preview's transaction so nothing it did is kept. */
class PreviewRollback extends Error {
  constructor(readonly result: MergeResult) {
    super('preview');
  }
}

/** Runs a merge for real, or as a preview in a transaction that is rolled back (the same code both ways). */
async function run(db: Db, preview: boolean, merge: (tx: Db) => Promise<MergeResult>): Promise<MergeResult> {
  try {
    return await db.transaction(async (tx) => {
      const result = await merge(tx);
      if (preview) throw new PreviewRollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof PreviewRollback) return error.result;
    throw error;
  }
}

/**
 * Merges a duplicate family into the kept one: every row naming the duplicate parent moves, the
 * credit balances add up, and the duplicate is disabled (never deleted) and signed out. One
 * transaction, audited with the counts per table.
 */
export async function mergeFamilies(
  db: Db,
  auth: AuthContext,
  input: { fromParentId: number; toParentId: number; preview: boolean },
): Promise<MergeResult> {
  const { tenant } = auth;
  const { fromParentId: from, toParentId: to } = input;
  if (from === to) throw new BadRequestError('Choose another family to merge into.');
  return run(db, input.preview, async (tx) => {
    // Locked in id order so two merges of the same pair cannot deadlock.
    const [first, second] = from < to ? [from, to] : [to, from];
    const a = await lockParent(tx, tenant, first);
    const b = await lockParent(tx, tenant, second);
    if (!a || !b) throw new NotFoundError();
    const duplicate = a.id === from ? a : b;
    const kept = a.id === to ? a : b;
    if (duplicate.status === 'disabled')
      throw new ConflictError('This family was already merged or disabled.');
    const moved: MovedCounts = {
      children: await moveRows(tx, tenant, children, 'parentId', from, to),
      'flag_assignments (family)': await moveRows(tx, tenant, flagAssignments, 'parentId', from, to),
    };
    for (const feature of FAMILY_MOVERS)
      Object.assign(moved, await feature.moveFamilyRows(tx, tenant, from, to));
    Object.assign(moved, await retireDuplicateParent(tx, tenant, duplicate));
    const result = {
      moved,
      notes: [
        `${duplicate.fullName} (${duplicate.email}) is disabled and can no longer sign in; everything moves to ${kept.fullName}.`,
        'Mail already sent stays in the outbox as it was.',
      ],
    };
    await recordAudit(tx, auth, {
      action: 'merge',
      entity: 'families',
      entityId: to,
      before: { mergedParentId: from, mergedEmail: duplicate.email },
      after: { keptParentId: to, moved: result.moved },
    });
    return result;
  });
}

async function lockChild(tx: Db, tenant: Tenant, id: number) {
  const [row] = await tx.select().from(children).where(tenant.byId(children, id)).for('update');
  return row ?? null;
}

/**
 * Merges a child entered twice into the kept child of the same family: places, attendance,
 * makeups, bookings, parties, lessons, waivers, flags, tasks and uniforms move; then the duplicate
 * child is removed (its foreign keys guarantee nothing still names it). Issued invoices never
 * change: their lines keep the words they were issued with.
 */
export async function mergeChildren(
  db: Db,
  auth: AuthContext,
  input: { fromChildId: number; toChildId: number; preview: boolean },
): Promise<MergeResult> {
  const { tenant } = auth;
  const { fromChildId: from, toChildId: to } = input;
  if (from === to) throw new BadRequestError('Choose another child to merge into.');
  return run(db, input.preview, async (tx) => {
    const [first, second] = from < to ? [from, to] : [to, from];
    const a = await lockChild(tx, tenant, first);
    const b = await lockChild(tx, tenant, second);
    if (!a || !b) throw new NotFoundError();
    const duplicate = a.id === from ? a : b;
    const kept = a.id === to ? a : b;
    if (duplicate.parentId !== kept.parentId) {
      throw new BadRequestError('Both children must be in one family: merge the families first.');
    }
    const vouchers = await doubledVoucherPeriods(tx, tenant, from, to);
    if (vouchers.length > 0) {
      throw new ConflictError(
        `Both children used an NSW voucher in ${vouchers.join(', ')}; a child may use one per half-year, so these two cannot be merged.`,
      );
    }
    const doubled = await doubledPlaces(tx, tenant, from, to);
    const moved: MovedCounts = {
      'flag_assignments (child)': await moveRows(tx, tenant, flagAssignments, 'childId', from, to),
    };
    for (const feature of CHILD_MOVERS)
      Object.assign(moved, await feature.moveChildRows(tx, tenant, from, to));
    await tx.delete(children).where(tenant.byId(children, duplicate.id));
    const dupName = `${duplicate.firstName} ${duplicate.lastName}`;
    const keptName = `${kept.firstName} ${kept.lastName}`;
    const notes = [`${dupName} is removed; everything moves to ${keptName}.`];
    if (doubled.length > 0) {
      notes.push(
        `Both children hold a place in ${doubled.length} class${doubled.length === 1 ? '' : 'es'}: ${keptName} keeps theirs and ${dupName}'s is cancelled.`,
      );
    }
    notes.push('Issued invoices do not change.');
    const result = { moved, notes };
    await recordAudit(tx, auth, {
      action: 'merge',
      entity: 'children',
      entityId: to,
      before: { mergedChildId: from, mergedChild: dupName },
      after: { keptChildId: to, moved: result.moved },
    });
    return result;
  });
}
