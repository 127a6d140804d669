import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import type { FamilyPayments } from '@tumble/contracts/statement';
import type { MyBookings, MyPartyBookings, MyWaivers, StudentChild } from '@tumble/contracts/students';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childrenQuery } from '../../api/children';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const SLOW = 20_000;
const FIRST_LOAD = { timeout: 5000 };
type Handlers = Parameters<typeof stubServer>[0];

// Mantine keeps notifications in a module-wide store: a success notice would outlive its test.
afterEach(() => notifications.clean());

function signedInParent(handlers: Handlers) {
  const fetchMock = stubServer({ 'GET /rest/acl': () => json(studentAcl()), ...handlers });
  api.setToken('parent-token');
  return fetchMock;
}

function callsTo(fetchMock: ReturnType<typeof stubServer>, path: string, method = 'GET') {
  return fetchMock.mock.calls.filter(
    ([input, init]) =>
      new URL(String(input), 'http://localhost').pathname === path && (init?.method ?? 'GET') === method,
  );
}

function postedBody(fetchMock: ReturnType<typeof stubServer>, path: string): unknown {
  const [call] = callsTo(fetchMock, path, 'POST');
  return JSON.parse(String(call?.[1]?.body));
}

/** Files the page hands to the browser: the name it saves under and the bytes. */
function captureSavedFiles() {
  const blobs = new Map<string, Blob>();
  const saved: { name: string; blob: Blob | undefined }[] = [];
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:test/${blobs.size + 1}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: () => {},
  });
  vi.spyOn(HTMLElement.prototype, 'click').mockImplementation(function (this: HTMLElement) {
    if (this instanceof HTMLAnchorElement && this.download) {
      saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href') ?? '') });
    }
  });
  return saved;
}

/** A phone's screen (390px): the media queries for widths below 769px match. */
function onAPhone() {
  const desktop = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    ...desktop(query),
    matches: query.includes('max-width'),
  }));
}

function pdf(text: string): Response {
  return new Response(text, { headers: { 'Content-Type': 'application/pdf' } });
}

const mia: StudentChild = {
  id: 5,
  first_name: 'Mia',
  last_name: 'Lee',
  dob: '2019-04-03',
  consent: 1,
  insurance_type: 'daily_insurance',
  medical_notes: '',
  allergies: '',
  emergency_contacts: [],
  school: '',
};
const leo: StudentChild = {
  id: 6,
  first_name: 'Leo',
  last_name: 'Lee',
  dob: '2016-11-20',
  consent: 0,
  insurance_type: '',
  medical_notes: '',
  allergies: '',
  emergency_contacts: [],
  school: '',
};

describe('/admin/students/profile', () => {
  it(
    'blocks a post the schema rejects, then posts the fixed profile and says it is saved',
    async () => {
      const fetchMock = signedInParent({
        'GET /api/v1/students/profile': () =>
          json({ full_name: 'Pat Parent', email: 'pat@example.test', phone: '0400 000 000' }),
        'POST /api/v1/students/profile': () =>
          json({ valid: true, info: { title: 'Saved', message: 'Your profile has been saved.' } }),
      });
      renderApp('/admin/students/profile');
      const user = userEvent.setup();

      const name = (await screen.findByRole(
        'textbox',
        { name: /Full name/ },
        FIRST_LOAD,
      )) as HTMLInputElement;
      const email = screen.getByRole('textbox', { name: /Email address/ }) as HTMLInputElement;
      expect(name.value).toBe('Pat Parent');
      expect((screen.getByRole('textbox', { name: 'Phone' }) as HTMLInputElement).value).toBe('0400 000 000');

      await user.clear(name);
      await user.clear(email);
      await user.type(email, 'not-an-email');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Please enter your full name.')).toBeTruthy();
      expect(screen.getByText('Please enter a valid email address.')).toBeTruthy();
      expect(name.getAttribute('aria-invalid')).toBe('true');
      expect(callsTo(fetchMock, '/api/v1/students/profile', 'POST')).toHaveLength(0);

      await user.type(name, 'Pat Parent-Lee');
      await user.clear(email);
      await user.type(email, ' pat.lee@example.test ');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Your profile has been saved.')).toBeTruthy();
      expect(postedBody(fetchMock, '/api/v1/students/profile')).toEqual({
        full_name: 'Pat Parent-Lee',
        email: 'pat.lee@example.test',
        phone: '0400 000 000',
      });
    },
    SLOW,
  );

  it(
    'marks the field the server names when it rejects the profile',
    async () => {
      signedInParent({
        'GET /api/v1/students/profile': () =>
          json({ full_name: 'Pat Parent', email: 'pat@example.test', phone: '' }),
        'POST /api/v1/students/profile': () =>
          json(
            {
              valid: false,
              error: {
                element: [{ name: 'email', messages: ['Another account already uses this email address.'] }],
              },
            },
            { status: 422 },
          ),
      });
      renderApp('/admin/students/profile');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Save' }, FIRST_LOAD));

      expect(await screen.findByText('Another account already uses this email address.')).toBeTruthy();
      expect(screen.getByRole('textbox', { name: /Email address/ }).getAttribute('aria-invalid')).toBe(
        'true',
      );
    },
    SLOW,
  );
});

describe('/admin/students/children', () => {
  it(
    'lists each child with date of birth, photo consent, insurance and an edit link',
    async () => {
      signedInParent({ 'GET /api/v1/students/children': () => json([mia, leo]) });
      renderApp('/admin/students/children');

      const miaCard = within(await screen.findByRole('article', { name: 'Mia Lee' }, FIRST_LOAD));
      expect(miaCard.getByText('03/04/2019')).toBeTruthy();
      expect(miaCard.getByText('Photo consent given')).toBeTruthy();
      expect(miaCard.getByText('Daily insurance')).toBeTruthy();
      expect(miaCard.getByRole('link', { name: 'Edit Mia Lee' }).getAttribute('href')).toBe(
        '/admin/students/children/5',
      );

      const leoCard = within(screen.getByRole('article', { name: 'Leo Lee' }));
      expect(leoCard.getByText('20/11/2016')).toBeTruthy();
      expect(leoCard.getByText('No photo consent')).toBeTruthy();
      expect(leoCard.getByText('None')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Add child' }).getAttribute('href')).toBe(
        '/admin/students/children/add',
      );
    },
    SLOW,
  );

  it(
    'says so when there are no children yet',
    async () => {
      signedInParent({ 'GET /api/v1/students/children': () => json([]) });
      renderApp('/admin/students/children');

      expect(await screen.findByText('You have not added any children yet.', {}, FIRST_LOAD)).toBeTruthy();
      expect(screen.queryByRole('article')).toBeNull();
    },
    SLOW,
  );
});

describe('/admin/students/children/add', () => {
  it(
    'checks the child with the shared schema, posts it, refreshes the checkouts’ children and goes back to the list',
    async () => {
      let saved: StudentChild[] = [];
      const fetchMock = signedInParent({
        'GET /api/v1/students/children': () => json(saved),
        'POST /api/v1/students/children': () => {
          saved = [{ ...mia, id: 9 }];
          return json({ valid: true });
        },
      });
      const { router, queryClient } = renderApp('/admin/students/children/add');
      // The checkouts' own copy of the children, loaded earlier in the session.
      queryClient.setQueryData(childrenQuery().queryKey, []);
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Add child' }, FIRST_LOAD));
      expect(await screen.findByText('Please enter the first name.')).toBeTruthy();
      expect(screen.getByText('Please enter the last name.')).toBeTruthy();
      expect(screen.getByText('Please enter a valid date of birth.')).toBeTruthy();

      await user.type(screen.getByRole('textbox', { name: /First name/ }), 'Mia');
      await user.type(screen.getByRole('textbox', { name: /Last name/ }), 'Lee');
      const dob = screen.getByLabelText('Date of birth');
      await user.type(dob, '01/01/2099');
      await user.tab();
      await user.click(screen.getByRole('button', { name: 'Add child' }));
      expect(await screen.findByText('The date of birth cannot be in the future.')).toBeTruthy();
      expect(callsTo(fetchMock, '/api/v1/students/children', 'POST')).toHaveLength(0);

      await user.clear(dob);
      await user.type(dob, '03/04/2019');
      await user.tab();
      await user.selectOptions(screen.getByRole('combobox', { name: /Insurance/ }), 'daily_insurance');
      await user.click(screen.getByRole('checkbox', { name: /consent to photos/ }));
      await user.click(screen.getByRole('button', { name: 'Add child' }));

      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/children'));
      expect(postedBody(fetchMock, '/api/v1/students/children')).toEqual({
        first_name: 'Mia',
        last_name: 'Lee',
        dob: '2019-04-03',
        consent: 1,
        insurance_type: 'daily_insurance',
        medical_notes: '',
        allergies: '',
        emergency_contacts: [],
        school: '',
      });
      expect(await screen.findByText('Mia has been added.')).toBeTruthy();
      expect(await screen.findByRole('article', { name: 'Mia Lee' })).toBeTruthy();
      expect(queryClient.getQueryState(childrenQuery().queryKey)?.isInvalidated).toBe(true);
    },
    SLOW,
  );
});

describe('/admin/students/children/:id', () => {
  it(
    'starts from the saved child and posts the changes to that child',
    async () => {
      const fetchMock = signedInParent({
        'GET /api/v1/students/children/5': () => json(mia),
        'GET /api/v1/students/children': () => json([mia]),
        'POST /api/v1/students/children/5': () =>
          json({ valid: true, info: { title: 'Saved', message: 'Mia is up to date.' } }),
      });
      const { router } = renderApp('/admin/students/children/5');
      const user = userEvent.setup();

      const first = (await screen.findByRole(
        'textbox',
        { name: /First name/ },
        FIRST_LOAD,
      )) as HTMLInputElement;
      expect(first.value).toBe('Mia');
      expect((screen.getByLabelText('Date of birth') as HTMLInputElement).value).toBe('03/04/2019');
      expect((screen.getByRole('combobox', { name: /Insurance/ }) as HTMLSelectElement).value).toBe(
        'daily_insurance',
      );
      const consent = screen.getByRole('checkbox', { name: /consent to photos/ }) as HTMLInputElement;
      expect(consent.checked).toBe(true);

      await user.clear(first);
      await user.type(first, 'Amelia');
      await user.click(consent);
      await user.selectOptions(screen.getByRole('combobox', { name: /Insurance/ }), 'full_insurance');
      // The profile fields staff see too: allergies and an emergency contact.
      await user.type(screen.getByRole('textbox', { name: 'Allergies' }), 'Bees');
      await user.click(screen.getByRole('button', { name: 'Add emergency contact' }));
      await user.type(screen.getByRole('textbox', { name: 'Emergency contact 1 name' }), 'Nan Lee');
      await user.type(screen.getByRole('textbox', { name: 'Emergency contact 1 phone' }), '0400 111 222');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Mia is up to date.')).toBeTruthy();
      expect(router.state.location.pathname).toBe('/admin/students/children');
      expect(postedBody(fetchMock, '/api/v1/students/children/5')).toEqual({
        first_name: 'Amelia',
        last_name: 'Lee',
        dob: '2019-04-03',
        consent: 0,
        insurance_type: 'full_insurance',
        medical_notes: '',
        allergies: 'Bees',
        emergency_contacts: [{ name: 'Nan Lee', relationship: '', phone: '0400 111 222' }],
        school: '',
      });
    },
    SLOW,
  );

  it(
    'says the child is not found (another parent’s child answers 404) with a link back',
    async () => {
      signedInParent({
        'GET /api/v1/students/children/77': () => json({ message: 'Not found.' }, { status: 404 }),
      });
      renderApp('/admin/students/children/77');

      expect(
        await screen.findByText('This child does not exist, or is not one of yours.', {}, FIRST_LOAD),
      ).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Back to my children' }).getAttribute('href')).toBe(
        '/admin/students/children',
      );
      expect(screen.queryByRole('textbox', { name: /First name/ })).toBeNull();
    },
    SLOW,
  );
});

const bookings: MyBookings = [
  {
    id: 1001,
    reference: 'EB-1001',
    code: 'EB-1001',
    event_name: 'Summer holiday camp',
    status: 'confirmed',
    // 22:30 UTC on 23/11 is already 24/11 in the company's zone (Sydney): the server says which day.
    created_at: '2026-11-23T22:30:00.000Z',
    booked_on: '2026-11-24',
    total: 12000,
    places: 2,
    sessions: [
      { session_id: 11, name: 'Full day', date: '2027-01-04' },
      { session_id: 12, name: 'Morning', date: '2027-01-05' },
    ],
    children: [
      { id: 5, first_name: 'Mia', last_name: 'Lee', waiver: 'signed' },
      { id: 6, first_name: 'Leo', last_name: 'Lee', waiver: 'needed' },
    ],
    payment: { id: 31, status: 'paid', amount: 12000, paid_at: '2026-12-01T12:00:00.000Z' },
    waiver_link: '/event-booking/waiver/?id=EB-1001&authhash=H1',
  },
  {
    id: 990,
    reference: 'EB-0990',
    code: 'EB-0990',
    event_name: 'Spring clinic',
    status: 'pending',
    created_at: '2026-09-10T12:00:00.000Z',
    booked_on: '2026-09-10',
    total: 4550,
    places: 1,
    sessions: [{ session_id: 13, name: 'Afternoon', date: '2026-10-03' }],
    children: [{ id: 5, first_name: 'Mia', last_name: 'Lee', waiver: 'none' }],
    payment: null,
    waiver_link: null,
  },
];

describe('/admin/students/my-booking', () => {
  it(
    'shows each booking as a card with sessions, children’s waivers, payment and the waiver link',
    async () => {
      signedInParent({ 'GET /api/v1/students/my-bookings': () => json(bookings) });
      renderApp('/admin/students/my-booking');

      const camp = within(
        await screen.findByRole('article', { name: 'Summer holiday camp EB-1001' }, FIRST_LOAD),
      );
      expect(camp.getByText('Confirmed')).toBeTruthy();
      expect(camp.getByText('Ref EB-1001 · Booked 24/11/2026')).toBeTruthy();
      expect(camp.getByText('Full day · Mon 04/01/2027')).toBeTruthy();
      expect(camp.getByText('Morning · Tue 05/01/2027')).toBeTruthy();
      expect(within(camp.getByText('Mia Lee').parentElement!).getByText('Waiver signed')).toBeTruthy();
      expect(within(camp.getByText('Leo Lee').parentElement!).getByText('Needs waiver')).toBeTruthy();
      expect(camp.getByText('$120.00')).toBeTruthy();
      expect(camp.getByText('Paid')).toBeTruthy();
      expect(camp.getByRole('link', { name: 'Sign waivers' }).getAttribute('href')).toBe(
        '/event-booking/waiver/?id=EB-1001&authhash=H1',
      );

      const clinic = within(screen.getByRole('article', { name: 'Spring clinic EB-0990' }));
      expect(clinic.getByText('Pending')).toBeTruthy();
      expect(clinic.getByText('Afternoon · Sat 03/10/2026')).toBeTruthy();
      expect(clinic.getByText('$45.50 · not paid')).toBeTruthy();
      // No waiver for this event: no badge, no link.
      expect(clinic.queryByText(/waiver/i)).toBeNull();
      expect(clinic.queryByRole('link', { name: 'Sign waivers' })).toBeNull();
    },
    SLOW,
  );

  it(
    'shows the waitlisted days with their place in the queue, and leaves one (issue 21 point 2)',
    async () => {
      let waitlist = [
        {
          id: 41,
          event_name: 'Summer holiday camp',
          session_name: 'Morning',
          date: '2027-01-06',
          places: 2,
          status: 'waiting',
          position: 3,
        },
        {
          id: 42,
          event_name: 'Summer holiday camp',
          session_name: 'Morning',
          date: '2027-01-07',
          places: 1,
          status: 'invited',
          position: null,
        },
      ];
      const fetchMock = signedInParent({
        'GET /api/v1/students/my-bookings': () => json(bookings),
        'GET /api/v1/students/my-waitlist': () => json(waitlist),
        'POST /api/v1/students/my-waitlist/41/leave': () => {
          waitlist = waitlist.filter((entry) => entry.id !== 41);
          return json({ valid: true });
        },
      });
      renderApp('/admin/students/my-booking');
      const user = userEvent.setup();

      const section = within(await screen.findByRole('region', { name: 'Waitlisted days' }, FIRST_LOAD));
      expect(section.getByText('Summer holiday camp · Morning · Wed 06/01/2027')).toBeTruthy();
      expect(section.getByText('2 places · Waiting · number 3 in the queue')).toBeTruthy();
      expect(section.getByText(/1 place · A place is free for you/)).toBeTruthy();

      await user.click(section.getByRole('button', { name: 'Leave waitlist for Morning on Wed 06/01/2027' }));
      await waitFor(() => expect(section.queryByText(/Wed 06\/01\/2027/)).toBeNull());
      expect(callsTo(fetchMock, '/api/v1/students/my-waitlist/41/leave', 'POST')).toHaveLength(1);
      expect(section.getByText(/Thu 07\/01\/2027/)).toBeTruthy();
    },
    SLOW,
  );

  it(
    'says so when there are no bookings',
    async () => {
      signedInParent({ 'GET /api/v1/students/my-bookings': () => json([]) });
      renderApp('/admin/students/my-booking');

      expect(await screen.findByText('You have no bookings yet.', {}, FIRST_LOAD)).toBeTruthy();
    },
    SLOW,
  );

  it(
    `says '${messages.formLoadFailed}' when the bookings cannot be loaded`,
    async () => {
      signedInParent({
        'GET /api/v1/students/my-bookings': () => json({ message: 'Boom' }, { status: 500 }),
      });
      renderApp('/admin/students/my-booking');

      expect(await screen.findByText(messages.formLoadFailed, {}, FIRST_LOAD)).toBeTruthy();
    },
    SLOW,
  );
});

const parties: MyPartyBookings = [
  {
    id: 2002,
    reference: 'PB-2002',
    code: 'PB-2002',
    date: '2027-02-06',
    slot_name: 'Saturday morning',
    time: '10:00am–12:00pm',
    child_name: 'Mia',
    status: 'confirmed',
    guests: 12,
    guests_named: 8,
    total: 45000,
    deposit: 10000,
    balance: 35000,
    waiver: 'needed',
    waiver_link: '/birthday-party/waiver/?id=PB-2002&authhash=H1',
    update_guests_link: '/birthday-party/update-guest/?id=PB-2002&authhash=H1',
  },
  {
    id: 1900,
    reference: 'PB-1900',
    code: 'PB-1900',
    date: '2026-08-01',
    slot_name: 'Afternoon',
    time: '2:00pm–4:00pm',
    child_name: 'Leo',
    status: 'pending',
    guests: 10,
    guests_named: 0,
    total: 40000,
    deposit: 0,
    balance: 40000,
    waiver: 'signed',
    waiver_link: null,
    update_guests_link: null,
  },
];

describe('/admin/students/my-party-booking', () => {
  it(
    'shows date, slot, birthday child, guests, money, waiver and the links it has',
    async () => {
      signedInParent({ 'GET /api/v1/students/my-party-bookings': () => json(parties) });
      renderApp('/admin/students/my-party-booking');

      const party = within(await screen.findByRole('article', { name: 'Mia PB-2002' }, FIRST_LOAD));
      expect(party.getByRole('heading', { name: "Mia's party" })).toBeTruthy();
      expect(party.getByText('Sat 06/02/2027 · Saturday morning · 10:00am–12:00pm')).toBeTruthy();
      expect(party.getByText('Confirmed')).toBeTruthy();
      expect(party.getByText('8/12')).toBeTruthy();
      expect(party.getByText('$450.00')).toBeTruthy();
      expect(party.getByText('$100.00')).toBeTruthy();
      expect(party.getByText('$350.00')).toBeTruthy();
      expect(party.getByText('Needs waiver')).toBeTruthy();
      expect(party.getByRole('link', { name: 'Sign waiver' }).getAttribute('href')).toBe(
        '/birthday-party/waiver/?id=PB-2002&authhash=H1',
      );
      expect(party.getByRole('link', { name: 'Update guests' }).getAttribute('href')).toBe(
        '/birthday-party/update-guest/?id=PB-2002&authhash=H1',
      );

      const pending = within(screen.getByRole('article', { name: 'Leo PB-1900' }));
      expect(pending.getByText('Waiver signed')).toBeTruthy();
      expect(pending.queryByRole('link')).toBeNull();
    },
    SLOW,
  );

  it(
    'says so when there are no party bookings',
    async () => {
      signedInParent({ 'GET /api/v1/students/my-party-bookings': () => json([]) });
      renderApp('/admin/students/my-party-booking');

      expect(await screen.findByText('You have no party bookings yet.', {}, FIRST_LOAD)).toBeTruthy();
    },
    SLOW,
  );
});

const payments: FamilyPayments = [
  {
    id: 31,
    description: 'Summer holiday camp (EB-1001)',
    amount: 12000,
    status: 'paid',
    method: 'card',
    method_label: 'Card (Stripe)',
    reference: null,
    provider: 'stripe',
    paid_at: '2026-12-01T12:00:00.000Z',
    paid_on: '2026-12-01',
    refunds: [],
    receipt_url: '/api/v1/students/payments/31/receipt',
  },
  {
    id: 32,
    description: 'Party deposit (PB-2002)',
    amount: 10000,
    status: 'refunded',
    method: 'card',
    method_label: 'Card (Stripe)',
    reference: null,
    provider: 'stripe',
    paid_at: '2026-12-02T12:00:00.000Z',
    paid_on: '2026-12-02',
    refunds: [],
    receipt_url: '/api/v1/students/payments/32/receipt',
  },
];

describe('/admin/students/payments', () => {
  it(
    'lists the payments and saves a row’s PDF receipt fetched with the session token',
    async () => {
      const fetchMock = signedInParent({
        'GET /api/v1/students/payments': () => json(payments),
        'GET /api/v1/students/payments/32/receipt': () => pdf('%PDF-1.7 receipt 32'),
      });
      const saved = captureSavedFiles();
      renderApp('/admin/students/payments');
      const user = userEvent.setup();

      const camp = within(await screen.findByRole('row', { name: /Summer holiday camp/ }, FIRST_LOAD));
      expect(camp.getByText('01/12/2026')).toBeTruthy();
      expect(camp.getByText('$120.00')).toBeTruthy();
      expect(camp.getByText('Paid')).toBeTruthy();
      const deposit = within(screen.getByRole('row', { name: /Party deposit/ }));
      expect(deposit.getByText('Refunded')).toBeTruthy();

      await user.click(deposit.getByRole('button', { name: /Receipt \(PDF\)/ }));

      await waitFor(() => expect(saved).toHaveLength(1));
      expect(saved[0]?.name).toBe('receipt-32.pdf');
      expect(saved[0]?.blob?.type).toBe('application/pdf');
      expect(await saved[0]?.blob?.text()).toBe('%PDF-1.7 receipt 32');
      const [receiptCall] = callsTo(fetchMock, '/api/v1/students/payments/32/receipt');
      expect(new Headers(receiptCall?.[1]?.headers).get('Authorization')).toBe('Bearer parent-token');
    },
    SLOW,
  );

  it(
    'on a phone shows a card per payment, the receipt button within reach',
    async () => {
      onAPhone();
      signedInParent({
        'GET /api/v1/students/payments': () => json(payments),
        'GET /api/v1/students/payments/31/receipt': () => pdf('%PDF-1.7 receipt 31'),
      });
      const saved = captureSavedFiles();
      renderApp('/admin/students/payments');
      const user = userEvent.setup();

      const camp = within(
        await screen.findByRole('article', { name: 'Summer holiday camp (EB-1001)' }, FIRST_LOAD),
      );
      expect(screen.queryByRole('table')).toBeNull();
      expect(camp.getByText('01/12/2026')).toBeTruthy();
      expect(camp.getByText('$120.00')).toBeTruthy();
      expect(camp.getByText('Paid')).toBeTruthy();
      expect(
        within(screen.getByRole('article', { name: 'Party deposit (PB-2002)' })).getByText('Refunded'),
      ).toBeTruthy();

      await user.click(camp.getByRole('button', { name: /Receipt \(PDF\)/ }));

      await waitFor(() => expect(saved).toHaveLength(1));
      expect(saved[0]?.name).toBe('receipt-31.pdf');
      expect(await saved[0]?.blob?.text()).toBe('%PDF-1.7 receipt 31');
    },
    SLOW,
  );

  it(
    'says why a receipt could not be downloaded and saves nothing',
    async () => {
      signedInParent({
        'GET /api/v1/students/payments': () => json(payments),
        'GET /api/v1/students/payments/31/receipt': () =>
          json({ message: 'This receipt is not ready yet.' }, { status: 409 }),
      });
      const saved = captureSavedFiles();
      renderApp('/admin/students/payments');
      const user = userEvent.setup();

      const row = within(await screen.findByRole('row', { name: /Summer holiday camp/ }, FIRST_LOAD));
      await user.click(row.getByRole('button', { name: /Receipt \(PDF\)/ }));

      expect((await screen.findByRole('alert')).textContent).toBe('This receipt is not ready yet.');
      expect(saved).toHaveLength(0);
    },
    SLOW,
  );

  it(
    'says so when there are no payments',
    async () => {
      signedInParent({ 'GET /api/v1/students/payments': () => json([]) });
      renderApp('/admin/students/payments');

      expect(await screen.findByText('You have no payments yet.', {}, FIRST_LOAD)).toBeTruthy();
    },
    SLOW,
  );
});

const waivers: MyWaivers = [
  {
    id: 3,
    child_name: 'Mia Lee',
    waiver_title: 'Activity waiver',
    version: 2,
    signer_name: 'Pat Parent',
    signed_at: '2026-12-01T12:30:00.000Z',
    signed_when: '01/12/2026 23:30',
    pdf_url: '/api/v1/students/waivers/3/pdf',
  },
];

describe('/admin/students/waiver', () => {
  it(
    'lists the signed waivers and saves one as PDF',
    async () => {
      signedInParent({
        'GET /api/v1/students/waivers': () => json(waivers),
        'GET /api/v1/students/waivers/3/pdf': () => pdf('%PDF-1.7 waiver 3'),
      });
      const saved = captureSavedFiles();
      renderApp('/admin/students/waiver');
      const user = userEvent.setup();

      const row = within(await screen.findByRole('row', { name: /Mia Lee/ }, FIRST_LOAD));
      expect(row.getByText('Activity waiver', { exact: false })).toBeTruthy();
      expect(row.getByText('v2')).toBeTruthy();
      expect(row.getByText('Pat Parent')).toBeTruthy();
      expect(row.getByText(/^01\/12\/2026/)).toBeTruthy();

      await user.click(row.getByRole('button', { name: /Download PDF/ }));

      await waitFor(() => expect(saved).toHaveLength(1));
      expect(saved[0]?.name).toBe('signed-waiver-3.pdf');
      expect(await saved[0]?.blob?.text()).toBe('%PDF-1.7 waiver 3');
    },
    SLOW,
  );

  it(
    'on a phone shows a card per waiver, the download button within reach',
    async () => {
      onAPhone();
      signedInParent({
        'GET /api/v1/students/waivers': () => json(waivers),
        'GET /api/v1/students/waivers/3/pdf': () => pdf('%PDF-1.7 waiver 3'),
      });
      const saved = captureSavedFiles();
      renderApp('/admin/students/waiver');
      const user = userEvent.setup();

      const card = within(
        await screen.findByRole('article', { name: 'Mia Lee Activity waiver' }, FIRST_LOAD),
      );
      expect(screen.queryByRole('table')).toBeNull();
      expect(card.getByText('v2')).toBeTruthy();
      expect(card.getByText(/^Signed by Pat Parent on 01\/12\/2026/)).toBeTruthy();

      await user.click(card.getByRole('button', { name: /Download PDF/ }));

      await waitFor(() => expect(saved).toHaveLength(1));
      expect(saved[0]?.name).toBe('signed-waiver-3.pdf');
      expect(await saved[0]?.blob?.text()).toBe('%PDF-1.7 waiver 3');
    },
    SLOW,
  );

  it(
    'says so when no waiver is signed yet',
    async () => {
      signedInParent({ 'GET /api/v1/students/waivers': () => json([]) });
      renderApp('/admin/students/waiver');

      expect(await screen.findByText('You have not signed any waivers yet.', {}, FIRST_LOAD)).toBeTruthy();
    },
    SLOW,
  );
});
