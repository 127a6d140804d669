import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const SLOW = 20_000;
type Handlers = Parameters<typeof stubServer>[0];

function signedIn(handlers: Handlers) {
  const fetchMock = stubServer({ 'GET /rest/acl': () => json(staffAcl()), ...handlers });
  api.setToken('tok');
  return fetchMock;
}

function posted(fetchMock: ReturnType<typeof stubServer>, path: string, method = 'POST') {
  return fetchMock.mock.calls.filter(([input, init]) => String(input) === path && init?.method === method);
}

const company = {
  id: 7,
  name: 'Bounce Gym',
  email: 'hello@bounce.test',
  phone: '02 9999 0000',
  time_zone: 'Australia/Sydney',
  currency: 'AUD',
  payment_method: 'test',
  authhash: 'H9x',
  logo: null,
};

describe('/admin/my-account', () => {
  it(
    'posts the profile with the password change and marks the fields the server names',
    async () => {
      const fetchMock = signedIn({
        'GET /api/v1/admin/my-account': () =>
          json({ full_name: 'Casey Coach', email: 'casey@bounce.test', phone: '', role: 'companyadmin' }),
        'POST /api/v1/admin/my-account': () =>
          json({
            valid: false,
            error: {
              html_message: 'The current password is not correct.',
              element: [{ name: 'current_password', messages: ['The current password is not correct.'] }],
            },
          }),
      });
      renderApp('/admin/my-account');
      const user = userEvent.setup();

      const name = (await screen.findByRole(
        'textbox',
        { name: /Full name/ },
        { timeout: 5000 },
      )) as HTMLInputElement;
      expect(name.value).toBe('Casey Coach');
      expect(screen.getByRole('heading', { name: 'Change password' })).toBeTruthy();
      await user.type(screen.getByLabelText('Current password'), 'wrong one');
      await user.type(screen.getByLabelText(/New password/), 'a much longer passphrase');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect((await screen.findByTestId('form-summary')).textContent).toBe(
        'The current password is not correct.',
      );
      expect(screen.getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true');
      expect(JSON.parse(String(posted(fetchMock, '/api/v1/admin/my-account')[0]?.[1]?.body))).toEqual({
        full_name: 'Casey Coach',
        email: 'casey@bounce.test',
        phone: '',
        current_password: 'wrong one',
        new_password: 'a much longer passphrase',
      });
    },
    SLOW,
  );

  it(
    `says '${messages.formLoadFailed}' when the account cannot be loaded`,
    async () => {
      signedIn({ 'GET /api/v1/admin/my-account': () => json({ message: 'Boom' }, { status: 500 }) });
      renderApp('/admin/my-account');

      expect(await screen.findByText(messages.formLoadFailed, {}, { timeout: 5000 })).toBeTruthy();
    },
    SLOW,
  );
});

describe('Account Settings menu', () => {
  it(
    'offers only the account pages the server allows the role (a 403 would end the session)',
    async () => {
      const staff = staffAcl({ role: 'companystaff' });
      staff.navigation.top = [{ label: 'My Account', path: '/admin/my-account' }];
      stubServer({
        'GET /rest/acl': () => json(staff),
        'GET /api/v1/admin/my-account': () =>
          json({ full_name: 'Sam Staff', email: 'sam@bounce.test', phone: '', role: 'companystaff' }),
      });
      api.setToken('tok');
      renderApp('/admin/my-account');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Account Settings' }, { timeout: 5000 }));
      expect((await screen.findByRole('menuitem', { name: 'My Account' })).getAttribute('href')).toBe(
        '/admin/my-account',
      );
      expect(screen.queryByRole('menuitem', { name: 'My Company' })).toBeNull();
      expect(screen.queryByRole('menuitem', { name: 'Users' })).toBeNull();
    },
    SLOW,
  );
});

describe('/admin/my-company', () => {
  it(
    'shows the authhash with the public links, and saves the details with a time zone',
    async () => {
      const fetchMock = signedIn({
        'GET /api/v1/admin/my-company': () => json(company),
        'GET /api/v1/admin/events': () => json({ data: [{ id: 1, name: 'Holiday camp' }], total: 1 }),
        'POST /api/v1/admin/my-company': () =>
          json({ valid: true, info: { title: 'Saved', message: 'The company settings have been saved.' } }),
      });
      renderApp('/admin/my-company');
      const user = userEvent.setup();

      const hash = (await screen.findByLabelText(/Company code/, {}, { timeout: 5000 })) as HTMLInputElement;
      expect(hash.value).toBe('H9x');
      expect(hash.readOnly).toBe(true);
      const links = screen.getByRole('list', { name: 'Public links' });
      expect(
        within(links).getByText('http://localhost:3000/birthday-party/booking/?authhash=H9x'),
      ).toBeTruthy();
      // The event booking code is the hex of 'companyId|eventId' ('7|1').
      expect(
        await within(links).findByText('http://localhost:3000/booking?e=377c31&authhash=H9x'),
      ).toBeTruthy();
      // Only published events have a public page.
      const eventsCall = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/v1/admin/events?'));
      expect(new URL(String(eventsCall?.[0]), 'http://x').searchParams.get('filter')).toBe(
        '{"published":true}',
      );

      await user.click(screen.getByRole('combobox', { name: /Time zone/ }));
      await user.click(await screen.findByRole('option', { name: 'Perth' }));
      // The company's currency (ISO 4217) is chosen here (issue 21 point 21).
      await user.click(screen.getByRole('combobox', { name: /Currency/ }));
      await user.click(await screen.findByRole('option', { name: 'NZD · New Zealand dollar' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('The company settings have been saved.')).toBeTruthy();
      expect(JSON.parse(String(posted(fetchMock, '/api/v1/admin/my-company')[0]?.[1]?.body))).toEqual({
        name: 'Bounce Gym',
        email: 'hello@bounce.test',
        phone: '02 9999 0000',
        time_zone: 'Australia/Perth',
        currency: 'NZD',
      });
    },
    SLOW,
  );

  it(
    'uploads a logo as multipart "file" and removes it with DELETE',
    async () => {
      let logo: string | null = null;
      const fetchMock = signedIn({
        'GET /api/v1/admin/my-company': () => json({ ...company, logo }),
        'GET /api/v1/admin/events': () => json({ data: [], total: 0 }),
        'POST /api/v1/admin/my-company/logo': () => {
          logo = '/api/v1/files/public/7/logo.png';
          return json({ logo });
        },
        'DELETE /api/v1/admin/my-company/logo': () => {
          logo = null;
          return new Response(null, { status: 204 });
        },
      });
      renderApp('/admin/my-company');
      const user = userEvent.setup();

      await screen.findByRole('button', { name: 'Upload logo' }, { timeout: 5000 });
      const file = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
      const fileInput = document.querySelector('input[type="file"]') as HTMLInputElement;
      await user.upload(fileInput, file);

      await screen.findByRole('button', { name: 'Remove logo' });
      const [upload] = posted(fetchMock, '/api/v1/admin/my-company/logo');
      const body = upload?.[1]?.body as FormData;
      expect((body.get('file') as File).name).toBe('logo.png');

      await user.click(screen.getByRole('button', { name: 'Remove logo' }));
      await screen.findByRole('button', { name: 'Upload logo' });
      expect(posted(fetchMock, '/api/v1/admin/my-company/logo', 'DELETE')).toHaveLength(1);
    },
    SLOW,
  );
});

describe('/admin/users', () => {
  const users = {
    data: [
      {
        id: 1,
        full_name: 'Casey Coach',
        email: 'casey@bounce.test',
        role: 'companyadmin',
        status: 'active',
        invited: false,
        last_login_at: '2025-03-01T09:30:00Z',
      },
      {
        id: 2,
        full_name: 'Sam Staff',
        email: 'sam@bounce.test',
        role: 'companystaff',
        status: 'disabled',
        invited: false,
        last_login_at: null,
      },
      {
        id: 3,
        full_name: 'Ivy Invited',
        email: 'ivy@bounce.test',
        role: 'companycoach',
        status: 'active',
        invited: true,
        last_login_at: null,
      },
    ],
    total: 3,
  };

  it(
    'lists users with the search in the URL, and invites one',
    async () => {
      const fetchMock = signedIn({
        'GET /api/v1/admin/users': () => json(users),
        'POST /api/v1/admin/users': () =>
          json({
            valid: false,
            error: {
              html_message: 'An account with this email address already exists.',
              element: [{ name: 'email', messages: ['An account with this email address already exists.'] }],
            },
          }),
      });
      const { router } = renderApp('/admin/users');
      const user = userEvent.setup();

      const table = await screen.findByRole('table', { name: 'Users' }, { timeout: 5000 });
      expect(within(table).getByRole('link', { name: 'Sam Staff' }).getAttribute('href')).toBe(
        '/admin/users/2',
      );
      expect(within(table).getByText('Staff')).toBeTruthy();
      expect(within(table).getByText('Disabled')).toBeTruthy();
      // Invited and never signed in: "Invited", not "Active" (issue 21 point 16).
      const ivy = within(table).getByRole('link', { name: 'Ivy Invited' }).closest('tr')!;
      expect(within(ivy as HTMLElement).getByText('Invited')).toBeTruthy();
      expect(within(ivy as HTMLElement).queryByText('Active')).toBeNull();
      const casey = within(table).getByRole('link', { name: 'Casey Coach' }).closest('tr')!;
      expect(within(casey as HTMLElement).getByText('Active')).toBeTruthy();

      await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'sam{Enter}');
      await waitFor(() => expect(router.state.location.search).toBe('?q=sam'));
      await waitFor(() =>
        expect(
          fetchMock.mock.calls.some(([input]) =>
            String(input).includes('/api/v1/admin/users?page=1&perPage=25&q=sam'),
          ),
        ).toBe(true),
      );

      await user.click(screen.getByRole('button', { name: 'Invite user' }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByRole('textbox', { name: /Full name/ }), 'Kim Coach');
      await user.type(within(dialog).getByRole('textbox', { name: /Email address/ }), 'casey@bounce.test');
      await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

      expect(await within(dialog).findByTestId('form-summary')).toBeTruthy();
      expect(
        within(dialog)
          .getByRole('textbox', { name: /Email address/ })
          .getAttribute('aria-invalid'),
      ).toBe('true');
      expect(JSON.parse(String(posted(fetchMock, '/api/v1/admin/users')[0]?.[1]?.body))).toEqual({
        full_name: 'Kim Coach',
        email: 'casey@bounce.test',
        role: 'companystaff',
      });
    },
    SLOW,
  );

  it(
    'edits a user and follows the redirect',
    async () => {
      const fetchMock = signedIn({
        'GET /api/v1/admin/users/2': () => json(users.data[1]),
        'GET /api/v1/admin/users': () => json(users),
        'POST /api/v1/admin/users/2': () =>
          json({
            valid: true,
            redirect: '/admin/users',
            info: { title: 'Saved', message: 'The user has been saved.' },
          }),
      });
      const { router } = renderApp('/admin/users/2');
      const user = userEvent.setup();

      await screen.findByRole('heading', { name: 'Edit Sam Staff' }, { timeout: 5000 });
      await user.click(screen.getByRole('combobox', { name: /Status/ }));
      await user.click(await screen.findByRole('option', { name: 'Active' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users'));
      expect(JSON.parse(String(posted(fetchMock, '/api/v1/admin/users/2')[0]?.[1]?.body))).toEqual({
        full_name: 'Sam Staff',
        role: 'companystaff',
        status: 'active',
      });
    },
    SLOW,
  );
});

describe('/admin/mail', () => {
  it(
    'lists the outbox and shows a mail as text, never as HTML',
    async () => {
      signedIn({
        'GET /api/v1/admin/mail': () =>
          json({
            data: [
              {
                id: 5,
                kind: 'invitation',
                to: 'kim@bounce.test',
                subject: 'You are invited',
                status: 'kept',
                created_at: '2025-03-01T09:30:00.000Z',
              },
            ],
            total: 1,
          }),
        'GET /api/v1/admin/mail/5': () =>
          json({
            id: 5,
            kind: 'invitation',
            to: 'kim@bounce.test',
            subject: 'You are invited',
            status: 'kept',
            created_at: '2025-03-01T09:30:00.000Z',
            text: 'Hello Kim,\n\n<b>Choose a password</b>: https://example.test/reset',
            html: '<img src=x onerror="alert(1)"><p>Hello</p>',
          }),
      });
      renderApp('/admin/mail');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('link', { name: 'You are invited' }, { timeout: 5000 }));

      const text = await screen.findByTestId('mail-text');
      expect(text.textContent).toBe('Hello Kim,\n\n<b>Choose a password</b>: https://example.test/reset');
      expect(text.querySelector('b')).toBeNull();
      expect(document.querySelector('img[src="x"]')).toBeNull();
      expect(screen.getByText('kim@bounce.test')).toBeTruthy();
    },
    SLOW,
  );
});
