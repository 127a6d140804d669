import { z } from 'zod';

/**
 * Self-service cancellation (issue 15): a parent cancels a booked event day, a party or a class
 * enrolment from their account; the company's policy for that kind decides what comes back, and
 * the parent sees it before confirming (the preview and the cancellation share one computation).
 */

export const cancellationTarget = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('event_day'),
    booking_id: z.coerce.number().int().positive().max(2_147_483_647),
    session_id: z.coerce.number().int().positive().max(2_147_483_647),
    date: z.iso.date(),
  }),
  z.object({
    kind: z.literal('party'),
    party_booking_id: z.coerce.number().int().positive().max(2_147_483_647),
  }),
  z.object({
    kind: z.literal('enrolment'),
    enrolment_id: z.coerce.number().int().positive().max(2_147_483_647),
  }),
]);
export type CancellationTarget = z.infer<typeof cancellationTarget>;

export interface CancellationPolicyRule {
  noticeHours: number;
  percentBack: number;
  destination: 'refund' | 'credit';
}

export type CancellationOutcome = 'refund' | 'credit' | 'nothing';

/**
 * What cancelling gives back: `percentBack` of what was paid for the part cancelled when it is at
 * least `noticeHours` before it starts, else nothing. Cents, rounded half up.
 */
export function decideCancellation(
  policy: CancellationPolicyRule,
  input: { startsAt: Date; now: Date; paid: number },
): { outcome: CancellationOutcome; back: number; late: boolean } {
  const late = input.startsAt.getTime() - input.now.getTime() < policy.noticeHours * 3_600_000;
  const back = late ? 0 : Math.floor((input.paid * policy.percentBack * 2 + 100) / 200);
  return { outcome: back > 0 ? policy.destination : 'nothing', back, late };
}

export const cancellationPreview = z.object({
  /** False when the company has no self-service policy for this kind, or it has started. */
  allowed: z.boolean(),
  /** What is cancelled, in words: "Holiday camp, Mon 12 Jan 2026, 9:00am (Mia)". */
  what: z.string(),
  paid: z.number().int(),
  back: z.number().int(),
  outcome: z.enum(['refund', 'credit', 'nothing']),
  /** The sentence the parent reads before confirming. */
  message: z.string(),
});
export type CancellationPreview = z.infer<typeof cancellationPreview>;

export const cancellationResult = z.object({ message: z.string() });
export type CancellationResult = z.infer<typeof cancellationResult>;
