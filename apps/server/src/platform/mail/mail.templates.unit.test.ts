import { describe, expect, it } from 'vitest';
import { renderMail } from './mail.templates.ts';

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
