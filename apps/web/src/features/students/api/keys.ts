/** Query keys of the parent's account pages. */
export const studentKeys = {
  profile: ['students', 'profile'] as const,
  /** The prefix of every children query, the checkouts' `childrenQuery` included. */
  children: ['students', 'children'] as const,
  childList: ['students', 'children', 'list'] as const,
  child: (id: number) => ['students', 'children', id] as const,
  myBookings: ['students', 'my-bookings'] as const,
  myPartyBookings: ['students', 'my-party-bookings'] as const,
  myWaitlist: ['students', 'my-waitlist'] as const,
  payments: ['students', 'payments'] as const,
  waivers: ['students', 'waivers'] as const,
};
