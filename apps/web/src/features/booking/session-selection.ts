import type { SessionsResponse } from '@tumble/contracts/booking';
import { decodeCell } from '@tumble/contracts/booking-codes';

export type DaySession = SessionsResponse['days'][string][number];

/** What selecting a session-day does: book it, join its waitlist, or nothing (closed). */
export type CellKind = 'book' | 'waitlist' | 'closed';

/**
 * SPEC.md point 2: a full cell is waitlist-only, an expired one cannot be chosen. A bookable cell
 * with fewer places left than the children being booked can only be waitlisted too.
 */
export function cellKind(session: DaySession, quantity: number): CellKind {
  if (session.status === 'expired') return 'closed';
  if (session.status === 'full' || session.available < quantity) return 'waitlist';
  return 'book';
}

export interface Selection {
  booked: string[];
  waiting: string[];
}

/** Splits selected cells into booked and waiting ones; cells no longer offered are dropped. */
export function splitSelection(
  selected: readonly string[],
  days: SessionsResponse['days'],
  quantity: number,
): Selection {
  const booked: string[] = [];
  const waiting: string[] = [];
  for (const cell of selected) {
    const decoded = decodeCell(cell);
    if (!decoded) continue;
    const session = days[decoded.date]?.find((s) => s.session_id === decoded.sessionId);
    if (!session) continue;
    const kind = cellKind(session, quantity);
    if (kind === 'book') booked.push(cell);
    else if (kind === 'waitlist') waiting.push(cell);
  }
  return { booked: booked.sort(), waiting: waiting.sort() };
}
