import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import type { EnrolmentQuoteResponse, FinderClass } from '@tumble/contracts/registration';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { AppProviders } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { leaveForUrl } from '../../components/browser-navigation';
import { studentAcl } from '../../test/fixtures';
import { json, stubServer } from '../../test/render';
import { callsTo, parentChildren } from '../checkout/checkout-test-kit';
import { rememberedPurchase } from './registration-api';
import { RegistrationPage } from './registration-page';
import { registrationFormData } from './registration-test-kit';

vi.mock('../../components/browser-navigation', () => ({ leaveForUrl: vi.fn() }));

const PATH = '/registration/?f=term-classes&authhash=H1';

const form = registrationFormData();

const rec: FinderClass = {
  id: 21,
  name: 'Recreational Gymnastics Tuesday 4:00pm',
  class_type: 'Recreational Gymnastics',
  term_id: 1,
  term_name: 'Term 1',
  day: 'Tuesday',
  weekday: 2,
  start_time: '16:00',
  end_time: '17:00',
  venue: 'Bounce Centre',
  coach: 'Casey Coach',
  level: 'Beginner',
  age_min_months: 60,
  age_max_months: 156,
  places_left: 3,
  first_date: '2027-02-02',
  sessions_left: 10,
  price: 22_000,
  pricing_model: 'term',
  trial: { session_id: 301, date: '2027-02-02', price: 1500 },
};

const quote = (amount: number): EnrolmentQuoteResponse => ({
  pricing_details: {
    place_0: {
      label: 'Recreational Gymnastics Tuesday 4:00pm × 10 sessions',
      description: 'Ava',
      value: amount,
      formatted: `$${(amount / 100).toFixed(2)}`,
    },
    total: {
      label: 'Total',
      description: 'To pay now',
      value: amount,
      formatted: `$${(amount / 100).toFixed(2)}`,
    },
  },
  additional_information: { coupon_code: null, nsw_coupon_code: null },
  errors: {},
  amount_due: amount,
});

function stub() {
  return stubServer({
    'GET /rest/acl': () => json(studentAcl()),
    'GET /api/v1/registration/queue': () =>
      json({
        queued: false,
        opens_at: null,
        waiting_room_opens_at: null,
        time_zone: 'Australia/Sydney',
        company: { name: 'Bounce Gymnastics', logo: null },
        now: new Date().toISOString(),
      }),
    'GET /api/v1/registration/form': () => json(form),
    'GET /api/v1/students/children': parentChildren,
    'GET /api/v1/registration/classes': () => json({ classes: [rec] }),
    'POST /api/v1/registration/quote': () => json(quote(22_000)),
    'POST /api/v1/registration/checkout': () =>
      json({ valid: true, payment_link: 'http://pay.test/card', booking_hash: 'REF123' }),
  });
}

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/registration', Component: RegistrationPage },
      { path: '*', Component: () => null },
    ],
    {
      initialEntries: [PATH],
    },
  );
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router };
}

describe('the public registration page', () => {
  beforeEach(() => {
    api.setToken('tok');
    vi.mocked(leaveForUrl).mockReset();
  });

  it('lets a visitor find a class by a date of birth, then asks them to sign in to pay and keeps the choice', async () => {
    const user = userEvent.setup();
    api.clearSession();
    sessionStorage.clear();
    const server = stub();
    const { router } = renderPage();
    const child = await screen.findByRole('region', { name: 'Child 1' }, { timeout: 5000 });
    // Only a date of birth: no family, no names, nothing asked of the server about a parent.
    expect(within(child).queryByRole('combobox', { name: 'Child' })).toBeNull();
    expect(within(child).queryByRole('textbox', { name: 'First name' })).toBeNull();
    await user.type(within(child).getByRole('textbox', { name: 'Child’s date of birth' }), '04/03/2018');
    await user.tab();
    const classes = await within(child).findByRole('list', { name: 'Classes for Child 1' });
    const finderCall = callsTo(server, '/api/v1/registration/classes')[0]!;
    expect(new URL(String(finderCall[0]), 'http://x').searchParams.get('dob')).toBe('2018-03-04');
    const card = within(classes).getByRole('listitem', { name: rec.name });
    expect(card.textContent).toContain('3 places left');
    expect(card.textContent).toContain('$220.00 for 10 sessions');
    await user.click(within(card).getByRole('button', { name: 'Enrol' }));
    expect(screen.getByTestId('visitor-total').textContent).toBe('$220.00');
    expect(callsTo(server, '/api/v1/students/children')).toHaveLength(0);
    expect(callsTo(server, '/api/v1/registration/quote')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Sign in to pay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/login'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      authhash: 'H1',
      redirect: PATH,
    });

    // Signed in and back: Ava (born that day) has the class chosen, priced by the server.
    api.setToken('tok');
    await router.navigate(PATH);
    const again = await screen.findByRole('region', { name: 'Child 1' }, { timeout: 5000 });
    expect(within(again).getByRole('combobox', { name: 'Child' })).toHaveProperty('value', '7');
    await waitFor(() => expect(callsTo(server, '/api/v1/registration/quote')).toHaveLength(1));
    const quoted = JSON.parse(String(callsTo(server, '/api/v1/registration/quote')[0]![1]!.body));
    expect(quoted).toMatchObject({
      children: [{ id: 7 }],
      choices: [{ term_class_id: 21, kind: 'enrolled' }],
    });
    expect(sessionStorage.getItem('tumble.registration.visitor')).toBeNull();
  });

  it('finds a class for the child, prices it on the server, asks the questions and pays the quoted amount', async () => {
    const user = userEvent.setup();
    const server = stub();
    renderPage();
    const child = await screen.findByRole('region', { name: 'Child 1' }, { timeout: 5000 });
    const classes = await within(child).findByRole('list', { name: 'Classes for Ava' });
    const card = within(classes).getByRole('listitem', { name: rec.name });
    expect(card.textContent).toContain('3 places left');
    expect(card.textContent).toContain('Coach Casey Coach');
    // Classes are looked up for Ava's date of birth.
    const finderCall = callsTo(server, '/api/v1/registration/classes')[0]!;
    expect(new URL(String(finderCall[0]), 'http://x').searchParams.get('dob')).toBe('2018-03-04');

    await user.click(within(card).getByRole('button', { name: 'Enrol' }));
    expect(await screen.findByTestId('price-total')).toBeTruthy();
    expect(screen.getByTestId('price-total').textContent).toBe('$220.00');
    const quoted = JSON.parse(String(callsTo(server, '/api/v1/registration/quote').at(-1)![1]!.body));
    expect(quoted).toMatchObject({
      f: 'term-classes',
      children: [{ id: 7 }],
      choices: [{ child: 0, term_class_id: 21, kind: 'enrolled' }],
    });

    // The required question and the terms come first.
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Please answer “Medical notes” for Ava.');
    expect(alert.textContent).toContain(messages.acceptTerms);
    expect(callsTo(server, '/api/v1/registration/checkout')).toHaveLength(0);

    await user.type(within(child).getByRole('textbox', { name: 'Medical notes' }), 'None');
    await user.click(
      screen.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }),
    );
    await waitFor(() => expect(callsTo(server, '/api/v1/registration/quote').length).toBeGreaterThan(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Confirm Payment' })).toHaveProperty('disabled', false),
    );
    await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));
    await waitFor(() => expect(leaveForUrl).toHaveBeenCalledWith('http://pay.test/card'));
    const sent = JSON.parse(String(callsTo(server, '/api/v1/registration/checkout')[0]![1]!.body));
    expect(sent).toMatchObject({ accept_terms: true, amount: 22_000, answers: [{ medical_notes: 'None' }] });
    // The confirmation after the card page finds the purchase again.
    expect(rememberedPurchase()).toBe('REF123');
  });

  it('back from paying out of a provider’s frame, signed out: the confirmation of the purchase in the address', async () => {
    // The full page has neither the frame's sign-in nor its remembered purchase.
    api.clearSession();
    sessionStorage.clear();
    const server = stubServer({
      'GET /api/v1/registration/form': () => json(form),
      'GET /api/v1/registration/purchase': () =>
        json({
          code: 'EN-7',
          status: 'confirmed',
          total: 22_000,
          formatted_total: '$220.00',
          waiver_link: null,
          places: [
            {
              child: 'Ava Parent',
              class_name: rec.name,
              kind: 'enrolled',
              venue: 'Bounce Centre',
              sessions: [{ date: '2027-02-02', start_time: '4:00pm', end_time: '5:00pm' }],
            },
          ],
        }),
    });
    const router = createMemoryRouter(
      [
        { path: '/registration', Component: RegistrationPage },
        { path: '*', Component: () => null },
      ],
      { initialEntries: [`${PATH}&status=true&purchase=REF9`] },
    );
    render(
      <AppProviders queryClient={createQueryClient()} env="test">
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(await screen.findByRole('heading', { name: 'Enrolment confirmed!' })).toBeTruthy();
    expect(screen.getByTestId('confirmation-places').textContent).toContain(`Ava Parent: ${rec.name}`);
    const asked = new URL(String(callsTo(server, '/api/v1/registration/purchase')[0]![0]), 'http://x');
    expect(asked.searchParams.get('id')).toBe('REF9');
    // Not sent to the sign-in first.
    expect(router.state.location.pathname).toBe('/registration/');
  });
});
