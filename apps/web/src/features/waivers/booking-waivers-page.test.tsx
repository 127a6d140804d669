import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminWaiverStatusResponse } from '@tumble/contracts/waiver';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const SLOW = 20_000;
const FIRST_LOAD = { timeout: 5000 };
type Handlers = Parameters<typeof stubServer>[0];

function signedInStaff(handlers: Handlers) {
  const fetchMock = stubServer({ 'GET /rest/acl': () => json(staffAcl()), ...handlers });
  api.setToken('staff-token');
  return fetchMock;
}

function callsTo(fetchMock: ReturnType<typeof stubServer>, path: string, method = 'GET') {
  return fetchMock.mock.calls.filter(
    ([input, init]) =>
      new URL(String(input), 'http://localhost').pathname === path && (init?.method ?? 'GET') === method,
  );
}

const eventBooking: AdminWaiverStatusResponse = {
  title: 'Summer holiday camp',
  reference: 'EB-1001',
  links: [{ name: 'Lee family', url: 'http://localhost:3000/event-booking/waiver/?id=EB-1001&authhash=H1' }],
  people: [
    {
      name: 'Mia Lee',
      role: 'child',
      status: 'signed',
      signed_waiver_id: 12,
      signed_at: '2026-12-01T12:00:00.000Z',
      signer_name: 'Pat Parent',
    },
    {
      name: 'Leo Lee',
      role: 'child',
      status: 'needed',
      signed_waiver_id: null,
      signed_at: null,
      signer_name: null,
    },
  ],
};

describe('/admin/events/:eventId/bookings/:id/booking-waivers', () => {
  it(
    'lists each child with their waiver status and the signing link, and saves a signed waiver’s PDF',
    async () => {
      const fetchMock = signedInStaff({
        'GET /api/v1/admin/waivers/status': () => json(eventBooking),
        'GET /api/v1/admin/signed-waivers/12/pdf': () =>
          new Response('%PDF-1.7 waiver 12', { headers: { 'Content-Type': 'application/pdf' } }),
      });
      const saved: string[] = [];
      Object.assign(URL, { createObjectURL: () => 'blob:test/1', revokeObjectURL: () => {} });
      vi.spyOn(HTMLElement.prototype, 'click').mockImplementation(function (this: HTMLElement) {
        if (this instanceof HTMLAnchorElement && this.download) saved.push(this.download);
      });
      renderApp('/admin/events/3/bookings/41/booking-waivers');
      const user = userEvent.setup();

      const mia = within(await screen.findByRole('row', { name: /Mia Lee/ }, FIRST_LOAD));
      const [statusCall] = callsTo(fetchMock, '/api/v1/admin/waivers/status');
      const query = new URL(String(statusCall?.[0]), 'http://localhost').searchParams;
      expect(query.get('kind')).toBe('event');
      expect(query.get('booking_id')).toBe('41');

      expect(screen.getByText('Summer holiday camp · Ref EB-1001')).toBeTruthy();
      expect(screen.getByText('1 still to sign')).toBeTruthy();
      expect(mia.getByText('Child')).toBeTruthy();
      expect(mia.getByText('Signed on 01/12/2026 by Pat Parent')).toBeTruthy();
      const leo = within(screen.getByRole('row', { name: /Leo Lee/ }));
      expect(leo.getByText('Needs waiver')).toBeTruthy();
      expect(leo.queryByRole('button', { name: /Download PDF/ })).toBeNull();
      const links = within(screen.getByRole('list', { name: 'Signing links' }));
      expect(links.getByText('Lee family')).toBeTruthy();
      expect(
        links.getByRole('link', {
          name: 'http://localhost:3000/event-booking/waiver/?id=EB-1001&authhash=H1',
        }),
      ).toBeTruthy();
      expect(screen.getByRole('link', { name: /Back to bookings/ }).getAttribute('href')).toBe(
        '/admin/events/3/bookings',
      );

      await user.click(mia.getByRole('button', { name: /Download PDF/ }));

      await waitFor(() => expect(saved).toEqual(['signed-waiver-12.pdf']));
      const [pdfCall] = callsTo(fetchMock, '/api/v1/admin/signed-waivers/12/pdf');
      expect(new Headers(pdfCall?.[1]?.headers).get('Authorization')).toBe('Bearer staff-token');
    },
    SLOW,
  );

  it(
    'resends the waiver request for this booking and shows the server’s message',
    async () => {
      const fetchMock = signedInStaff({
        'GET /api/v1/admin/waivers/status': () => json(eventBooking),
        'POST /api/v1/admin/waivers/resend': () =>
          json({ success: true, message: 'The waiver request was sent to pat@example.test.' }),
      });
      renderApp('/admin/events/3/bookings/41/booking-waivers');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Resend waiver request' }, FIRST_LOAD));

      expect((await screen.findByRole('status')).textContent).toBe(
        'The waiver request was sent to pat@example.test.',
      );
      const [resend] = callsTo(fetchMock, '/api/v1/admin/waivers/resend', 'POST');
      expect(JSON.parse(String(resend?.[1]?.body))).toEqual({ kind: 'event', booking_id: 41 });
    },
    SLOW,
  );

  it(
    'says the booking does not exist when the server answers 404, with the way back',
    async () => {
      signedInStaff({
        'GET /api/v1/admin/waivers/status': () => json({ message: 'Not found.' }, { status: 404 }),
      });
      renderApp('/admin/events/3/bookings/999/booking-waivers');

      expect(await screen.findByText('This booking does not exist.', {}, FIRST_LOAD)).toBeTruthy();
      expect(screen.getByRole('link', { name: /Back to bookings/ }).getAttribute('href')).toBe(
        '/admin/events/3/bookings',
      );
    },
    SLOW,
  );
});

describe('/admin/party-bookings/:id/party-waivers', () => {
  it(
    'asks for the party kind, lists guests, and shows a refused resend as an alert',
    async () => {
      const fetchMock = signedInStaff({
        'GET /api/v1/admin/waivers/status': () =>
          json({
            title: "Mia's birthday party",
            reference: 'PB-2002',
            links: [],
            people: [
              {
                name: 'Mia Lee',
                role: 'child',
                status: 'signed',
                signed_waiver_id: 20,
                signed_at: '2027-01-20T12:00:00.000Z',
                signer_name: 'Pat Parent',
              },
              {
                name: 'Sam Guest',
                role: 'guest',
                status: 'signed',
                signed_waiver_id: 21,
                signed_at: '2027-01-22T12:00:00.000Z',
                signer_name: 'Jo Guest',
              },
            ],
          } satisfies AdminWaiverStatusResponse),
        'POST /api/v1/admin/waivers/resend': () =>
          json({ success: false, message: 'Every waiver for this booking is signed.' }),
      });
      renderApp('/admin/party-bookings/8/party-waivers');
      const user = userEvent.setup();

      const guest = within(await screen.findByRole('row', { name: /Sam Guest/ }, FIRST_LOAD));
      const [statusCall] = callsTo(fetchMock, '/api/v1/admin/waivers/status');
      const query = new URL(String(statusCall?.[0]), 'http://localhost').searchParams;
      expect(query.get('kind')).toBe('party');
      expect(query.get('booking_id')).toBe('8');
      expect(guest.getByText('Guest')).toBeTruthy();
      expect(guest.getByText('Signed on 22/01/2027 by Jo Guest')).toBeTruthy();
      expect(screen.getByText('All signed')).toBeTruthy();
      expect(screen.getByText('There is no waiver to sign for this booking.')).toBeTruthy();
      expect(screen.getByRole('link', { name: /Back to bookings/ }).getAttribute('href')).toBe(
        '/admin/party-bookings',
      );

      await user.click(screen.getByRole('button', { name: 'Resend waiver request' }));

      expect((await screen.findByRole('alert')).textContent).toBe('Every waiver for this booking is signed.');
      const [resend] = callsTo(fetchMock, '/api/v1/admin/waivers/resend', 'POST');
      expect(JSON.parse(String(resend?.[1]?.body))).toEqual({ kind: 'party', booking_id: 8 });
    },
    SLOW,
  );
});
