import { placeholdersIn, systemEmailWording } from '@tumble/contracts/email-settings';
import { describe, expect, it } from 'vitest';
import {
  applyMailLook,
  type MailKind,
  type MailTemplate,
  mailTemplates,
  placeholdersOf,
  renderMail,
  SAMPLE_DATA,
} from './mail.templates.ts';

describe('renderMail', () => {
  const data = {
    name: 'Ann <b>',
    company: 'Tom & Jerry Gym',
    link: 'http://x.test/admin/activate?hashcode=a&b=1',
  };

  it('fills placeholders in the subject and text as written', () => {
    const mail = renderMail('activation', data);
    expect(mail.subject).toBe('Activate your Tom & Jerry Gym account');
    expect(mail.text).toContain('Hello Ann <b>,');
    expect(mail.text).toContain('http://x.test/admin/activate?hashcode=a&b=1');
  });

  it('escapes every value in the HTML part and makes the link clickable', () => {
    const mail = renderMail('activation', data);
    expect(mail.html).toContain('Hello Ann &lt;b&gt;,');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('<a href="http://x.test/admin/activate?hashcode=a&amp;b=1">');
  });

  it('leaves unknown placeholders empty rather than showing braces', () => {
    const mail = renderMail('password-reset', { name: 'Ann' });
    expect(mail.text).not.toContain('{{');
  });
});

describe('the template catalogue (system-emails)', () => {
  const kinds = Object.keys(mailTemplates) as MailKind[];

  it.each(kinds)('%s: every placeholder the default uses is described, and nothing else', (kind) => {
    const template: MailTemplate = mailTemplates[kind];
    const used = placeholdersIn([template.subject, ...template.body].join('\n'));
    expect(
      used.filter((p) => !(p in template.placeholders)),
      'used but not described',
    ).toEqual([]);
    expect(
      Object.keys(template.placeholders).filter((p) => !used.includes(p)),
      'described but not in the default',
    ).toEqual([]);
    expect(template.label.length, 'a plain-English name').toBeGreaterThan(3);
    expect(template.sent.length, 'when it is sent').toBeGreaterThan(10);
    for (const [name, description] of Object.entries(template.placeholders)) {
      expect(description.length, `${kind} {{${name}}} description`).toBeGreaterThan(3);
      expect(SAMPLE_DATA[name], `SAMPLE_DATA.${name} for the preview`).toBeTruthy();
    }
  });

  it.each(kinds)('%s renders with its sample data, and with a company override', (kind) => {
    const mail = renderMail(kind, SAMPLE_DATA);
    expect(mail.subject).not.toMatch(/\{\{|\}\}/);
    expect(mail.text).not.toMatch(/\{\{|\}\}/);
    expect(mail.text.length).toBeGreaterThan(20);
    const names = placeholdersOf(kind);
    const wording = {
      subject: `Ours: {{${names[0]}}}`,
      body: names.map((n) => `${n} is {{${n}}}`).join('\n\n'),
    };
    // The company's wording passes the same check the page and the server make.
    expect(systemEmailWording(names).safeParse(wording).success).toBe(true);
    const custom = renderMail(kind, SAMPLE_DATA, wording);
    expect(custom.subject).toBe(`Ours: ${SAMPLE_DATA[names[0]!]}`);
    for (const n of names) expect(custom.text).toContain(`${n} is ${SAMPLE_DATA[n]}`);
  });

  it('refuses wording with a placeholder the kind does not have, or a mistyped one', () => {
    const schema = systemEmailWording(placeholdersOf('activation'));
    const unknown = schema.safeParse({ subject: 'Hi {{name}}', body: 'Your invoice {{number}}' });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.message).toBe(
      'This email has no placeholder {{number}}. It can use: {{name}}, {{company}}, {{link}}.',
    );
    const mistyped = schema.safeParse({ subject: 'Hi', body: 'Hello {{ name }}' });
    expect(mistyped.error?.issues[0]?.message).toBe(
      'Write placeholders with two braces and no spaces, for example {{name}}.',
    );
  });
});

describe('applyMailLook (settings/emails)', () => {
  it('adds the footer to the text and the HTML, escaped, and the logo at the top of the HTML', () => {
    const mail = renderMail('activation', { name: 'Ann', company: 'Gym', link: 'http://x.test/a' });
    const look = applyMailLook(mail, {
      footer: 'Gym & Co\n1 Main St',
      logoUrl: 'http://x.test/api/v1/files/public/1/logo.png',
      logoAlt: 'Gym',
    });
    expect(look.text.endsWith('\n\n--\nGym & Co\n1 Main St')).toBe(true);
    expect(look.html.startsWith('<p><img src="http://x.test/api/v1/files/public/1/logo.png" alt="Gym"')).toBe(
      true,
    );
    expect(look.html).toContain('Gym &amp; Co<br>1 Main St');
    expect(applyMailLook(mail, { footer: ' ', logoUrl: null, logoAlt: '' })).toEqual({
      text: mail.text,
      html: mail.html,
    });
  });
});
