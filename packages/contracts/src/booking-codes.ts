/**
 * The plain values of event booking (SPEC.md points 2–5), kept free of zod: the public booking page
 * imports them, and a module with schemas would bring zod into its first load (issue 19: /booking
 * under 150 KB of gzipped JS). booking.ts re-exports them and builds its schemas on them.
 *
 * The `e` query is the hex of `<company id>|<event id>`; cells of the calendar are encoded
 * `event|session|date`.
 */
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 10;

/** Hex of ASCII text (digits and '|' only, so one byte per character on both sides). */
const toHex = (text: string) => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
const fromHex = (hex: string) => String.fromCharCode(...hex.match(/../g)!.map((h) => Number.parseInt(h, 16)));

export const encodeEventCode = (companyId: number, eventId: number) => toHex(`${companyId}|${eventId}`);

/** The event id of an `e` value, or null when it is not one. */
export function decodeEventCode(e: string): { companyId: number; eventId: number } | null {
  if (!/^([0-9a-f]{2}){3,40}$/i.test(e)) return null;
  const text = fromHex(e);
  const match = /^(\d{1,9})\|(\d{1,9})$/.exec(text);
  return match ? { companyId: Number(match[1]), eventId: Number(match[2]) } : null;
}

export const encodeCell = (eventId: number, sessionId: number, date: string) =>
  `${eventId}|${sessionId}|${date}`;

/** What an encoded cell must look like. */
export const CELL_PATTERN = /^\d{1,9}\|\d{1,9}\|\d{4}-\d{2}-\d{2}$/;

/** The event, session and date of an encoded cell, or null when it is not one. */
export function decodeCell(cell: string): { eventId: number; sessionId: number; date: string } | null {
  if (!CELL_PATTERN.test(cell)) return null;
  const [eventId, sessionId, date] = cell.split('|');
  return { eventId: Number(eventId), sessionId: Number(sessionId), date: date! };
}

/** Words of our own: the booking page after the parent pressed Cancel on the card page (`status=cancelled`). */
export const PAYMENT_CANCELLED =
  'Payment cancelled. Nothing was charged and what you chose was released. Choose again to book.';
