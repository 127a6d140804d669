import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubServer } from '../../test/render';
import { EnrolmentQueueGate } from './queue-gate';

const SECOND = 1000;
// 8:50am in Sydney (AEDT, UTC+11); enrolment opens at 9:00am.
const START = Date.parse('2027-01-30T21:50:00Z');
const OPENS = Date.parse('2027-01-30T22:00:00Z');
const TOKEN = 'tkt_abcdefghijklmnopqrstuvwxyz012345';

/** The server of one queue: our ticket is number 30, one family is let in per second from 9:00am. */
function queueServer(options: { queued?: boolean } = {}) {
  const number = 30;
  const admitAt = OPENS + (number - 1) * SECOND;
  const ticket = () => {
    const now = Date.now();
    const letIn = now < OPENS ? 0 : Math.floor((now - OPENS) / SECOND) + 1;
    const admitted = now >= admitAt;
    return {
      token: TOKEN,
      position: admitted ? 0 : number - letIn,
      admitted,
      expired: false,
      opens_at: new Date(OPENS).toISOString(),
      admit_at: new Date(admitAt).toISOString(),
      estimate_seconds: admitted ? 0 : Math.ceil((admitAt - now) / SECOND),
      admitted_until: new Date(admitAt + 30 * 60 * SECOND).toISOString(),
      admit_per_second: 1,
      now: new Date(now).toISOString(),
    };
  };
  return stubServer({
    'GET /api/v1/registration/queue': () =>
      json({
        queued: options.queued ?? true,
        opens_at: options.queued === false ? null : new Date(OPENS).toISOString(),
        waiting_room_opens_at:
          options.queued === false ? null : new Date(OPENS - 30 * 60 * SECOND).toISOString(),
        time_zone: 'Australia/Sydney',
        company: { name: 'Bounce Gymnastics', logo: null },
        now: new Date().toISOString(),
      }),
    'POST /api/v1/registration/queue': () => json(ticket()),
    [`GET /api/v1/registration/queue/${TOKEN}`]: () => json(ticket()),
  });
}

function renderGate() {
  return render(
    <MantineProvider env="test">
      <EnrolmentQueueGate formKey="term1" authhash="H1">
        {(token) => <p>Registration page (ticket {token ?? 'none'})</p>}
      </EnrolmentQueueGate>
    </MantineProvider>,
  );
}

/** Moves the clock (and every timer due meanwhile) on, letting the answers arrive. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('EnrolmentQueueGate: the enrolment-day waiting room', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => vi.useRealTimers());

  it('counts down to the opening, then shows the place as families are let in, then opens the page with the ticket', async () => {
    const fetchMock = queueServer();
    renderGate();
    await advance(10);

    // Countdown, in Sydney time, with the parent's place; the page stays behind the gate.
    expect(screen.getByRole('heading', { name: 'Enrolment opens at 9:00am' })).toBeTruthy();
    expect(screen.getByText('10:00')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('30');
    expect(screen.queryByText(/Registration page/)).toBeNull();
    await advance(61 * SECOND);
    expect(screen.getByText('8:59')).toBeTruthy();

    // From the opening the place counts down by itself, one family a second: 14 s after it,
    // fifteen are in and ours is 15 (the page ticks once a second).
    await advance(OPENS + 14.5 * SECOND - Date.now());
    expect(screen.getByRole('heading', { name: 'Enrolment is open' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('15');
    expect(screen.getByText('Less than a minute to go')).toBeTruthy();
    expect(screen.queryByText(/Registration page/)).toBeNull();

    // Our turn (number 30, 29 s after the opening): the page, with the ticket for the checkout.
    await advance(30 * SECOND);
    expect(screen.getByText(`Registration page (ticket ${TOKEN})`)).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(1);
  });

  it('keeps the place after a reload: the stored ticket is polled, no new one is taken', async () => {
    const fetchMock = queueServer();
    const first = renderGate();
    await advance(10);
    expect(screen.getByRole('status').textContent).toContain('30');
    first.unmount();

    renderGate();
    await advance(10);
    expect(screen.getByRole('status').textContent).toContain('30');
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts).toHaveLength(1);
    const polls = fetchMock.mock.calls.filter(([url]) => String(url).includes(`/queue/${TOKEN}`));
    expect(polls).toHaveLength(1);
  });

  it('renders the page at once when the form has no queue', async () => {
    queueServer({ queued: false });
    renderGate();
    await advance(10);
    expect(screen.getByText('Registration page (ticket none)')).toBeTruthy();
  });

  it('asks again when the server is busy (503) instead of showing the page', async () => {
    queueServer();
    const busyOnce = vi.fn();
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (busyOnce.mock.calls.length === 0 && String(input).includes('/queue?')) {
        busyOnce();
        return json(
          { message: 'This is very busy right now. Please try again in a moment.' },
          { status: 503 },
        );
      }
      return stubbed(input, init);
    });
    renderGate();
    await advance(10);
    expect(busyOnce).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/Registration page/)).toBeNull();
    expect(screen.queryByTestId('enrolment-queue')).toBeNull();
    await advance(5 * SECOND);
    expect(screen.getByTestId('enrolment-queue')).toBeTruthy();
    expect(screen.queryByText(/Registration page/)).toBeNull();
  });
});
