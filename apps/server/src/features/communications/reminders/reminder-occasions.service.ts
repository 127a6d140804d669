import type { ReminderKind } from '@tumble/contracts/reminders';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import { formatMoney } from '../../../platform/money.ts';
import type { Tenant } from '../../../platform/tenancy.ts';
import {
  addDays,
  datesBetween,
  displayDate,
  displayInstant,
  todayIn,
  zonedInstant,
} from '../../../platform/time.ts';
import { type Company, companyContact } from '../../accounts/accounts.service.ts';
import { familyContacts } from '../../accounts/families.service.ts';
import { invoicePayLink } from '../../billing/invoice-mail.ts';
import { owingInvoicesDueOn } from '../../billing/reminder-reads.service.ts';
import { confirmedBookingsStartingOn } from '../../bookings/reminder-reads.service.ts';
import {
  familiesHoldingPlaces,
  sessionsWithChildrenOn,
  trialsOn,
} from '../../classes/reminder-reads.service.ts';
import { checksExpiringOn } from '../../coaches/reminder-reads.service.ts';
import { confirmedPartiesOn } from '../../parties/reminder-reads.service.ts';
import { childrenByIds } from '../../students/children.service.ts';
import { waiversStillNeeded } from '../../waivers/reminder-reads.service.ts';

/**
 * Occasion finders: for each rule kind, the occasions whose reminder falls due in a window, with
 * exactly whom to mail and what to fill in. A finder may return occasions due just outside the
 * window (it reads whole days); the scheduler keeps those with `dueAt` inside it.
 */

export interface Recipient {
  email: string;
  /** The placeholders of the kind's mail (reminderInfo in contracts). */
  data: Record<string, string>;
}

export interface Occasion {
  /** Unique per kind and company: `session:12`, `invoice:40:due:2026-11-30`. */
  key: string;
  summary: string;
  /** When its reminder is due: N hours or days before or after the occasion. */
  dueAt: Date;
  recipients: Recipient[];
}

export interface FinderContext {
  db: Db;
  tenant: Tenant;
  config: Config;
  company: Pick<Company, 'name' | 'timeZone' | 'currency' | 'authhash'>;
  /** The rule's N, in the kind's unit. */
  amount: number;
  /** The window: reminders due after `from`, up to and including `to`. */
  from: Date;
  to: Date;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Day-based reminders (invoices, waivers, parties, checks) go at 9 am in the company's zone. */
export const SEND_TIME = '09:00';

const hhmm = (time: string) => time.slice(0, 5);

/** "Ava", "Ava and Ben", "Ava, Ben and Cleo". */
export function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The company's dates the window touches, shifted by `days`. */
function windowDates(ctx: FinderContext, days: number, widen = 0): string[] {
  const zone = ctx.company.timeZone;
  return datesBetween(todayIn(zone, new Date(ctx.from.getTime() - widen)), todayIn(zone, ctx.to)).map((d) =>
    addDays(d, days),
  );
}

/** The 9 am reminder of a day-based rule: `days` from the occasion's date (negative: before). */
function dayDue(ctx: FinderContext, date: string, days: number): Date {
  return zonedInstant(addDays(date, days), SEND_TIME, ctx.company.timeZone);
}

/** Parents' contacts and their children's first names. */
async function families(ctx: FinderContext, childIds: number[]) {
  const kids = await childrenByIds(ctx.db, ctx.tenant, [...new Set(childIds)]);
  const child = new Map(kids.map((k) => [k.id, k]));
  const contacts = await familyContacts(
    ctx.db,
    ctx.tenant,
    kids.map((k) => k.parentId),
  );
  return { child, contacts };
}

/** N hours before a session: one mail per family with all of its children in the session. */
async function classReminders(ctx: FinderContext): Promise<Occasion[]> {
  const shift = ctx.amount * HOUR;
  const zone = ctx.company.timeZone;
  const dates = datesBetween(
    todayIn(zone, new Date(ctx.from.getTime() + shift)),
    todayIn(zone, new Date(ctx.to.getTime() + shift)),
  );
  const sessions = await sessionsWithChildrenOn(ctx.db, ctx.tenant, dates);
  const { child, contacts } = await families(
    ctx,
    sessions.flatMap((s) => s.childIds),
  );
  return sessions.map((session) => {
    const byParent = new Map<number, string[]>();
    for (const id of session.childIds) {
      const kid = child.get(id);
      if (kid) byParent.set(kid.parentId, [...(byParent.get(kid.parentId) ?? []), kid.firstName]);
    }
    const time = hhmm(session.startTime);
    return {
      key: `session:${session.sessionId}`,
      summary: `${session.className} on ${displayDate(session.date)} at ${time}`,
      dueAt: new Date(zonedInstant(session.date, time, zone).getTime() - shift),
      recipients: [...byParent].flatMap(([parentId, names]) => {
        const parent = contacts.get(parentId);
        if (!parent) return [];
        return [
          {
            email: parent.email,
            data: {
              name: parent.fullName,
              company: ctx.company.name,
              children: joinNames(names),
              class: session.className,
              date: displayDate(session.date),
              time,
            },
          },
        ];
      }),
    };
  });
}

/** N hours after a trial session ends, unless the child has enrolled in the class since. */
async function trialFollowUps(ctx: FinderContext): Promise<Occasion[]> {
  const shift = ctx.amount * HOUR;
  const zone = ctx.company.timeZone;
  // A session may end the day after it starts: read one day more.
  const dates = datesBetween(
    todayIn(zone, new Date(ctx.from.getTime() - shift - DAY)),
    todayIn(zone, new Date(ctx.to.getTime() - shift)),
  );
  const trials = await trialsOn(ctx.db, ctx.tenant, dates);
  const { child, contacts } = await families(
    ctx,
    trials.map((t) => t.childId),
  );
  return trials.map((trial) => {
    const kid = child.get(trial.childId);
    const parent = kid ? contacts.get(kid.parentId) : undefined;
    const ends =
      zonedInstant(trial.date, hhmm(trial.startTime), zone).getTime() + trial.durationMinutes * 60_000;
    return {
      key: `trial:${trial.enrolmentId}`,
      summary: `Trial of ${kid?.firstName ?? 'a child'} in ${trial.className} on ${displayDate(trial.date)}`,
      dueAt: new Date(ends + shift),
      recipients:
        kid && parent
          ? [
              {
                email: parent.email,
                data: {
                  name: parent.fullName,
                  company: ctx.company.name,
                  children: kid.firstName,
                  class: trial.className,
                  date: displayDate(trial.date),
                  link: `${ctx.config.publicUrl}/admin/students/classes`,
                },
              },
            ]
          : [],
    };
  });
}

/** N days before (due) or after (overdue) an owing invoice's due date, at 9 am. */
function invoiceReminders(stage: 'due' | 'overdue') {
  return async (ctx: FinderContext): Promise<Occasion[]> => {
    const days = stage === 'due' ? ctx.amount : -ctx.amount;
    const owing = await owingInvoicesDueOn(ctx.db, ctx.tenant, windowDates(ctx, days));
    const contacts = await familyContacts(
      ctx.db,
      ctx.tenant,
      owing.map((i) => i.parentId),
    );
    return owing.map((invoice) => {
      const parent = contacts.get(invoice.parentId);
      return {
        key: `invoice:${invoice.id}:${stage}:${invoice.dueOn}`,
        summary: `Invoice ${invoice.code} due ${displayDate(invoice.dueOn)}`,
        dueAt: dayDue(ctx, invoice.dueOn, -days),
        recipients: parent
          ? [
              {
                email: parent.email,
                data: {
                  name: parent.fullName,
                  company: ctx.company.name,
                  number: invoice.code,
                  balance: formatMoney(invoice.balance, ctx.company.currency),
                  due: displayDate(invoice.dueOn),
                  pay_link: invoicePayLink(ctx.config.publicUrl, invoice.id, ctx.company.authhash),
                },
              },
            ]
          : [],
      };
    });
  };
}

/** N days before an event booking's first day or a party: whoever still has to sign. */
async function waiverReminders(ctx: FinderContext): Promise<Occasion[]> {
  const dates = windowDates(ctx, ctx.amount);
  const [bookings, parties] = await Promise.all([
    confirmedBookingsStartingOn(ctx.db, ctx.tenant, dates),
    confirmedPartiesOn(ctx.db, ctx.tenant, dates),
  ]);
  const targets = [
    ...bookings.map((b) => ({ kind: 'event' as const, id: b.bookingId, date: b.firstDate })),
    ...parties.map((p) => ({ kind: 'party' as const, id: p.id, date: p.date })),
  ];
  const occasions: Occasion[] = [];
  for (const target of targets) {
    const needed = await waiversStillNeeded(
      ctx.db,
      ctx.tenant,
      ctx.config,
      ctx.company.authhash,
      target.kind,
      target.id,
    );
    if (needed.length === 0) continue;
    occasions.push({
      key: `${target.kind}:${target.id}`,
      summary: `Waivers for ${needed[0]!.title} on ${displayDate(target.date)}`,
      dueAt: dayDue(ctx, target.date, -ctx.amount),
      recipients: needed.map((n) => ({
        email: n.email,
        data: {
          name: n.name,
          company: ctx.company.name,
          children: joinNames(n.children),
          title: n.title,
          date: displayDate(target.date),
          link: n.link,
        },
      })),
    });
  }
  return occasions;
}

/** N days before a party whose guest list is not complete: its parent. */
async function partyGuestReminders(ctx: FinderContext): Promise<Occasion[]> {
  const parties = (await confirmedPartiesOn(ctx.db, ctx.tenant, windowDates(ctx, ctx.amount))).filter(
    (p) => p.entered < p.guests,
  );
  const { child, contacts } = await families(
    ctx,
    parties.map((p) => p.childId),
  );
  return parties.map((party) => {
    const parent = contacts.get(party.parentId);
    const name = child.get(party.childId)?.firstName ?? '';
    return {
      key: `party:${party.id}`,
      summary: `${name}’s party on ${displayDate(party.date)}`,
      dueAt: dayDue(ctx, party.date, -ctx.amount),
      recipients: parent
        ? [
            {
              email: parent.email,
              data: {
                name: parent.fullName,
                company: ctx.company.name,
                child: name,
                date: displayDate(party.date),
                guests: String(party.guests),
                entered: String(party.entered),
                link: `${ctx.config.publicUrl}/birthday-party/update-guest/?id=${encodeURIComponent(party.reference)}&authhash=${encodeURIComponent(ctx.company.authhash)}`,
              },
            },
          ]
        : [],
    };
  });
}

/** N days before a rollover's deadline: families with places still held (not confirmed). */
async function reEnrolmentReminders(ctx: FinderContext): Promise<Occasion[]> {
  const shift = ctx.amount * DAY;
  const held = await familiesHoldingPlaces(
    ctx.db,
    ctx.tenant,
    new Date(ctx.from.getTime() + shift),
    new Date(ctx.to.getTime() + shift),
  );
  const contacts = await familyContacts(
    ctx.db,
    ctx.tenant,
    held.map((h) => h.parentId),
  );
  const byRun = new Map<number, Occasion>();
  for (const family of held) {
    const deadline = displayInstant(family.deadline, ctx.company.timeZone);
    const occasion = byRun.get(family.rolloverId) ?? {
      key: `rollover:${family.rolloverId}`,
      summary: `Re-enrolment into ${family.termName}, deadline ${deadline}`,
      dueAt: new Date(family.deadline.getTime() - shift),
      recipients: [],
    };
    const parent = contacts.get(family.parentId);
    if (parent)
      occasion.recipients.push({
        email: parent.email,
        data: {
          name: parent.fullName,
          company: ctx.company.name,
          term: family.termName,
          deadline,
          places: family.classNames.join('\n'),
          link: `${ctx.config.publicUrl}/admin/students/re-enroll`,
        },
      });
    byRun.set(family.rolloverId, occasion);
  }
  return [...byRun.values()];
}

/** N days before a coach's Working With Children Check expires: the coach and the company. */
async function checkReminders(ctx: FinderContext): Promise<Occasion[]> {
  const checks = await checksExpiringOn(ctx.db, ctx.tenant, windowDates(ctx, ctx.amount));
  if (checks.length === 0) return [];
  const [contacts, company] = await Promise.all([
    familyContacts(
      ctx.db,
      ctx.tenant,
      checks.map((c) => c.userId),
    ),
    companyContact(ctx.db, ctx.tenant),
  ]);
  return checks.map((check) => {
    const coach = contacts.get(check.userId);
    const data = {
      company: ctx.company.name,
      coach: check.name || coach?.fullName || '',
      number: check.number ?? 'not recorded',
      expires: displayDate(check.expiresOn),
    };
    return {
      key: `wwcc:${check.coachId}:${check.expiresOn}`,
      summary: `Check of ${data.coach} expires ${data.expires}`,
      dueAt: dayDue(ctx, check.expiresOn, -ctx.amount),
      recipients: [
        ...(coach ? [{ email: coach.email, data: { ...data, name: coach.fullName } }] : []),
        ...(company.email ? [{ email: company.email, data: { ...data, name: company.name } }] : []),
      ],
    };
  });
}

export const occasionFinders: Record<ReminderKind, (ctx: FinderContext) => Promise<Occasion[]>> = {
  class: classReminders,
  'invoice-due': invoiceReminders('due'),
  'invoice-overdue': invoiceReminders('overdue'),
  waiver: waiverReminders,
  trial: trialFollowUps,
  're-enrolment': reEnrolmentReminders,
  'party-guests': partyGuestReminders,
  wwcc: checkReminders,
};
