/** /birthday-party/booking/?authhash(&status=true): the calendar, or 'Booking Successful!'. */
export function partyBookingPath(authhash: string, status = false): string {
  const params = new URLSearchParams({ authhash });
  if (status) params.set('status', 'true');
  return `/birthday-party/booking/?${params}`;
}

/** /birthday-party/booking/checkout/?authhash (SPEC.md point 2). */
export function partyCheckoutPath(authhash: string): string {
  return `/birthday-party/booking/checkout/?${new URLSearchParams({ authhash })}`;
}
