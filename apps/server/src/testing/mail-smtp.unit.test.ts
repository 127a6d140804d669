import { describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, parseMail } from './mail-smtp.ts';

describe('decodeQuotedPrintable', () => {
  it('joins soft line breaks and decodes =XX bytes as UTF-8', () => {
    expect(decodeQuotedPrintable('http://tumble.test/admin/reset-password?hashcode=3Dab=\r\ncd')).toBe(
      'http://tumble.test/admin/reset-password?hashcode=abcd',
    );
    expect(decodeQuotedPrintable('caf=C3=A9 =\nlatte')).toBe('café latte');
  });
});

describe('parseMail', () => {
  it('reads the text and html parts of a multipart/alternative mail', () => {
    const raw = [
      'From: Tumble <no-reply@tumble.local>',
      'To: a@example.test',
      'Subject: Reset your',
      ' Gym password',
      'Content-Type: multipart/alternative;',
      ' boundary="--_b1"',
      '',
      '----_b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Go to http://x.test/?h=3D12=',
      '34',
      '----_b1',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<p>hello</p>').toString('base64'),
      '----_b1--',
      '',
    ].join('\r\n');

    const mail = parseMail(raw);

    expect(mail.subject).toBe('Reset your Gym password');
    expect(mail.headers.get('to')).toBe('a@example.test');
    expect(mail.text).toBe('Go to http://x.test/?h=1234');
    expect(mail.html).toBe('<p>hello</p>');
  });

  it('reads a single-part mail', () => {
    const mail = parseMail('Subject: Hi\r\nContent-Type: text/plain\r\n\r\nplain body');
    expect(mail).toMatchObject({ subject: 'Hi', text: 'plain body', html: '' });
  });
});
