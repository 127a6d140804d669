import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, zonedInstant } from '../../platform/time.ts';
import { companyOf, contactOf } from '../accounts/accounts.service.ts';
import { formOfPurchase } from '../registration/enrolment-form-reads.service.ts';
import { type PlaceDetail, purchaseDetails } from './enrolment-purchases.service.ts';
import { enrolmentPurchases } from './enrolments.tables.ts';

/** The enrolment waiver page of a purchase (built by the forms engineer). */
export function enrolmentWaiverLink(publicUrl: string, reference: string, authhash: string): string {
  return `${publicUrl}/registration/waiver/?id=${encodeURIComponent(reference)}&authhash=${encodeURIComponent(authhash)}`;
}

/** iCalendar text: escape backslash, semicolon, comma and new lines (RFC 5545 3.3.11). */
const icsText = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** An instant as an iCalendar UTC date-time: 20270202T050000Z. */
const icsInstant = (at: Date) => `${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

/**
 * The calendar file of a purchase: one VEVENT per session, the company's wall-clock times given in
 * UTC so every calendar shows them right whatever its own zone.
 */
export function enrolmentCalendar(
  places: PlaceDetail[],
  options: { company: string; timeZone: string; reference: string; now?: Date },
): string {
  const stamp = icsInstant(options.now ?? new Date());
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${icsText(options.company)}//Enrolments//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  for (const place of places) {
    for (const session of place.sessions) {
      lines.push(
        'BEGIN:VEVENT',
        `UID:${options.reference}-${place.enrolmentId}-${session.id}@tumble`,
        `DTSTAMP:${stamp}`,
        `DTSTART:${icsInstant(zonedInstant(session.date, session.startTime, options.timeZone))}`,
        `DTEND:${icsInstant(zonedInstant(session.date, session.endTime, options.timeZone))}`,
        `SUMMARY:${icsText(`${place.className}${place.kind === 'trial' ? ' (trial)' : ''}: ${place.childName}`)}`,
        ...(place.venue ? [`LOCATION:${icsText(place.venue)}`] : []),
        'END:VEVENT',
      );
    }
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
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
    ics: enrolmentCalendar(places, {
      company: company.name,
      timeZone: company.timeZone,
      reference: purchase.code,
    }),
  });
}
