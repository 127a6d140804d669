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
  /** A table (an invoice's lines, its totals), drawn after the rows and text. */
  table?: PdfTable;
}

/**
 * Columns with headings (none when every label is empty); `width` is a share of the page width and
 * amounts align right. A row's `note` is smaller text under its first cell (a line's detail).
 */
export interface PdfTable {
  columns: { label: string; width: number; align?: 'left' | 'right' }[];
  rows: { cells: string[]; note?: string; bold?: boolean }[];
}

export interface PdfDocument {
  title: string;
  subtitle?: string;
  sections: PdfSection[];
  /** Small print at the bottom of the last page (e.g. the content hash). */
  footer?: string;
  /** A PNG or JPEG drawn at the top right of the first page (the company's logo on an invoice). */
  logo?: Buffer;
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

  if (doc.logo) {
    const isPng = doc.logo.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const image = isPng ? await pdf.embedPng(doc.logo) : await pdf.embedJpg(doc.logo);
    const scaled = image.scaleToFit(140, 60);
    page.drawImage(image, {
      x: PAGE.width - PAGE.margin - scaled.width,
      y: y - scaled.height,
      width: scaled.width,
      height: scaled.height,
    });
  }
  paragraph(doc.title, bold, SIZE.title);
  if (doc.subtitle) paragraph(doc.subtitle, regular, SIZE.body);
  y -= 8;
  for (const section of doc.sections) {
    y -= 10;
    if (section.heading) paragraph(section.heading, bold, SIZE.heading);
    for (const [label, value] of section.rows ?? [])
      paragraph(`${label}: ${value || '-'}`, regular, SIZE.body);
    if (section.text) paragraph(section.text, regular, SIZE.body);
    if (section.table) drawTable(section.table);
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
  function drawTable(table: PdfTable) {
    const lefts: number[] = [];
    let x = PAGE.margin;
    for (const column of table.columns) {
      lefts.push(x);
      x += column.width * width;
    }
    const cellText = (text: string, i: number, font: PDFFont, size: number, color = rgb(0.1, 0.1, 0.12)) => {
      const column = table.columns[i]!;
      const columnWidth = column.width * width - 6;
      const lines = wrap(text, font, size, columnWidth);
      lines.forEach((l, n) => {
        const at =
          column.align === 'right'
            ? lefts[i]! + column.width * width - font.widthOfTextAtSize(l, size)
            : lefts[i]!;
        page.drawText(l, { x: at, y: y - n * size * 1.35, size, font, color });
      });
    };
    const rule = (gray: number) =>
      page.drawLine({
        start: { x: PAGE.margin, y: y - 4 },
        end: { x: PAGE.margin + width, y: y - 4 },
        thickness: 0.5,
        color: rgb(gray, gray, gray),
      });
    if (table.columns.some((c) => c.label)) {
      room(SIZE.body * 2);
      y -= SIZE.body * 1.45;
      table.columns.forEach((c, i) => {
        cellText(c.label, i, bold, SIZE.body);
      });
      rule(0.4);
      y -= 4;
    }
    for (const row of table.rows) {
      const font = row.bold ? bold : regular;
      const tallest = Math.max(
        1,
        ...row.cells.map(
          (cell, i) => wrap(cell, font, SIZE.body, table.columns[i]!.width * width - 6).length,
        ),
      );
      const notes = row.note ? wrap(row.note, regular, SIZE.small, table.columns[0]!.width * width - 6) : [];
      room(tallest * SIZE.body * 1.35 + notes.length * SIZE.small * 1.35 + 8);
      y -= SIZE.body * 1.45;
      row.cells.forEach((cell, i) => {
        cellText(cell, i, font, SIZE.body);
      });
      y -= (tallest - 1) * SIZE.body * 1.35;
      for (const note of notes) {
        y -= SIZE.small * 1.35;
        page.drawText(note, {
          x: PAGE.margin,
          y,
          size: SIZE.small,
          font: regular,
          color: rgb(0.4, 0.4, 0.4),
        });
      }
      if (table.columns.some((c) => c.label)) rule(0.85);
      y -= 4;
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
