import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { QueueStatus, QueueTicket } from '@tumble/contracts/enrolment-queue';
import { type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { BookingHeader } from '../../components/booking-header';
import { bootstrappedRegistrationForm, PendingPage } from '../../components/server-shell';
import {
  fetchQueueStatus,
  forgetTicket,
  loadTicket,
  pollQueueTicket,
  saveTicket,
  takeQueueTicket,
} from './queue-api';

export interface EnrolmentQueueGateProps {
  formKey: string;
  authhash: string;
  /** The registration page; `queueToken` is what its checkout sends as `queue_token`. */
  children: (queueToken: string | null) => ReactNode;
}

type Gate =
  | { kind: 'checking' }
  | { kind: 'open'; token: string | null }
  | { kind: 'waiting'; ticket: QueueTicket; status: QueueStatus; offset: number };

const SECOND = 1000;
/** setTimeout's longest delay; a page left open longer asks again then. */
const LONGEST = 2 ** 31 - 1;
/** A thousand browsers waiting for the same opening should not all ask in the same millisecond. */
const jitter = () => Math.random() * SECOND;
/** A busy server (503) or a dropped connection is asked again after a few seconds, with jitter. */
const RETRY = 3 * SECOND;
const KEEP_ALIVE = 30 * SECOND;
const retryable = (error: unknown) =>
  !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

/**
 * Enrolment day (issue 14): while a term of the form opens its public enrolment, the registration
 * page waits behind this gate. Before the opening it counts down; from the opening it shows the
 * parent's place as families are let in in arrival order; once let in it renders the page with the
 * ticket's token. A form without a running queue (or a status that cannot be read: the checkout
 * checks again on the server) renders the page at once. The ticket is kept in localStorage, so a
 * reload keeps its place.
 */
export function EnrolmentQueueGate({ formKey, authhash, children }: EnrolmentQueueGateProps) {
  const [gate, setGate] = useState<Gate>({ kind: 'checking' });

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = (ms: number, next: () => Promise<void>) => {
      timer = setTimeout(() => void next(), Math.min(Math.max(ms, 0), LONGEST));
    };

    async function check(): Promise<void> {
      let status: QueueStatus;
      try {
        status = await fetchQueueStatus(formKey, authhash);
      } catch (error) {
        if (cancelled) return;
        // Busy or offline: ask again shortly. Anything else (no such form): the page says so itself.
        if (retryable(error)) later(RETRY + jitter(), check);
        else setGate({ kind: 'open', token: null });
        return;
      }
      if (cancelled) return;
      if (!status.queued) {
        setGate({ kind: 'open', token: null });
        // The waiting room opens later: the page goes behind it then.
        if (status.waiting_room_opens_at)
          later(Date.parse(status.waiting_room_opens_at) - Date.parse(status.now) + jitter(), check);
        return;
      }
      const stored = loadTicket(authhash, formKey);
      let ticket: QueueTicket | null = null;
      try {
        if (stored && stored.opens_at === status.opens_at)
          ticket = await pollQueueTicket(stored.token, authhash);
        if (!ticket || ticket.expired) {
          ticket = await takeQueueTicket(formKey, authhash);
          saveTicket(authhash, formKey, { token: ticket.token, opens_at: ticket.opens_at });
        }
      } catch (error) {
        if (cancelled) return;
        if (retryable(error)) later(RETRY + jitter(), check);
        // 409: the queue ended meanwhile; the page is open to everyone.
        else setGate({ kind: 'open', token: null });
        return;
      }
      if (!cancelled) follow(ticket, status);
    }

    function follow(ticket: QueueTicket, status: QueueStatus) {
      if (ticket.admitted) {
        setGate({ kind: 'open', token: ticket.token });
        return;
      }
      setGate({ kind: 'waiting', ticket, status, offset: Date.parse(ticket.now) - Date.now() });
      // Admission is arithmetic (one family every 1/admit_per_second from the opening): the page
      // counts down by itself and asks the server only when this ticket's turn comes, and every
      // half minute meanwhile (in case staff move the opening), so a thousand waiting browsers
      // cost the server little.
      const untilTurn = Date.parse(ticket.admit_at) - Date.parse(ticket.now);
      const wait = Math.min(untilTurn + jitter() / 2, KEEP_ALIVE + jitter() * 5);
      later(wait, async () => {
        let next: QueueTicket | null;
        try {
          next = await pollQueueTicket(ticket.token, authhash);
        } catch {
          // Busy or offline for a moment: the place is kept; ask again.
          if (!cancelled) later(RETRY + jitter(), async () => follow(ticket, status));
          return;
        }
        if (cancelled) return;
        if (next) follow(next, status);
        else {
          forgetTicket(authhash, formKey);
          await check();
        }
      });
    }

    void check();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [formKey, authhash]);

  // The server drew the form's top only when it was not behind the waiting room: kept on screen.
  if (gate.kind === 'checking')
    return <PendingPage drawnByServer={Boolean(bootstrappedRegistrationForm(formKey, authhash))} />;
  if (gate.kind === 'open') return <>{children(gate.token)}</>;
  return (
    <>
      <BookingHeader company={gate.status.company} />
      <WaitingRoom ticket={gate.ticket} timeZone={gate.status.time_zone} offset={gate.offset} />
    </>
  );
}

/** The waiting room card: the countdown to the opening, then the parent's place and a rough wait. */
export function WaitingRoom({
  ticket,
  timeZone,
  offset,
}: {
  ticket: QueueTicket;
  timeZone: string;
  offset: number;
}) {
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    setNow(Date.now() + offset);
    const tick = setInterval(() => setNow(Date.now() + offset), SECOND);
    return () => clearInterval(tick);
  }, [offset]);

  const opensAt = Date.parse(ticket.opens_at);
  const before = now < opensAt;
  const untilTurn = Math.max(0, Date.parse(ticket.admit_at) - now);
  const secondsLeft = Math.ceil(untilTurn / SECOND);
  // From the opening the place moves on by itself: the families still ahead are let in at the rate.
  const place = before
    ? ticket.position
    : Math.max(1, Math.min(ticket.position, Math.ceil((untilTurn * ticket.admit_per_second) / SECOND)));
  return (
    <Card maw={560} mx="auto" padding="lg" data-testid="enrolment-queue">
      <Stack gap="lg" align="center" ta="center">
        <Stack gap={4} align="center">
          <Title order={1} size="h2">
            {before ? `Enrolment opens ${openingText(opensAt, timeZone, now)}` : 'Enrolment is open'}
          </Title>
          <Text c="dimmed" size="sm">
            Families are let in one by one, in the order they arrived.
          </Text>
        </Stack>
        {before ? (
          <Stack gap={0} align="center">
            <Text size="sm" fw={600} c="dimmed" tt="uppercase">
              Opens in
            </Text>
            <Text fz={44} fw={700} lh={1.1} style={{ fontVariantNumeric: 'tabular-nums' }} aria-hidden="true">
              {countdown(opensAt - now)}
            </Text>
          </Stack>
        ) : null}
        <Group gap="xl" justify="center" role="status" aria-live="polite">
          <Stack gap={0} align="center">
            <Text size="sm" fw={600} c="dimmed" tt="uppercase">
              Your place in the queue
            </Text>
            <Text fz={44} fw={700} lh={1.1} c="blue" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {place.toLocaleString('en-AU')}
            </Text>
            {before ? null : <Text size="sm">{waitText(secondsLeft)}</Text>}
          </Stack>
        </Group>
        <Text size="sm">
          Please keep this page open: it lets you in by itself when it is your turn. Reloading the page keeps
          your place.
        </Text>
      </Stack>
    </Card>
  );
}

/** 'at 9:00am' today in the company's zone, else 'on Saturday 30 January at 9:00am'. */
function openingText(at: number, timeZone: string, now: number): string {
  const time = new Intl.DateTimeFormat('en-AU', {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  })
    .format(at)
    .replace(/\s/g, '')
    .toLowerCase();
  const day = (instant: number) =>
    new Intl.DateTimeFormat('en-AU', { timeZone, dateStyle: 'short' }).format(instant);
  if (day(at) === day(now)) return `at ${time}`;
  const date = new Intl.DateTimeFormat('en-AU', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(at);
  return `on ${date} at ${time}`;
}

/** 'h:mm:ss' (or 'm:ss' under an hour) until the opening. */
function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / SECOND));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

function waitText(seconds: number): string {
  if (seconds <= 60) return 'Less than a minute to go';
  const minutes = Math.ceil(seconds / 60);
  return `About ${minutes} minutes to go`;
}
