/** /booking/checkout?authhash&b, where b is the event's `e` code (SPEC.md point 2). */
export function checkoutPath(authhash: string, e: string): string {
  return `/booking/checkout?${new URLSearchParams({ authhash, b: e })}`;
}

/** /booking?authhash&status=true: step 3, 'Booking Successful!'. */
export function successPath(authhash: string): string {
  return `/booking?${new URLSearchParams({ authhash, status: 'true' })}`;
}

/** The booking page of an event. */
export function bookingPath(authhash: string, e: string, b = ''): string {
  const params = new URLSearchParams({ e });
  if (b) params.set('b', b);
  params.set('authhash', authhash);
  return `/booking?${params}`;
}
