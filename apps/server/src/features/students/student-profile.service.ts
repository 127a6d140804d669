import type { StudentProfileScreen } from '@tumble/contracts/student-directory';
import type { ChildProfileForm } from '@tumble/contracts/students';
import { asc, eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { familyContacts } from '../accounts/families.service.ts';
import { familyStatement } from '../billing/statement.service.ts';
import { childEventBookings } from '../bookings/child-bookings.service.ts';
import { childClassPlaces } from '../classes/child-classes.service.ts';
import { eventNames } from '../events/events.service.ts';
import { childPartyBookings } from '../parties/child-parties.service.ts';
import { tasksOf } from '../tasks/tasks.service.ts';
import { uniformOrdersOf } from '../uniforms/uniform-orders.service.ts';
import { waiverCoverage, waiverSubject } from '../waivers/waiver.service.ts';
import { ageOn, type Child } from './children.service.ts';
import { flagsOf } from './flags.service.ts';
import { children } from './students.tables.ts';

/** The profile columns both the parent's child form and the staff screen save (one schema). */
export function profileColumns(form: ChildProfileForm) {
  return {
    firstName: form.first_name,
    lastName: form.last_name,
    dob: form.dob,
    consent: form.consent === 1,
    medicalNotes: form.medical_notes || null,
    allergies: form.allergies || null,
    emergencyContacts: form.emergency_contacts.map((c) => ({
      name: c.name,
      relationship: c.relationship,
      phone: c.phone,
    })),
    school: form.school || null,
  };
}

/** The profile fields added for issue 17, as both screens read them. */
export function profileExtras(child: Child) {
  return {
    medical_notes: child.medicalNotes ?? '',
    allergies: child.allergies ?? '',
    emergency_contacts: child.emergencyContacts,
    school: child.school ?? '',
  };
}

/** A child of the tenant; another company's (or no) child answers 404. */
export async function companyChild(deps: AppDeps, tenant: Tenant, childId: number): Promise<Child> {
  const [child] = await deps.database.db.select().from(children).where(tenant.byId(children, childId));
  if (!child) throw new NotFoundError('That child could not be found.');
  return child;
}

/**
 * GET /api/v1/admin/students/:id: everything staff see of one child, each other feature read
 * through its own service.
 */
export async function studentProfile(
  deps: AppDeps,
  tenant: Tenant,
  childId: number,
): Promise<StudentProfileScreen> {
  const { db } = deps.database;
  const [child, company] = await Promise.all([companyChild(deps, tenant, childId), companyOf(db, tenant)]);
  const today = todayIn(company.timeZone);
  const [contacts, family, places, bookingRows, partyRows, statement, flags, tasks, uniforms] =
    await Promise.all([
      familyContacts(db, tenant, [child.parentId]),
      db
        .select()
        .from(children)
        .where(tenant.where(children, eq(children.parentId, child.parentId)))
        .orderBy(asc(children.dob), asc(children.id)),
      childClassPlaces(db, tenant, child.id, today),
      childEventBookings(db, tenant, child.id),
      childPartyBookings(db, tenant, child.id),
      familyStatement(db, tenant, child.parentId),
      flagsOf(db, tenant, { childIds: [child.id] }),
      tasksOf(db, tenant, { childId: child.id }),
      uniformOrdersOf(db, tenant, { childId: child.id }),
    ]);
  const [events, eventWaivers, partyWaivers] = await Promise.all([
    eventNames(
      db,
      tenant,
      bookingRows.map((b) => b.eventId),
    ),
    waiverCoverage(
      db,
      tenant,
      'event',
      bookingRows.map((b) => waiverSubject.event(b.id, child.id)),
    ),
    waiverCoverage(
      db,
      tenant,
      'party',
      partyRows.map((p) => waiverSubject.party(p.id, child.id)),
    ),
  ]);
  const stateOf = (coverage: typeof eventWaivers, subject: string) =>
    !coverage.required
      ? ('none' as const)
      : coverage.covered.has(subject)
        ? ('signed' as const)
        : ('needed' as const);
  const bookings = bookingRows.map((b) => ({
    id: b.id,
    code: b.code,
    event_name: events.get(b.eventId) ?? '',
    status: b.status,
    booked_on: todayIn(company.timeZone, b.createdAt),
    waiver: stateOf(eventWaivers, waiverSubject.event(b.id, child.id)),
  }));
  const parties = partyRows.map((p) => ({
    id: p.id,
    code: p.code,
    date: p.date,
    status: p.status,
    waiver: stateOf(partyWaivers, waiverSubject.party(p.id, child.id)),
  }));
  // Waivers matter for what is still on: confirmed bookings and parties.
  const waiverStates = [...bookings, ...parties].filter((b) => b.status === 'confirmed').map((b) => b.waiver);
  const parent = contacts.get(child.parentId);
  return {
    id: child.id,
    first_name: child.firstName,
    last_name: child.lastName,
    dob: child.dob,
    age: ageOn(child.dob, today).years,
    consent: child.consent ? 1 : 0,
    ...profileExtras(child),
    family: {
      id: child.parentId,
      name: parent?.fullName ?? '',
      email: parent?.email ?? '',
      phone: parent?.phone ?? '',
      account_path: `/admin/parents/${child.parentId}/family-account`,
      siblings: family
        .filter((c) => c.id !== child.id)
        .map((c) => ({ id: c.id, name: `${c.firstName} ${c.lastName}`, dob: displayDate(c.dob) })),
    },
    classes: places.map((p) => ({
      id: p.id,
      class_id: p.termClassId,
      class_name: p.className,
      term: p.termName,
      when: p.when,
      kind: p.kind,
      status: p.status,
      present: p.present,
      absent: p.absent,
    })),
    bookings,
    parties,
    waivers: {
      signed: waiverStates.filter((w) => w === 'signed').length,
      needed: waiverStates.filter((w) => w === 'needed').length,
    },
    payments: {
      currency: statement.currency,
      owing: statement.owing,
      overdue: statement.overdue,
      credit: statement.credit,
      invoices: statement.invoices.slice(0, 10).map((i) => ({
        id: i.id,
        code: i.code,
        status: i.status,
        issued_on: i.issued_on,
        total: i.total,
        balance: i.balance,
      })),
    },
    flags: flags.get(child.id) ?? [],
    tasks,
    uniforms,
  };
}

/** POST /api/v1/admin/students/:id: staff save the child's profile, audited in the same transaction. */
export async function saveStudentProfile(
  deps: AppDeps,
  auth: AuthContext,
  childId: number,
  form: ChildProfileForm,
) {
  const before = await companyChild(deps, auth.tenant, childId);
  await deps.database.db.transaction(async (tx) => {
    const [after] = await tx
      .update(children)
      .set(profileColumns(form))
      .where(auth.tenant.byId(children, childId))
      .returning();
    await recordAudit(tx, auth, { action: 'update', entity: 'children', entityId: childId, before, after });
  });
}
