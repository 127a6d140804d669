import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { randomToken, sha256 } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf, logoUrl } from '../accounts/accounts.service.ts';
import { publishedForm } from '../registration/registration.service.ts';
import { terms } from './classes.tables.ts';
import { enrolmentQueues, enrolmentQueueTickets } from './enrolment-queue.tables.ts';

/**
 * Enrolment day (issue 14): a fair queue in front of a term's public enrolment.
 *
 * From `waitingRoomMinutes` before a term's `publicEnrolmentOpensAt`, a parent opening the
 * registration page takes a numbered ticket (numbers have no gaps: a counter row per opening, bumped
 * in the ticket's transaction). From the opening, tickets are let in strictly in number order at
 * `admitPerSecond`: ticket n at `opensAt + (n - 1) / admitPerSecond`, and may check out for
 * `admittedForMinutes` after that. Admission is arithmetic on the stored `admitAt`, so no job runs
 * and polling a ticket is one indexed read without a lock. The queue is over when its last ticket
 * has been let in; from then on the page is open to everyone (capacity is still counted under the
 * class locks, decision 013).
 */

export interface QueueSettings {
  waitingRoomMinutes: number;
  admitPerSecond: number;
  admittedForMinutes: number;
}

export function queueSettings(config: Config): QueueSettings {
  return {
    waitingRoomMinutes: config.ENROLMENT_QUEUE_WAITING_ROOM_MINUTES,
    admitPerSecond: config.ENROLMENT_QUEUE_ADMIT_PER_SECOND,
    admittedForMinutes: config.ENROLMENT_QUEUE_ADMITTED_MINUTES,
  };
}

const MINUTE = 60_000;

interface Opening {
  opensAt: Date;
  queue: { id: number; admitPerSecond: number; admittedForMinutes: number; issued: number } | null;
}

/** When the last ticket taken so far is let in (the opening itself when nobody queued). */
function lastAdmitAt(opening: Opening): number {
  const { opensAt, queue } = opening;
  if (!queue || queue.issued === 0) return opensAt.getTime();
  return admitAtOf(opensAt, queue.issued, queue.admitPerSecond).getTime();
}

function admitAtOf(opensAt: Date, number: number, admitPerSecond: number): Date {
  return new Date(opensAt.getTime() + Math.floor(((number - 1) * 1000) / admitPerSecond));
}

/** Whether parents must queue for this opening now: before it, or while admission is running. */
function running(opening: Opening, now: Date): boolean {
  return now.getTime() < opening.opensAt.getTime() || now.getTime() < lastAdmitAt(opening);
}

/** The public openings of the terms (earliest first), each with its queue when tickets were taken. */
async function openingsOf(db: Db, tenant: Tenant, termIds: number[]): Promise<Opening[]> {
  if (termIds.length === 0) return [];
  const rows = await db
    .selectDistinct({
      opensAt: terms.publicEnrolmentOpensAt,
      queueId: enrolmentQueues.id,
      admitPerSecond: enrolmentQueues.admitPerSecond,
      admittedForMinutes: enrolmentQueues.admittedForMinutes,
      issued: enrolmentQueues.issued,
    })
    .from(terms)
    .leftJoin(
      enrolmentQueues,
      and(
        eq(enrolmentQueues.companyId, terms.companyId),
        // A queue's opening came through a JS Date: whole milliseconds, where the term's may not be.
        eq(enrolmentQueues.opensAt, sql`date_trunc('milliseconds', ${terms.publicEnrolmentOpensAt})`),
      ),
    )
    .where(
      tenant.where(
        terms,
        inArray(terms.id, termIds),
        isNotNull(terms.publicEnrolmentOpensAt),
        isNull(terms.archivedAt),
      ),
    )
    .orderBy(asc(terms.publicEnrolmentOpensAt));
  return rows.flatMap(({ opensAt, queueId, admitPerSecond, admittedForMinutes, issued }) =>
    opensAt
      ? [
          {
            opensAt,
            queue:
              queueId === null || admitPerSecond === null || admittedForMinutes === null || issued === null
                ? null
                : { id: queueId, admitPerSecond, admittedForMinutes, issued },
          },
        ]
      : [],
  );
}

/**
 * Simultaneous reads of one form's openings share one trip to the database: at the opening a
 * thousand browsers ask the same thing in the same second, and the pool would otherwise queue them
 * past its timeout. Nothing is kept once the read answers, so nothing goes stale; each caller still
 * judges the openings with its own clock. Pool reads only (never inside a transaction).
 */
const formOpeningsInFlight = new Map<string, Promise<Opening[]>>();

function formOpenings(db: Db, tenant: Tenant, formKey: string): Promise<Opening[]> {
  const key = `${tenant.companyId}|${formKey}`;
  let read = formOpeningsInFlight.get(key);
  if (!read) {
    read = (async () => {
      const form = await publishedForm(db, tenant, formKey);
      if (!form) throw new NotFoundError('This registration form is not available.');
      return openingsOf(db, tenant, form.termIds);
    })().finally(() => formOpeningsInFlight.delete(key));
    formOpeningsInFlight.set(key, read);
  }
  return read;
}

/** The opening a form waits for: the earliest of its terms' that is ahead or still admitting. */
async function pendingOpening(db: Db, tenant: Tenant, formKey: string, now: Date) {
  const openings = await formOpenings(db, tenant, formKey);
  return openings.find((o) => running(o, now)) ?? null;
}

export interface QueueStatusView {
  queued: boolean;
  opensAt: Date | null;
  waitingRoomOpensAt: Date | null;
  timeZone: string;
  company: { name: string; logo: string | null };
}

/** Whether the registration page of a form is behind the waiting room now. */
export async function queueStatus(
  db: Db,
  tenant: Tenant,
  formKey: string,
  settings: QueueSettings,
  now: Date = new Date(),
): Promise<QueueStatusView> {
  const [opening, company] = await Promise.all([
    pendingOpening(db, tenant, formKey, now),
    companyOf(db, tenant),
  ]);
  const brand = { name: company.name, logo: logoUrl(company.logoFile) };
  if (!opening)
    return {
      queued: false,
      opensAt: null,
      waitingRoomOpensAt: null,
      timeZone: company.timeZone,
      company: brand,
    };
  const waitingRoomOpensAt = new Date(opening.opensAt.getTime() - settings.waitingRoomMinutes * MINUTE);
  return {
    queued: now >= waitingRoomOpensAt,
    opensAt: opening.opensAt,
    waitingRoomOpensAt,
    timeZone: company.timeZone,
    company: brand,
  };
}

export interface TicketView {
  token: string;
  number: number;
  position: number;
  admitted: boolean;
  expired: boolean;
  opensAt: Date;
  admitAt: Date;
  admittedUntil: Date;
  admitPerSecond: number;
  estimateSeconds: number;
}

function ticketView(
  token: string,
  row: { number: number; admitAt: Date; opensAt: Date; admitPerSecond: number; admittedForMinutes: number },
  now: Date,
): TicketView {
  const admitted = now >= row.admitAt;
  const admittedUntil = new Date(row.admitAt.getTime() + row.admittedForMinutes * MINUTE);
  // Tickets let in by now: none before the opening, then one more every 1/admitPerSecond seconds.
  const letIn =
    now < row.opensAt
      ? 0
      : Math.floor(((now.getTime() - row.opensAt.getTime()) * row.admitPerSecond) / 1000) + 1;
  return {
    token,
    number: row.number,
    position: admitted ? 0 : Math.max(1, row.number - letIn),
    admitted,
    expired: now >= admittedUntil,
    opensAt: row.opensAt,
    admitAt: row.admitAt,
    admittedUntil,
    admitPerSecond: row.admitPerSecond,
    estimateSeconds: admitted ? 0 : Math.ceil((row.admitAt.getTime() - now.getTime()) / 1000),
  };
}

/**
 * A new ticket at the back of the form's queue. Refused (409) when the form has no waiting room
 * open: the page then simply shows the form.
 */
export async function takeTicket(
  db: Db,
  tenant: Tenant,
  formKey: string,
  settings: QueueSettings,
  now: Date = new Date(),
): Promise<TicketView> {
  const opening = await pendingOpening(db, tenant, formKey, now);
  if (!opening || now.getTime() < opening.opensAt.getTime() - settings.waitingRoomMinutes * MINUTE) {
    throw new ConflictError('There is no queue for this form right now. Please reload the page.');
  }
  const token = randomToken();
  // One statement: bump the opening's counter row and insert the ticket with the number it hands
  // out. The row lock of the upsert serializes numbers (no duplicates) and lasts only as long as
  // this statement, whatever the event loop's lag under a rush; a failed insert rolls the bump
  // back with it, so numbers have no gaps.
  const bumped = db.$with('bumped').as(
    db
      .insert(enrolmentQueues)
      .values(
        tenant.values({
          opensAt: opening.opensAt,
          admitPerSecond: settings.admitPerSecond,
          admittedForMinutes: settings.admittedForMinutes,
          issued: 1,
        }),
      )
      .onConflictDoUpdate({
        target: [enrolmentQueues.companyId, enrolmentQueues.opensAt],
        set: { issued: sql`${enrolmentQueues.issued} + 1` },
      })
      .returning(),
  );
  const [row] = await db
    .with(bumped)
    .insert(enrolmentQueueTickets)
    .select(
      db
        // insert … select takes every column, in the table's order.
        .select({
          id: sql`nextval(pg_get_serial_sequence('enrolment_queue_tickets', 'id'))`.as('id'),
          companyId: bumped.companyId,
          queueId: bumped.id,
          number: bumped.issued,
          tokenHash: sql`${sha256(token)}`.as('token_hash'),
          // admitAtOf in SQL: whole milliseconds after the opening.
          admitAt:
            sql`${bumped.opensAt} + floor((${bumped.issued} - 1) * 1000.0 / ${bumped.admitPerSecond}) * interval '1 millisecond'`.as(
              'admit_at',
            ),
          createdAt: sql`now()`.as('created_at'),
        })
        .from(bumped),
    )
    .returning({ number: enrolmentQueueTickets.number, admitAt: enrolmentQueueTickets.admitAt });
  if (!row) throw new Error('taking a queue ticket inserted no row');
  return ticketView(token, { ...row, opensAt: opening.opensAt, ...queueRulesOf(opening, settings) }, now);
}

/** The rate and window a queue was created with (the settings when this ticket created it). */
function queueRulesOf(opening: Opening, settings: QueueSettings) {
  return {
    admitPerSecond: opening.queue?.admitPerSecond ?? settings.admitPerSecond,
    admittedForMinutes: opening.queue?.admittedForMinutes ?? settings.admittedForMinutes,
  };
}

/** A ticket by its token (one indexed read, no lock); null when the company has no such ticket. */
export async function ticketOf(
  db: Db,
  tenant: Tenant,
  token: string,
  now: Date = new Date(),
): Promise<(TicketView & { queueId: number }) | null> {
  const [row] = await db
    .select({
      queueId: enrolmentQueueTickets.queueId,
      number: enrolmentQueueTickets.number,
      admitAt: enrolmentQueueTickets.admitAt,
      opensAt: enrolmentQueues.opensAt,
      admitPerSecond: enrolmentQueues.admitPerSecond,
      admittedForMinutes: enrolmentQueues.admittedForMinutes,
    })
    .from(enrolmentQueueTickets)
    .innerJoin(
      enrolmentQueues,
      and(
        eq(enrolmentQueues.id, enrolmentQueueTickets.queueId),
        eq(enrolmentQueues.companyId, enrolmentQueueTickets.companyId),
      ),
    )
    .where(tenant.where(enrolmentQueueTickets, eq(enrolmentQueueTickets.tokenHash, sha256(token))));
  return row ? { ...ticketView(token, row, now), queueId: row.queueId } : null;
}

/** '9:00am' today in the company's zone, else 'Saturday 30 January at 9:00am'. */
function openingText(at: Date, timeZone: string, now: Date): string {
  const time = new Intl.DateTimeFormat('en-AU', {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  })
    .format(at)
    .replace(/\s/g, '')
    .toLowerCase();
  if (todayIn(timeZone, at) === todayIn(timeZone, now)) return `at ${time}`;
  const day = new Intl.DateTimeFormat('en-AU', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(at);
  return `on ${day} at ${time}`;
}

/**
 * The enrolment checkout's first step: while any of the terms' public enrolment queue is running
 * (its opening not reached, or queued parents still being let in), only a browser whose ticket has
 * been let in, and whose window has not passed, may check out; anyone else gets a 409 the page
 * explains. Outside a running queue it does nothing.
 */
export async function assertAdmitted(
  db: Db,
  tenant: Tenant,
  input: { termIds: number[]; queueToken: string | null },
  now: Date = new Date(),
): Promise<void> {
  const active = (await openingsOf(db, tenant, input.termIds)).filter((o) => running(o, now));
  if (active.length === 0) return;
  const ticket = input.queueToken ? await ticketOf(db, tenant, input.queueToken, now) : null;
  for (const opening of active) {
    if (ticket && ticket.queueId === opening.queue?.id && ticket.admitted && !ticket.expired) continue;
    const { timeZone } = await companyOf(db, tenant);
    const ticketOfThisQueue = ticket && ticket.queueId === opening.queue?.id;
    if (ticketOfThisQueue && ticket.expired) {
      throw new ConflictError(
        'Your turn to enrol has passed. Please reload the page to join the queue again.',
      );
    }
    if (now < opening.opensAt) {
      const when = openingText(opening.opensAt, timeZone, now);
      throw new ConflictError(
        ticketOfThisQueue
          ? `Enrolment opens ${when}. Please keep this page open: you are in the queue.`
          : `Enrolment opens ${when}. Please reload the page to join the queue.`,
      );
    }
    throw new ConflictError(
      ticketOfThisQueue
        ? `Enrolment is open and families are let in in turn: you are number ${ticket.position} in the queue. Please keep this page open.`
        : 'Enrolment is open and families are let in in turn. Please reload the page to join the queue.',
    );
  }
}
