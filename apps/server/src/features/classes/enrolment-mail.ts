import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { calendarFile, calendarMailData } from '../../platform/mail/ics.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { companyOf, contactOf } from '../accounts/accounts.service.ts';
import { addToCalendarText, familyFeedPage } from '../calendar-feeds/calendar-links.ts';
import { formOfPurchase } from '../registration/enrolment-form-reads.service.ts';
import { type PlaceDetail, purchaseDetails } from './enrolment-purchases.service.ts';
import { enrolmentPurchases } from './enrolments.tables.ts';

/** The enrolment waiver page of a purchase (built by the forms engineer). */
export function enrolmentWaiverLink(publicUrl: string, reference: string, authhash: string): string {
  return `${publicUrl}/registration/waiver/?id=${encodeURIComponent(reference)}&authhash=${encodeURIComponent(authhash)}`;
}

/**
 * The calendar file of a purchase: one event per session, each with a UID stable for that place and
 * session (platform/mail/ics.ts).
 */
export function enrolmentCalendar(
  places: PlaceDetail[],
  options: { company: string; timeZone: string; reference: string; now?: Date },
): string {
  return calendarFile({
    company: options.company,
    product: 'Enrolments',
    timeZone: options.timeZone,
    now: options.now,
    events: places.flatMap((place) =>
      place.sessions.map((session) => ({
        uid: `${options.reference}-${place.enrolmentId}-${session.id}@tumble`,
        date: session.date,
        startTime: session.startTime,
        endTime: session.endTime,
        summary: `${place.className}${place.kind === 'trial' ? ' (trial)' : ''}: ${place.childName}`,
        location: place.venue,
      })),
    ),
  });
}

/** The sessions of a purchase as the mail lists them, one line per session. */
export function sessionLines(places: PlaceDetail[]): string {
  return places
    .map((p) =>
      [
        `${p.childName}: ${p.className}${p.kind === 'trial' ? ' (trial)' : ''}${p.venue ? `, ${p.venue}` : ''}`,
        ...p.sessions.map((s) => `  ${displayDate(s.date)} ${s.startTime}–${s.endTime}`),
      ].join('\n'),
    )
    .join('\n');
}

/** In the confirming transaction: the parent's confirmation mail with the sessions and the calendar file. */
export async function queueEnrolmentConfirmation(deps: AppDeps, tx: Db, tenant: Tenant, purchaseId: number) {
  const [row] = await tx
    .select({ reference: enrolmentPurchases.reference })
    .from(enrolmentPurchases)
    .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.id, purchaseId)));
  const details = row ? await purchaseDetails(tx, tenant, row.reference) : null;
  if (!details) return;
  const { purchase, places } = details;
  const company = await companyOf(tx, tenant);
  const parent = await contactOf(tx, tenant, purchase.parentId);
  const hasWaiver = (await formOfPurchase(tx, tenant, purchase.registrationFormId))?.waiverId != null;
  await queueMail(tx, tenant, deps.config, 'enrolment-confirmation', parent.email, {
    name: parent.fullName,
    company: company.name,
    reference: purchase.code,
    sessions: sessionLines(places),
    amount: formatMoney(purchase.total, company.currency),
    waiver: hasWaiver ? 'Please sign the waiver for each child before the first session:' : '',
    link: hasWaiver ? enrolmentWaiverLink(deps.config.publicUrl, purchase.reference, company.authhash) : '',
    ...calendarMailData(
      'classes.ics',
      enrolmentCalendar(places, {
        company: company.name,
        timeZone: company.timeZone,
        reference: purchase.code,
      }),
    ),
    // The first session of each place; the family feed holds them all.
    calendar: addToCalendarText(
      places.flatMap((p) =>
        p.sessions.slice(0, 1).map((s) => ({
          date: s.date,
          startTime: s.startTime,
          endTime: s.endTime,
          summary: `${p.className}${p.kind === 'trial' ? ' (trial)' : ''}: ${p.childName}`,
          location: p.venue,
        })),
      ),
      company.timeZone,
      familyFeedPage(deps.config.publicUrl),
    ),
  });
}
