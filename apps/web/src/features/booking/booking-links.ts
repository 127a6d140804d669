/** /booking/checkout?authhash&b, where b is the event's `e` code (SPEC.md point 2). */
export function checkoutPath(authhash: string, e: string): string {
  return `/booking/checkout?${new URLSearchParams({ authhash, b: e })}`;
}

/** /booking?authhash&status=true: step 3, 'Booking Successful!'. */
export function successPath(authhash: string): string {
  return `/booking?${new URLSearchParams({ authhash, status: 'true' })}`;
}

/** The place an accepted invitation holds: the booking page starts with it selected. */
export interface HeldPlace {
  cell: string;
  places: number;
}

/** The booking page of an event; `held` (after Accept) opens the sessions with that day chosen. */
export function bookingPath(authhash: string, e: string, b = '', held?: HeldPlace): string {
  const params = new URLSearchParams({ e });
  if (b) params.set('b', b);
  if (held) {
    params.set('day', held.cell);
    params.set('quantity', String(held.places));
  }
  params.set('authhash', authhash);
  return `/booking?${params}`;
}

/** The held place named by the booking page's `day` and `quantity`, if any. */
export function heldPlace(params: URLSearchParams): HeldPlace | undefined {
  const cell = params.get('day');
  const places = Number(params.get('quantity'));
  return cell && Number.isInteger(places) && places > 0 ? { cell, places } : undefined;
}
