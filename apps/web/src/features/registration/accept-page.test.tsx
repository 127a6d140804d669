import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HeldPlacesResponse } from '@tumble/contracts/class-waitlist';
import { beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const ACCEPT = '/registration/accept/?token=tok1&authhash=H1';
const CLOSED = 'This link is no longer open: the place has been taken up, declined or its hold has ended.';

function held(overrides: Partial<HeldPlacesResponse> = {}): HeldPlacesResponse {
  return {
    status: 'open',
    message: null,
    held_for: 'offer',
    expires_at: '2026-11-25T05:00:00.000Z',
    expires_display: '25 Nov 2026, 4:00 pm',
    places: [
      {
        enrolment_id: 5,
        child_id: 7,
        child_name: 'Ava Parent',
        term_class_id: 3,
        class_name: 'Kinder Gym Tuesday',
        when: 'Tuesdays 4:00 pm – 5:00 pm',
        first_session: '01/12/2026',
      },
    ],
    form_key: 'term-1',
    ...overrides,
  };
}

const formData = {
  form: {
    key: 'term-1',
    name: 'Term 1',
    intro: null,
    questions: [{ key: 'medical_notes', label: 'Medical notes', kind: 'medical_notes', required: true }],
    trials_offered: true,
    has_waiver: false,
    payment_terms: '<p>Term fees are paid up front.</p>',
    public_waitlist: true,
  },
  terms: [],
  company: { name: 'Bounce Gym', logo: null, currency: 'AUD' },
  hold_minutes: 15,
};

const quote = {
  pricing_details: {
    place_0: {
      label: 'Kinder Gym Tuesday × 4 sessions',
      description: 'Ava',
      value: 8000,
      formatted: '$80.00',
    },
    total: { label: 'Total', description: 'To pay now', value: 8000, formatted: '$80.00' },
  },
  additional_information: { coupon_code: null, nsw_coupon_code: null },
  errors: {},
  amount_due: 8000,
};

beforeEach(() => api.setToken('tok'));

describe('AcceptPage', () => {
  it('shows the held place, its hold and the server price; the quote takes the held places with the token', async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/registration/holds': () => json(held()),
      'GET /api/v1/registration/form': () => json(formData),
      'POST /api/v1/registration/quote': () => json(quote),
    });
    renderApp(ACCEPT);

    await screen.findByRole('heading', { level: 1, name: 'A place has come up' });
    const place = within(screen.getByRole('article', { name: 'Ava Parent' }));
    expect(place.getByText('Kinder Gym Tuesday')).toBeTruthy();
    expect(place.getByText('Tuesdays 4:00 pm – 5:00 pm')).toBeTruthy();
    expect(place.getByText('First session: 01/12/2026')).toBeTruthy();
    expect(screen.getByTestId('hold-expiry').textContent).toBe('Held for you until 25 Nov 2026, 4:00 pm.');
    await waitFor(() => expect(screen.getByTestId('price-total').textContent).toBe('$80.00'));

    const quoteCall = fetchMock.mock.calls.find(([url]) => String(url).includes('/registration/quote'));
    expect(JSON.parse(String(quoteCall?.[1]?.body))).toMatchObject({
      f: 'term-1',
      children: [{ id: 7 }],
      choices: [{ child: 0, term_class_id: 3, kind: 'enrolled' }],
      hold_token: 'tok1',
    });

    // Pay is refused until the form's questions are answered and the terms accepted.
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Pay and enrol' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Please answer "Medical notes" for Ava Parent.');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/registration/checkout'))).toBe(false);
  });

  it('back from a cancelled card page: the place is still held until its own deadline', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/registration/holds': () => json(held()),
      'GET /api/v1/registration/form': () => json(formData),
      'POST /api/v1/registration/quote': () => json(quote),
    });
    renderApp(`${ACCEPT}&f=term-1&status=cancelled`);
    await screen.findByRole('heading', { level: 1, name: 'A place has come up' });
    expect(screen.getByTestId('payment-cancelled').textContent).toBe(
      'Payment cancelled. Your place is still held for you until 25 Nov 2026, 4:00 pm; confirm again to pay.',
    );
    expect(screen.getByRole('button', { name: 'Pay and enrol' })).toBeTruthy();
  });

  it('a used or lapsed link says so', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/registration/holds': () => json({ message: CLOSED }, { status: 404 }),
    });
    renderApp(ACCEPT);
    await screen.findByRole('heading', { level: 1, name: 'This place is no longer held' });
    expect(screen.getByRole('alert').textContent).toBe(CLOSED);
  });

  it('No thanks (the mail’s decline link) releases the place after asking', async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/registration/holds': () => json(held()),
      'GET /api/v1/registration/form': () => json(formData),
      'POST /api/v1/registration/holds/release': () =>
        json({ message: 'Thank you: the place has been released for the next family.' }),
    });
    renderApp(`${ACCEPT}&decline=1`);
    await screen.findByRole('heading', { level: 1, name: 'Release this place?' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'No thanks, release it' }));
    await screen.findByRole('heading', { level: 1, name: 'Place released' });
    const release = fetchMock.mock.calls.find(([url]) => String(url).includes('/holds/release'));
    expect(String(release?.[0])).toBe('/api/v1/registration/holds/release?authhash=H1');
    expect(JSON.parse(String(release?.[1]?.body))).toEqual({ token: 'tok1' });
  });
});
