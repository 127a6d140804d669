import { z } from 'zod';

/** Enquiries and leads (SPEC contacts) and the company's sources and stages (SPEC settings/crm); issue 16. */

export const ENQUIRY_SOURCE = 'Enquiry form';

export const crmMessages = {
  nameRequired: 'Enter the parent’s name.',
  emailInvalid: 'Enter a valid email address.',
  emailRequired: 'Enter your email address so we can reply.',
  emailOrPhone: 'Enter an email address or a phone number.',
  sourceUnknown: 'Choose one of the company’s lead sources.',
  stageUnknown: 'Choose one of the company’s stages.',
  noteRequired: 'Write the note first.',
  alreadyConverted: 'This lead is already a family.',
  noEmail: 'Add the parent’s email address first: the family account and its invitation need it.',
  emailIsFamily: (name: string) =>
    `That email already belongs to the family of ${name}. Link the lead to that family instead.`,
  notAFamily: 'That family could not be found.',
  enquirySent: 'Thank you! We have your enquiry and will be in touch soon.',
  keepEnquirySource: `Keep “${ENQUIRY_SOURCE}”: enquiries from the registration page arrive with it.`,
  oneWonStage: 'Mark exactly one stage as Won: converting a lead moves it there.',
  oneOpenStage: 'Keep at least one open stage for new leads.',
  duplicate: (what: string) => `Each ${what} may appear only once.`,
} as const;

const id = (message: string) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

/** YYYY-MM-DD that is a real day; '' or null means none. */
const optionalDate = z
  .union([
    z.literal('').transform(() => null),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
      .refine((v) => {
        const at = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === v;
      }, 'Enter a real date.'),
  ])
  .nullish()
  .transform((v) => v ?? null);

const email = z
  .string()
  .trim()
  .max(254, crmMessages.emailInvalid)
  .transform((v) => v.toLowerCase())
  .pipe(z.union([z.literal(''), z.email(crmMessages.emailInvalid)]));

const phone = z.string().trim().max(40, 'Keep the phone number under 40 characters.');

export const STAGE_KINDS = ['open', 'won', 'lost'] as const;
export const crmStage = z.object({
  name: z.string().trim().min(1, 'Name every stage.').max(40, 'Keep a stage’s name under 40 characters.'),
  kind: z.enum(STAGE_KINDS, { error: 'Choose open, won or lost for every stage.' }),
});
export type CrmStage = z.infer<typeof crmStage>;

/** GET /api/v1/admin/settings/crm; `saved` false: the defaults (nothing stored yet). */
export const crmSettingsResponse = z.object({
  sources: z.array(z.string()),
  stages: z.array(crmStage),
  saved: z.boolean(),
});
export type CrmSettingsResponse = z.infer<typeof crmSettingsResponse>;

const unique = (names: string[]) => new Set(names.map((n) => n.toLowerCase())).size === names.length;

/** PUT /api/v1/admin/settings/crm: the ordered sources and stages. */
export const crmSettingsRequest = z
  .object({
    sources: z
      .array(
        z.string().trim().min(1, 'Name every source.').max(40, 'Keep a source’s name under 40 characters.'),
      )
      .min(1, 'Add at least one source.')
      .max(30, 'Keep to 30 sources.'),
    stages: z.array(crmStage).min(2, 'Add at least two stages.').max(20, 'Keep to 20 stages.'),
  })
  .superRefine((v, ctx) => {
    if (!unique(v.sources))
      ctx.addIssue({ code: 'custom', path: ['sources'], message: crmMessages.duplicate('source') });
    if (!v.sources.includes(ENQUIRY_SOURCE))
      ctx.addIssue({ code: 'custom', path: ['sources'], message: crmMessages.keepEnquirySource });
    const names = v.stages.map((s) => s.name);
    if (!unique(names))
      ctx.addIssue({ code: 'custom', path: ['stages'], message: crmMessages.duplicate('stage') });
    if (v.stages.filter((s) => s.kind === 'won').length !== 1)
      ctx.addIssue({ code: 'custom', path: ['stages'], message: crmMessages.oneWonStage });
    if (!v.stages.some((s) => s.kind === 'open'))
      ctx.addIssue({ code: 'custom', path: ['stages'], message: crmMessages.oneOpenStage });
  });
export type CrmSettingsRequest = z.input<typeof crmSettingsRequest>;

export const contactChild = z.object({
  name: z.string().trim().max(80, 'Keep a child’s name under 80 characters.').default(''),
  age: z.coerce
    .number({ error: 'Enter an age in years (0 to 18).' })
    .int('Enter an age in whole years.')
    .min(0, 'Enter an age in years (0 to 18).')
    .max(18, 'Enter an age in years (0 to 18).')
    .nullish()
    .transform((v) => v ?? null),
  dob: optionalDate,
});
export type ContactChild = z.infer<typeof contactChild>;

const childList = z.array(contactChild).max(10, 'Name up to 10 children.').default([]);

export const contactNote = z.object({
  id: z.number(),
  body: z.string(),
  /** Who wrote it; "Enquiry form" for the parent's own message. */
  author: z.string(),
  created_at: z.string(),
});

export const contact = z.object({
  id: z.number(),
  full_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  children: z.array(z.object({ name: z.string(), age: z.number().nullable(), dob: z.string().nullable() })),
  interest: z.string().nullable(),
  source: z.string(),
  stage: z.string(),
  stage_kind: z.enum(STAGE_KINDS),
  follow_up_on: z.string().nullable(),
  /** Open, with a follow-up date on or before the company's today. */
  follow_up_due: z.boolean(),
  parent_id: z.number().nullable(),
  family_name: z.string().nullable(),
  converted_at: z.string().nullable(),
  created_at: z.string(),
});
export type Contact = z.infer<typeof contact>;

/** GET /api/v1/admin/contacts */
export const contactsQuery = z.object({
  q: z.string().trim().max(100).optional(),
  stage: z.string().max(40).optional(),
  source: z.string().max(40).optional(),
  /** 'true': only open leads whose follow-up is due today or earlier. */
  due: z.enum(['true', 'false']).optional(),
});
export type ContactsQuery = z.infer<typeof contactsQuery>;

export const contactsResponse = z.object({
  today: z.string(),
  /** Open leads whose follow-up is due (today or earlier), whatever the filters. */
  due_count: z.number(),
  contacts: z.array(contact),
  sources: z.array(z.string()),
  stages: z.array(crmStage),
});
export type ContactsResponse = z.infer<typeof contactsResponse>;

/** GET /api/v1/admin/contacts/:id */
export const contactResponse = z.object({
  contact,
  notes: z.array(contactNote),
  sources: z.array(z.string()),
  stages: z.array(crmStage),
});
export type ContactResponse = z.infer<typeof contactResponse>;

/** POST /api/v1/admin/contacts and PUT /api/v1/admin/contacts/:id (source and stage checked on the server). */
export const contactRequest = z
  .object({
    full_name: z
      .string({ error: crmMessages.nameRequired })
      .trim()
      .min(1, crmMessages.nameRequired)
      .max(120, 'Keep the name under 120 characters.'),
    email: email.default(''),
    phone: phone.default(''),
    children: childList,
    interest: z.string().trim().max(200, 'Keep the interest under 200 characters.').default(''),
    source: z.string({ error: crmMessages.sourceUnknown }).trim().min(1, crmMessages.sourceUnknown).max(40),
    stage: z.string({ error: crmMessages.stageUnknown }).trim().min(1, crmMessages.stageUnknown).max(40),
    follow_up_on: optionalDate,
    /** A first note, on a new contact only. */
    note: z.string().trim().max(4000, 'Keep the note under 4000 characters.').default(''),
  })
  .refine((v) => v.email !== '' || v.phone !== '', { message: crmMessages.emailOrPhone, path: ['email'] });
export type ContactRequest = z.input<typeof contactRequest>;

/** POST /api/v1/admin/contacts/:id/notes */
export const contactNoteRequest = z.object({
  body: z
    .string({ error: crmMessages.noteRequired })
    .trim()
    .min(1, crmMessages.noteRequired)
    .max(4000, 'Keep the note under 4000 characters.'),
});

/**
 * POST /api/v1/admin/contacts/:id/convert: the family account (a pending parent invited to choose a
 * password) with these children; every child needs a date of birth.
 */
export const convertRequest = z.object({
  children: z
    .array(
      z.object({
        first_name: z
          .string({ error: 'Enter the child’s first name.' })
          .trim()
          .min(1, 'Enter the child’s first name.')
          .max(80),
        last_name: z
          .string({ error: 'Enter the child’s last name.' })
          .trim()
          .min(1, 'Enter the child’s last name.')
          .max(80),
        dob: z
          .string({ error: 'Enter the child’s date of birth.' })
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the child’s date of birth.')
          .refine((v) => {
            const at = new Date(`${v}T00:00:00Z`);
            return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === v;
          }, 'Enter a real date.'),
      }),
    )
    .max(10, 'Name up to 10 children.'),
});
export type ConvertRequest = z.input<typeof convertRequest>;

/** POST /api/v1/admin/contacts/:id/link: the lead is this existing family. */
export const linkFamilyRequest = z.object({ parent_id: id(crmMessages.notAFamily) });

/**
 * The answer of convert and link: on a refusal because the email is already a family, that family
 * (to offer linking to it).
 */
export const convertResponse = z.object({
  valid: z.boolean(),
  message: z.string(),
  parent_id: z.number().optional(),
  existing_family: z.object({ parent_id: z.number(), name: z.string() }).optional(),
});
export type ConvertResponse = z.infer<typeof convertResponse>;

/** POST /api/v1/registration/enquiry?authhash=&f=: "Enquire" on the public registration form. */
export const enquiryRequest = z.object({
  full_name: z
    .string({ error: 'Enter your name.' })
    .trim()
    .min(1, 'Enter your name.')
    .max(120, 'Keep the name under 120 characters.'),
  email: z
    .string({ error: crmMessages.emailRequired })
    .trim()
    .min(1, crmMessages.emailRequired)
    .max(254, crmMessages.emailInvalid)
    .transform((v) => v.toLowerCase())
    .pipe(z.email(crmMessages.emailInvalid)),
  phone: phone.default(''),
  children: z
    .array(contactChild.pick({ name: true, age: true }))
    .max(10, 'Name up to 10 children.')
    .default([]),
  message: z.string().trim().max(2000, 'Keep the message under 2000 characters.').default(''),
});
export type EnquiryRequest = z.input<typeof enquiryRequest>;
