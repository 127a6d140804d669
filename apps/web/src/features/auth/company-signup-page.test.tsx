import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, renderApp, stubServer } from '../../test/render';

async function fillForm() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/company name/i), 'Bounce Gym');
  await user.type(screen.getByLabelText(/your full name/i), 'Casey Coach');
  await user.type(screen.getByLabelText(/email address/i), 'casey@bounce.test');
  await user.type(screen.getByLabelText(/^password/i), 'a long passphrase');
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('CompanySignupPage', () => {
  it('checks the fields before posting, with the 12-character rule for staff passwords', async () => {
    const fetchMock = stubServer({});
    renderApp('/admin/company/signup');
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText(/^password/i), 'short');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(screen.getByText('Company name is required.')).toBeTruthy();
    expect(screen.getByText('Password must be at least 12 characters.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('marks the fields named in error.element and shows html_message above the form', async () => {
    stubServer({
      'POST /api/v1/companies/signup': () =>
        json({
          valid: false,
          error: {
            html_message: 'Please correct the highlighted fields.',
            element: [{ name: 'email', messages: ['This email address is already registered.'] }],
          },
        }),
    });
    renderApp('/admin/company/signup');

    await fillForm();

    expect(await screen.findByText('Please correct the highlighted fields.')).toBeTruthy();
    expect(screen.getByText('This email address is already registered.')).toBeTruthy();
    expect(screen.getByLabelText(/email address/i).getAttribute('aria-invalid')).toBe('true');
  });

  it('shows info.title and info.message once the company is created', async () => {
    const fetchMock = stubServer({
      'POST /api/v1/companies/signup': () =>
        json({
          valid: true,
          info: { title: 'Check your email', message: 'We sent you an activation link.' },
        }),
    });
    renderApp('/admin/company/signup');

    await fillForm();

    expect(await screen.findByText('Check your email')).toBeTruthy();
    expect(screen.getByText('We sent you an activation link.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      company_name: 'Bounce Gym',
      full_name: 'Casey Coach',
      email: 'casey@bounce.test',
      password: 'a long passphrase',
    });
  });
});
