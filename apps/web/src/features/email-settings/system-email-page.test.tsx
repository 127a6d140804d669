import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { SystemEmailView } from '@tumble/contracts/email-settings';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const reset: SystemEmailView = {
  kind: 'password-reset',
  label: 'Password reset',
  sent: 'When someone asks for a new password on the sign-in page.',
  placeholders: [
    { name: 'name', description: "The person's full name" },
    { name: 'company', description: "Your company's name" },
    { name: 'link', description: 'The link to choose a new password (works once, for 1 hour)' },
  ],
  default_subject: 'Reset your {{company}} password',
  default_body: 'Hello {{name}},\n\n{{link}}',
  custom: null,
};

describe('System email page', () => {
  it('refuses an unknown placeholder before asking the server, saves good wording and previews it', async () => {
    const saved: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/system-emails': () => json({ emails: [reset] }),
      'POST /api/v1/admin/system-emails/password-reset': (_url, init) => {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return json({ emails: [{ ...reset, custom: body }] });
      },
      'POST /api/v1/admin/system-emails/password-reset/preview': () =>
        json({ subject: 'New password for Bounce', text: 'x', html: '<p>Hi Jordan Example</p>' }),
    });
    api.setToken('tok');
    renderApp('/admin/system-emails/password-reset');

    await screen.findByRole('heading', { level: 1, name: 'Password reset' }, { timeout: 10_000 });
    expect(screen.getByText("The person's full name")).toBeTruthy();
    const body = screen.getByRole('textbox', { name: /^Text/ });
    fireEvent.change(body, { target: { value: 'Hello {{name}}, invoice {{number}}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(
      'This email has no placeholder {{number}}. It can use: {{name}}, {{company}}, {{link}}.',
    );
    expect(saved).toEqual([]);

    fireEvent.change(body, { target: { value: 'Hello {{name}}\n\n{{link}}' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Subject/ }), {
      target: { value: 'New password for {{company}}' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ subject: 'New password for {{company}}', body: 'Hello {{name}}\n\n{{link}}' });
    expect(await screen.findByRole('button', { name: 'Reset to default' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByTestId('preview-subject')).textContent).toBe('New password for Bounce');
  }, 20_000);
});
