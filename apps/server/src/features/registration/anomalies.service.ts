import {
  type AnomalyAction,
  type AnomalyKind,
  type AnomalyListResponse,
  type AnomalyResolveResponse,
  anomalyActions,
  anomalyKindLabels,
  type anomalyListQuery,
  anomalyMessages,
} from '@tumble/contracts/registration-forms';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import { classNames } from '../classes/class-names.service.ts';
import { offerPlace, waitlistOf } from '../classes/class-waitlist.service.ts';
import { childrenByIds } from '../students/children.service.ts';
import { registrationAnomalies } from './registration.tables.ts';

/**
 * Anomalies (SPEC registration-forms anomalies): submissions the public form let through that need
 * a staff decision. Each kind has exactly one action, and taking it resolves the anomaly.
 */
export const anomalyActionOf: Record<AnomalyKind, AnomalyAction> = {
  // The child stays enrolled: staff accept the age.
  age_outside_range: 'accept',
  // Merging two children's records is the students' feature (not built yet): here staff only say
  // they are different children.
  possible_duplicate_child: 'not_same_child',
  family_signed_up_twice: 'dismiss',
  payment_failed: 'dismiss',
  // Offers the child's waitlist entry a place now (the waitlist's own rule and lock).
  class_full_waitlisted: 'offer_place',
};

export const NO_LONGER_WAITING = 'The child is no longer waiting for this class: closed without an offer.';

/** The list of the admin screen: open ones first (oldest first), then resolved ones (newest first). */
export async function listAnomalies(
  db: Db,
  tenant: Tenant,
  query: z.output<typeof anomalyListQuery>,
): Promise<AnomalyListResponse> {
  const where = tenant.where(
    registrationAnomalies,
    query.status === 'all' ? undefined : eq(registrationAnomalies.status, query.status),
    query.kind ? eq(registrationAnomalies.kind, query.kind) : undefined,
  );
  const [rows, [total], open] = await Promise.all([
    db
      .select()
      .from(registrationAnomalies)
      .where(where)
      .orderBy(
        asc(sql`${registrationAnomalies.status} = 'resolved'`),
        sql`case when ${registrationAnomalies.status} = 'open' then ${registrationAnomalies.createdAt} end asc`,
        desc(registrationAnomalies.resolvedAt),
        asc(registrationAnomalies.id),
      )
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage),
    db.select({ n: count() }).from(registrationAnomalies).where(where),
    openAnomalyCount(db, tenant),
  ]);
  const [families, kids, classes] = await Promise.all([
    contactsByIds(db, tenant, [
      ...rows.map((r) => r.parentId),
      ...rows.flatMap((r) => (r.resolvedBy === null ? [] : [r.resolvedBy])),
    ]),
    childrenByIds(
      db,
      tenant,
      rows.flatMap((r) => (r.childId === null ? [] : [r.childId])),
    ),
    classNames(
      db,
      tenant,
      rows.flatMap((r) => (r.termClassId === null ? [] : [r.termClassId])),
    ),
  ]);
  const childName = new Map(kids.map((c) => [c.id, `${c.firstName} ${c.lastName}`.trim()]));
  return {
    total: total?.n ?? 0,
    open,
    data: rows.map((row) => {
      const action = anomalyActionOf[row.kind];
      return {
        id: row.id,
        kind: row.kind,
        kind_label: anomalyKindLabels[row.kind],
        status: row.status,
        family: families.get(row.parentId)?.fullName ?? '—',
        child: row.childId === null ? null : (childName.get(row.childId) ?? null),
        class_name: row.termClassId === null ? null : (classes.get(row.termClassId) ?? null),
        detail: row.detail,
        created_at: row.createdAt.toISOString(),
        action: row.status === 'open' ? { name: action, label: anomalyActions[action].label } : null,
        resolution: row.resolution,
        resolved_by: row.resolvedBy === null ? null : (families.get(row.resolvedBy)?.fullName ?? null),
        resolved_at: row.resolvedAt?.toISOString() ?? null,
      };
    }),
  };
}

/** How many anomalies wait for staff (the badge of the sidebar and the dashboard). */
export async function openAnomalyCount(db: Db, tenant: Tenant): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(registrationAnomalies)
    .where(tenant.where(registrationAnomalies, eq(registrationAnomalies.status, 'open')));
  return row?.n ?? 0;
}

/** The waitlist entry of the child in that class still waiting for a place; null when none. */
async function waitingEntryOf(db: Db, tenant: Tenant, termClassId: number, childId: number) {
  const entries = await waitlistOf(db, tenant, termClassId);
  return entries.find((e) => e.childId === childId && e.status === 'waiting')?.id ?? null;
}

/**
 * Takes the anomaly's one action and resolves it, recording who and when (and an audit entry), in
 * one transaction with the anomaly locked; a second resolution answers 409, a foreign id 404.
 * `class_full_waitlisted` first offers the place through the waitlist (its own locked transaction):
 * when that is refused (no free place) the anomaly stays open.
 */
export async function resolveAnomaly(
  deps: AppDeps,
  auth: AuthContext,
  id: number,
): Promise<AnomalyResolveResponse> {
  const { tenant } = auth;
  const { db } = deps.database;
  const [anomaly] = await db
    .select()
    .from(registrationAnomalies)
    .where(tenant.byId(registrationAnomalies, id));
  if (!anomaly) throw new NotFoundError();
  if (anomaly.status !== 'open') throw new ConflictError(anomalyMessages.alreadyResolved);
  const action = anomalyActionOf[anomaly.kind];
  let message: string = anomalyActions[action].done;
  let resolution: string = action;
  if (action === 'offer_place') {
    const entryId =
      anomaly.termClassId !== null && anomaly.childId !== null
        ? await waitingEntryOf(db, tenant, anomaly.termClassId, anomaly.childId)
        : null;
    if (entryId === null) {
      message = NO_LONGER_WAITING;
      resolution = 'not_waiting';
    } else {
      await offerPlace(deps, tenant, entryId);
    }
  }
  await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(registrationAnomalies)
      .where(tenant.byId(registrationAnomalies, id))
      .for('update');
    if (locked?.status !== 'open') throw new ConflictError(anomalyMessages.alreadyResolved);
    const [after] = await tx
      .update(registrationAnomalies)
      .set({ status: 'resolved', resolution, resolvedBy: auth.userId, resolvedAt: new Date() })
      .where(tenant.byId(registrationAnomalies, id, and(eq(registrationAnomalies.status, 'open'))))
      .returning();
    await recordAudit(tx, auth, {
      action,
      entity: 'registration-anomalies',
      entityId: id,
      before: locked,
      after: after ?? null,
    });
  });
  return { success: true, message };
}
