import { encodeEventCode } from '@tumble/contracts/booking';

/** Public links of a company, named by its authhash (the event code is docs/decisions/007's). */

export function publicLinks(origin: string, authhash: string) {
  const hash = encodeURIComponent(authhash);
  return {
    partyBooking: `${origin}/birthday-party/booking/?authhash=${hash}`,
    parentSignIn: `${origin}/admin/students/login?authhash=${hash}`,
    parentSignUp: `${origin}/admin/students/signup?authhash=${hash}`,
    eventBooking: (companyId: number, eventId: number) =>
      `${origin}/booking?e=${encodeEventCode(companyId, eventId)}&authhash=${hash}`,
  };
}
