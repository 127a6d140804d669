import { unknownPlaceholder } from '@tumble/contracts/email-settings';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPendingMail } from '../../platform/mail/mail.service.ts';
import { emailSettings, mailOutbox, systemEmails } from '../../platform/mail/mail.tables.ts';
import { mailTemplates, placeholdersOf } from '../../platform/mail/mail.templates.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../testing/mail-smtp.ts';

/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function multipart(name: string, data: Buffer) {
  const boundary = '----tumble-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let smtp: TestSmtpServer;
let t: TestContext;
let company: Awaited<ReturnType<typeof createCompany>>;
let other: Awaited<ReturnType<typeof createCompany>>;
let admin: Record<string, string>;
let staff: Record<string, string>;
let otherAdmin: Record<string, string>;
let adminEmail: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Tumble <no-reply@tumble.local>' });
  const { db } = t.database;
  company = await createCompany(db, { name: 'Flip Side Gym' });
  other = await createCompany(db, { name: 'Other Gym' });
  const adminUser = await createUser(db, company.id, { role: 'companyadmin', fullName: 'Ada Admin' });
  adminEmail = adminUser.email;
  admin = (await sessionFor(db, adminUser)).headers;
  staff = (await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }))).headers;
  otherAdmin = (await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }))).headers;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, payload });

const wordingRows = (companyId: number) =>
  t.database.db.select().from(systemEmails).where(eq(systemEmails.companyId, companyId));

describe('system emails (SPEC system-emails)', () => {
  it('lists every kind the product sends, with its name, when it is sent and its placeholders', async () => {
    const response = await call('GET', '/api/v1/admin/system-emails', staff);
    expect(response.statusCode).toBe(200);
    const { emails } = response.json();
    expect(emails.map((e: { kind: string }) => e.kind)).toEqual(Object.keys(mailTemplates));
    const reset = emails.find((e: { kind: string }) => e.kind === 'password-reset');
    expect(reset).toMatchObject({
      label: 'Password reset',
      default_subject: 'Reset your {{company}} password',
      custom: null,
    });
    expect(reset.placeholders.map((p: { name: string }) => p.name)).toEqual(['name', 'company', 'link']);
    expect(reset.default_body).toContain('Hello {{name}},\n\nSomeone asked');
  });

  it('refuses a placeholder the kind does not have with the message, and stores nothing', async () => {
    const response = await call('POST', '/api/v1/admin/system-emails/password-reset', admin, {
      subject: 'New password for {{company}}',
      body: 'Hello {{name}}, your invoice {{number}}: {{link}}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(unknownPlaceholder('number', placeholdersOf('password-reset')));
    const preview = await call('POST', '/api/v1/admin/system-emails/password-reset/preview', admin, {
      subject: 'Hi {{nme}}',
      body: 'x',
    });
    expect(preview.statusCode).toBe(400);
    expect(preview.json().message).toContain('no placeholder {{nme}}');
    expect(await wordingRows(company.id)).toEqual([]);
    // An unknown kind is not found; staff (not administrators) may not change wording.
    expect((await call('POST', '/api/v1/admin/system-emails/nonsense', admin, {})).statusCode).toBe(404);
    const byStaff = await call('POST', '/api/v1/admin/system-emails/password-reset', staff, {
      subject: 'x',
      body: 'y',
    });
    expect(byStaff.statusCode).toBe(403);
    expect(await wordingRows(company.id)).toEqual([]);
  });

  it('previews wording with sample data, the company name and its email settings', async () => {
    await call('POST', '/api/v1/admin/email-settings', admin, {
      from_name: 'Flip Side Office',
      reply_to: 'office@flipside.example',
      footer: 'Flip Side Gym, 1 Main St',
      logo: 'none',
    });
    const response = await call('POST', '/api/v1/admin/system-emails/invoice/preview', staff, {
      subject: 'Invoice {{number}} from {{company}}',
      body: 'Hi {{name}}\n\nPay here:\n\n{{pay_link}}',
    });
    expect(response.statusCode).toBe(200);
    const preview = response.json();
    expect(preview.subject).toBe('Invoice INV-000123 from Flip Side Gym');
    expect(preview.text).toBe(
      'Hi Jordan Example\n\nPay here:\n\nhttps://example.com/pay\n\n--\nFlip Side Gym, 1 Main St',
    );
    expect(preview.html).toContain('<a href="https://example.com/pay">');
    expect(preview.html).toContain('Flip Side Gym, 1 Main St</p>');
  });

  it('a saved wording is used by the real mail, with sender name, reply-to and footer; reset goes back', async () => {
    const { db } = t.database;
    const saved = await call('POST', '/api/v1/admin/system-emails/password-reset', admin, {
      subject: 'A new password for {{company}}',
      body: 'Hi {{name}},\n\nChoose it here:\n\n{{link}}',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().emails.find((e: { kind: string }) => e.kind === 'password-reset').custom).toEqual({
      subject: 'A new password for {{company}}',
      body: 'Hi {{name}},\n\nChoose it here:\n\n{{link}}',
    });
    // Another company's settings and wording never reach this company's mail.
    await call('POST', '/api/v1/admin/email-settings', otherAdmin, {
      from_name: 'Other Office',
      reply_to: 'other@other.example',
      footer: 'OTHER FOOTER',
      logo: 'none',
    });
    await call('POST', '/api/v1/admin/system-emails/password-reset', otherAdmin, {
      subject: 'OTHER SUBJECT',
      body: 'OTHER {{link}}',
    });

    const user = await createUser(db, company.id, { fullName: 'Morgan Parent', role: 'student' });
    const forgotten = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/forgotten-password', payload: { email } });
    expect((await forgotten(user.email)).statusCode).toBe(200);
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(row).toMatchObject({ fromName: 'Flip Side Office', replyTo: 'office@flipside.example' });
    await deliverPendingMail(t.database, t.config);
    const mail = parseMail((await smtp.waitFor((m) => m.envelopeTo.includes(user.email))).raw);
    expect(mail.subject).toBe('A new password for Flip Side Gym');
    expect(mail.headers.get('from')).toBe('Flip Side Office <no-reply@tumble.local>');
    expect(mail.headers.get('reply-to')).toBe('office@flipside.example');
    expect(mail.text.replace(/\r\n/g, '\n')).toMatch(
      /^Hi Morgan Parent,\n\nChoose it here:\n\nhttp:\/\/tumble\.test\/admin\/reset-password/,
    );
    expect(mail.text.replace(/\r\n/g, '\n').trimEnd().endsWith('--\nFlip Side Gym, 1 Main St')).toBe(true);
    expect(mail.html).toContain('Flip Side Gym, 1 Main St');
    expect(mail.text).not.toContain('OTHER');

    // Reset to default deletes the row; the next mail is the default wording.
    const reset = await call('DELETE', '/api/v1/admin/system-emails/password-reset', admin);
    expect(reset.statusCode).toBe(200);
    expect(await wordingRows(company.id)).toEqual([]);
    expect(await wordingRows(other.id)).toHaveLength(1);
    const again = await createUser(db, company.id, { fullName: 'Robin Parent', role: 'student' });
    await forgotten(again.email);
    await deliverPendingMail(t.database, t.config);
    const second = parseMail((await smtp.waitFor((m) => m.envelopeTo.includes(again.email))).raw);
    expect(second.subject).toBe('Reset your Flip Side Gym password');
  });

  it('"Send a test" mails the signed-in staff member the wording with sample data', async () => {
    const response = await call('POST', '/api/v1/admin/system-emails/class-session-cancelled/test', admin, {
      subject: 'No {{class}} today',
      body: 'Sorry {{name}}, {{reason}}',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ to: adminEmail });
    await deliverPendingMail(t.database, t.config);
    const mail = parseMail((await smtp.waitFor((m) => m.envelopeTo.includes(adminEmail))).raw);
    // The subject as queued (the sent header is MIME-encoded for the en dash).
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, adminEmail));
    expect(row!.subject).toBe('[Test] No Junior Gym (5–7 years) today');
    expect(mail.text).toContain('Sorry Jordan Example, The hall is closed for repairs.');
    expect(mail.headers.get('from')).toBe('Flip Side Office <no-reply@tumble.local>');
  });
});

describe('email settings (SPEC settings/emails)', () => {
  it('refuses a bad reply-to or sender name with the message and stores nothing', async () => {
    const fresh = await createCompany(t.database.db);
    const headers = (await sessionFor(t.database.db, await createUser(t.database.db, fresh.id))).headers;
    for (const [body, message] of [
      [
        { from_name: 'A', reply_to: 'not-an-address', footer: '', logo: 'none' },
        'Please enter a valid reply-to email address.',
      ],
      [
        { from_name: 'Evil <x@evil.example>', reply_to: '', footer: '', logo: 'none' },
        'The sender name cannot contain <, >, " or @.',
      ],
      [
        { from_name: 'A', reply_to: '', footer: '', logo: 'own' },
        'Please upload a logo first, or choose another.',
      ],
    ] as const) {
      const response = await call('POST', '/api/v1/admin/email-settings', headers, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect(
      await t.database.db.select().from(emailSettings).where(eq(emailSettings.companyId, fresh.id)),
    ).toEqual([]);
    const view = await call('GET', '/api/v1/admin/email-settings', headers);
    expect(view.json()).toMatchObject({
      from_name: '',
      reply_to: '',
      footer: '',
      logo: 'none',
      from_address: 'no-reply@tumble.local',
    });
  });

  it('"Send me a test" goes through the outbox, kept there without SMTP', async () => {
    const noSmtp = await createTestApp();
    try {
      const { db } = noSmtp.database;
      const own = await createCompany(db, { name: 'Quiet Gym' });
      const user = await createUser(db, own.id, { role: 'companyadmin', fullName: 'Quinn' });
      const headers = (await sessionFor(db, user)).headers;
      await noSmtp.app.inject({
        method: 'POST',
        url: '/api/v1/admin/email-settings',
        headers,
        payload: {
          from_name: 'Quiet Office',
          reply_to: 'hi@quiet.example',
          footer: 'Quiet footer',
          logo: 'none',
        },
      });
      // A body with fields asks for something else: refused before a mail is written.
      const odd = await noSmtp.app.inject({
        method: 'POST',
        url: '/api/v1/admin/email-settings/test',
        headers,
        payload: { id: 2147483648 },
      });
      expect(odd.statusCode).toBe(400);
      expect(await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email))).toEqual([]);
      const sent = await noSmtp.app.inject({
        method: 'POST',
        url: '/api/v1/admin/email-settings/test',
        headers,
      });
      expect(sent.json()).toEqual({ to: user.email });
      const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
      expect(row).toMatchObject({
        kind: 'test',
        status: 'kept',
        subject: '[Test] Email settings of Quiet Gym',
        fromName: 'Quiet Office',
        replyTo: 'hi@quiet.example',
      });
      expect(row!.text).toContain('Replies go to: hi@quiet.example');
      expect(row!.text.endsWith('--\nQuiet footer')).toBe(true);
    } finally {
      await noSmtp.close();
    }
  });

  it('an uploaded logo (or the company logo) tops the HTML of every mail; removing it stops that', async () => {
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/email-settings/logo',
      ...(() => {
        const m = multipart('logo.png', PNG);
        return { payload: m.payload, headers: { ...admin, ...m.headers } };
      })(),
    });
    expect(upload.statusCode).toBe(200);
    const settings = upload.json();
    expect(settings.logo).toBe('own');
    expect(settings.own_logo).toMatch(/^\/api\/v1\/files\/public\/\d+\/[\w-]+\.png$/);
    const preview = await call('POST', '/api/v1/admin/system-emails/activation/preview', admin, {
      subject: 'Hi',
      body: 'Hello {{name}}',
    });
    expect(preview.json().html).toMatch(
      new RegExp(`^<p><img src="http://tumble\\.test${settings.own_logo}" alt="Flip Side Gym"`),
    );
    const removed = await call('DELETE', '/api/v1/admin/email-settings/logo', admin);
    expect(removed.json()).toMatchObject({ logo: 'none', own_logo: null });
    const after = await call('POST', '/api/v1/admin/system-emails/activation/preview', admin, {
      subject: 'Hi',
      body: 'Hello {{name}}',
    });
    expect(after.json().html).not.toContain('<img');
    const notImage = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/email-settings/logo',
      ...(() => {
        const m = multipart('x.png', Buffer.from('not an image'));
        return { payload: m.payload, headers: { ...admin, ...m.headers } };
      })(),
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().message).toBe('The logo in emails must be a PNG, JPEG or GIF image.');
  });
});
