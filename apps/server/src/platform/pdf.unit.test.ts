import { describe, expect, it } from 'vitest';
import { printable, renderPdf } from './pdf.ts';

describe('PDF text', () => {
  it('keeps paragraph breaks and the characters the standard fonts have; the rest become ?', () => {
    expect(printable('First paragraph.\n\nSecond – “quoted”, Zoë Ñúñez\tend 😀')).toBe(
      'First paragraph.\n\nSecond – “quoted”, Zoë Ñúñez end ?',
    );
  });

  it('renders a document with any text without failing', async () => {
    const pdf = await renderPdf({
      title: 'Receipt 😀',
      sections: [{ rows: [['For', 'Camp – 山田']], text: 'One.\n\nTwo '.repeat(200) }],
      footer: 'x'.repeat(500),
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
