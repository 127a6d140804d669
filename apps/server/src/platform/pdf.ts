import type { FastifyReply } from 'fastify';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/**
 * Plain A4 documents (signed waivers, payment receipts): a heading, sections of labelled lines and
 * wrapped paragraphs, and an optional image (a signature). One small layout, so every PDF the
 * product hands out looks the same.
 */
export interface PdfSection {
  heading?: string;
  /** Label and value pairs, one per line. */
  rows?: [label: string, value: string][];
  /** Free text; blank lines separate paragraphs. */
  text?: string;
  /** A PNG shown under the section (a drawn signature). */
  png?: Buffer;
}

export interface PdfDocument {
  title: string;
  subtitle?: string;
  sections: PdfSection[];
  /** Small print at the bottom of the last page (e.g. the content hash). */
  footer?: string;
}

const PAGE = { width: 595.28, height: 841.89, margin: 50 };
const SIZE = { title: 18, heading: 12, body: 10, small: 8 };

/**
 * The standard fonts only encode WinAnsi: anything else (emoji, most non-Latin scripts) becomes
 * '?' instead of failing the whole document.
 */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function printable(text: string): string {
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0)!;
      if (c === '\n') return c; // paragraph breaks are laid out by wrap()
      if (c === '\t') return ' ';
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(c)
        ? c
        : '?';
    })
    .join('');
}

/** Breaks text into lines no wider than `width`. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of printable(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // A single word longer than the line (a URL, a hash) is cut where it must be.
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

export async function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(doc.title));
  pdf.setProducer('Tumble');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * PAGE.margin;
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;

  const room = (needed: number) => {
    if (y - needed >= PAGE.margin) return;
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
  };
  const line = (text: string, font: PDFFont, size: number, color = rgb(0.1, 0.1, 0.12)) => {
    room(size * 1.45);
    y -= size * 1.45;
    page.drawText(text, { x: PAGE.margin, y, size, font, color });
  };
  const paragraph = (text: string, font: PDFFont, size: number) => {
    for (const l of wrap(text, font, size, width)) line(l, font, size);
  };

  paragraph(doc.title, bold, SIZE.title);
  if (doc.subtitle) paragraph(doc.subtitle, regular, SIZE.body);
  y -= 8;
  for (const section of doc.sections) {
    y -= 10;
    if (section.heading) paragraph(section.heading, bold, SIZE.heading);
    for (const [label, value] of section.rows ?? [])
      paragraph(`${label}: ${value || '-'}`, regular, SIZE.body);
    if (section.text) paragraph(section.text, regular, SIZE.body);
    if (section.png) {
      const image = await pdf.embedPng(section.png);
      const scaled = image.scaleToFit(Math.min(width, 300), 120);
      room(scaled.height + 8);
      y -= scaled.height + 8;
      page.drawImage(image, { x: PAGE.margin, y, width: scaled.width, height: scaled.height });
      page.drawLine({
        start: { x: PAGE.margin, y: y - 2 },
        end: { x: PAGE.margin + Math.min(width, 300), y: y - 2 },
        thickness: 0.5,
        color: rgb(0.6, 0.6, 0.6),
      });
    }
  }
  if (doc.footer) {
    y -= 16;
    for (const l of wrap(doc.footer, regular, SIZE.small, width))
      line(l, regular, SIZE.small, rgb(0.4, 0.4, 0.4));
  }
  return Buffer.from(await pdf.save());
}

/** Sends a PDF as a download (receipts, waivers, the daily roll): private, never cached. */
export function sendPdf(reply: FastifyReply, pdf: Buffer, filename: string) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('Cache-Control', 'private, no-store')
    .send(pdf);
}
