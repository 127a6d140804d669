import { z } from 'zod';

/** Mass mail with filters and the public unsubscribe (SPEC communications; issue 16). */

/** Placeholders a mass mail's subject and body may carry, with what staff see in the insert menu. */
export const MASS_MAIL_PLACEHOLDERS = [
  { name: 'parent_first_name', label: "Parent's first name" },
  { name: 'parent_name', label: "Parent's full name" },
  { name: 'child_first_name', label: "Children's first names" },
  { name: 'class', label: 'Class' },
  { name: 'term', label: 'Term' },
  { name: 'company', label: 'Company name' },
] as const;

export const ENROLMENT_STATUSES = ['active', 'trial', 'waitlisted', 'withdrawn'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

const id = z.coerce
  .number({ error: 'Choose from the list.' })
  .int('Choose from the list.')
  .positive('Choose from the list.')
  .max(2_147_483_647, 'Choose from the list.');
const ids = z.array(id).max(500, 'Choose fewer.').default([]);
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'Enter a real date.');
const age = z.coerce
  .number({ error: 'Enter an age in years.' })
  .int('Enter an age in whole years.')
  .min(0, 'Enter an age of 0 or more.')
  .max(99, 'Enter an age under 100.');

/**
 * Who a mass mail goes to. Each kind given narrows the audience (AND between kinds); the values of
 * one kind widen it (OR within a kind). An empty filter is every family of the company.
 */
export const audienceFilter = z
  .object({
    term_ids: ids,
    class_type_ids: ids,
    class_ids: ids,
    /** ISO weekdays: 1 Monday … 7 Sunday. */
    weekdays: z.array(z.coerce.number().int().min(1, 'Choose a day.').max(7, 'Choose a day.')).default([]),
    event_ids: ids,
    /** Families with a party booked on a date in this range (both ends included). */
    party_from: isoDate.nullable().default(null),
    party_to: isoDate.nullable().default(null),
    enrolment_statuses: z.array(z.enum(ENROLMENT_STATUSES, { error: 'Choose a status.' })).default([]),
    /** Families with a child whose age in whole years is in this range (company's today). */
    age_min: age.nullable().default(null),
    age_max: age.nullable().default(null),
    /** Families with an invoice still owing. */
    unpaid_balance: z.boolean().default(false),
    /** Families with one of these flags on the family or on a child. */
    flag_ids: ids,
    /** Only families who said yes to marketing mail ('granted'). */
    consent_granted: z.boolean().default(false),
  })
  .refine((f) => !f.party_from || !f.party_to || f.party_from <= f.party_to, {
    message: 'The end date is before the start date.',
    path: ['party_to'],
  })
  .refine((f) => f.age_min === null || f.age_max === null || f.age_min <= f.age_max, {
    message: 'The highest age is below the lowest age.',
    path: ['age_max'],
  });
export type AudienceFilter = z.infer<typeof audienceFilter>;
export type AudienceFilterInput = z.input<typeof audienceFilter>;

/** POST /api/v1/communications/audience: the live count and the families. */
export const audienceRequest = z.object({ filter: audienceFilter, marketing: z.boolean().default(true) });
export const audienceFamily = z.object({ id: z.number(), name: z.string(), email: z.string() });
export const audienceResponse = z.object({
  count: z.number(),
  /** The first 200 families by name; `count` is all of them. */
  families: z.array(audienceFamily),
  /** Families the filter matched who unsubscribed (left out of marketing mail). */
  unsubscribed: z.number(),
});
export type AudienceResponse = z.infer<typeof audienceResponse>;

/** GET /api/v1/communications/options: what the filters choose from. */
const option = z.object({ value: z.string(), label: z.string() });
export const audienceOptionsResponse = z.object({
  terms: z.array(option),
  class_types: z.array(option),
  classes: z.array(option),
  events: z.array(option),
  flags: z.array(option),
  /** The company's time zone, for the schedule field. */
  time_zone: z.string(),
});
export type AudienceOptionsResponse = z.infer<typeof audienceOptionsResponse>;

export const MASS_MAIL_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;
export type MassMailStatus = (typeof MASS_MAIL_STATUSES)[number];

/**
 * POST /api/v1/communications/mass-mails. `send_at`: a local date-time in the company's time
 * zone (YYYY-MM-DDTHH:mm) to schedule it; null sends now.
 */
export const newMassMailRequest = z.object({
  subject: z
    .string({ error: 'Enter a subject.' })
    .trim()
    .min(1, 'Enter a subject.')
    .max(200, 'Keep the subject under 200 characters.'),
  body: z
    .string({ error: 'Write the message.' })
    .max(200_000, 'The message is too long.')
    .refine((html) => html.replace(/<[^>]*>/g, '').trim().length > 0, 'Write the message.'),
  marketing: z.boolean().default(true),
  filter: audienceFilter,
  send_at: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Enter a date and time.')
    .nullable()
    .default(null),
  /** A file uploaded first to POST /api/v1/communications/attachments. */
  attachment: z
    .object({ key: z.string().max(200), name: z.string().trim().min(1).max(200) })
    .nullable()
    .default(null),
});
export type NewMassMailRequest = z.input<typeof newMassMailRequest>;

export const massMailSummary = z.object({
  id: z.number(),
  subject: z.string(),
  status: z.enum(MASS_MAIL_STATUSES),
  marketing: z.boolean(),
  /** ISO instant; the company's local time is the client's to show. */
  send_at: z.string().nullable(),
  /** Local "2026-11-24 09:30" in the company's time zone, for people. */
  send_at_local: z.string().nullable(),
  total: z.number(),
  sent: z.number(),
  failed: z.number(),
  created_at: z.string(),
});
export type MassMailSummary = z.infer<typeof massMailSummary>;
export const massMailsResponse = z.object({ mass_mails: z.array(massMailSummary) });
export type MassMailsResponse = z.infer<typeof massMailsResponse>;

export const RECIPIENT_STATUSES = ['waiting', 'queued', 'sent', 'failed', 'skipped'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const massMailRecipient = z.object({
  parent_id: z.number(),
  name: z.string(),
  email: z.string(),
  /**
   * waiting: not yet written to the outbox; queued: in the outbox (kept there without SMTP);
   * sent; failed (with `reason`); skipped: unsubscribed before their turn (marketing only).
   */
  status: z.enum(RECIPIENT_STATUSES),
  reason: z.string().nullable(),
});
export type MassMailRecipient = z.infer<typeof massMailRecipient>;

export const massMailDetailResponse = massMailSummary.extend({
  body: z.string(),
  attachment_name: z.string().nullable(),
  queued: z.number(),
  recipients: z.array(massMailRecipient),
});
export type MassMailDetailResponse = z.infer<typeof massMailDetailResponse>;

/** POST /api/v1/public/unsubscribe/:token (the page's button, or RFC 8058 one-click). */
export const unsubscribeResponse = z.object({ unsubscribed: z.literal(true), company: z.string() });
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponse>;

/** POST /api/v1/communications/attachments (multipart `file`): the stored file to attach. */
export const attachmentResponse = z.object({ key: z.string(), name: z.string(), size: z.number() });
export type AttachmentResponse = z.infer<typeof attachmentResponse>;

/** The largest attachment a mass mail may carry (it goes to every family). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
