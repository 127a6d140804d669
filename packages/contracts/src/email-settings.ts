import { z } from 'zod';

/**
 * System emails and email settings (SPEC system-emails, settings/emails; issue 16). The server and
 * the pages validate with these same schemas; a refused request answers 400 `{ message }` and
 * changes nothing.
 */

/** The placeholders written in a subject or body (`{{name}}`), in order of first use. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!))];
}

export const unknownPlaceholder = (name: string, allowed: readonly string[]) =>
  `This email has no placeholder {{${name}}}. It can use: ${allowed.map((a) => `{{${a}}}`).join(', ')}.`;
export const malformedPlaceholder = 'Write placeholders with two braces and no spaces, for example {{name}}.';

/**
 * A company's wording of one kind of mail. `allowed` is the kind's placeholders (the server's
 * template catalogue; the page has them from GET /api/v1/admin/system-emails).
 */
export function systemEmailWording(allowed: readonly string[]) {
  const check = (value: string, ctx: z.RefinementCtx) => {
    for (const name of placeholdersIn(value))
      if (!allowed.includes(name))
        ctx.addIssue({ code: 'custom', message: unknownPlaceholder(name, allowed) });
    // Braces left once the placeholders are gone are a placeholder mistyped ({{ name }}, {name}}).
    if (/\{\{|\}\}/.test(value.replace(/\{\{\w+\}\}/g, '')))
      ctx.addIssue({ code: 'custom', message: malformedPlaceholder });
  };
  return z.object({
    subject: z
      .string('Please enter the subject.')
      .trim()
      .min(1, 'Please enter the subject.')
      .max(200, 'The subject can be at most 200 characters.')
      .refine((s) => !/[\r\n]/.test(s), 'The subject must be one line.')
      .superRefine(check),
    body: z
      .string('Please enter the text.')
      .trim()
      .min(1, 'Please enter the text.')
      .max(5000, 'The text can be at most 5000 characters.')
      .superRefine(check),
  });
}
export type SystemEmailWording = z.infer<ReturnType<typeof systemEmailWording>>;

/** GET /api/v1/admin/system-emails: every kind of mail the product sends. */
export const systemEmailView = z.object({
  kind: z.string(),
  label: z.string(),
  sent: z.string(),
  placeholders: z.array(z.object({ name: z.string(), description: z.string() })),
  default_subject: z.string(),
  /** Paragraphs separated by blank lines, as the editor shows them. */
  default_body: z.string(),
  /** The company's own wording; null when the default is used. */
  custom: z.object({ subject: z.string(), body: z.string() }).nullable(),
});
export type SystemEmailView = z.infer<typeof systemEmailView>;
export const systemEmailList = z.object({ emails: z.array(systemEmailView) });

/** POST …/system-emails/:kind/preview: the wording rendered with sample data, as the mail will be. */
export const mailPreview = z.object({ subject: z.string(), text: z.string(), html: z.string() });
export type MailPreview = z.infer<typeof mailPreview>;

/** POST …/test answers where the test went (the signed-in staff member's address). */
export const testMailSent = z.object({ to: z.string() });

export const emailLogoChoices = ['none', 'company', 'own'] as const;

/** GET /api/v1/admin/email-settings. */
export const emailSettingsView = z.object({
  from_name: z.string(),
  reply_to: z.string(),
  footer: z.string(),
  logo: z.enum(emailLogoChoices),
  /** The uploaded logo, or null. */
  own_logo: z.string().nullable(),
  /** The company's logo (My Company), or null. */
  company_logo: z.string().nullable(),
  /** MAIL_FROM's address: every mail is sent from it, with the sender name. */
  from_address: z.string(),
  company_name: z.string(),
});
export type EmailSettingsView = z.infer<typeof emailSettingsView>;

/** POST /api/v1/admin/email-settings. */
export const emailSettingsUpdate = z.object({
  from_name: z
    .string('Please enter the sender name.')
    .trim()
    .max(100, 'The sender name can be at most 100 characters.')
    .refine((v) => !/[\r\n\t]/.test(v), 'The sender name must be one line of text.')
    .refine((v) => !/[<>"@]/.test(v), 'The sender name cannot contain <, >, " or @.'),
  reply_to: z
    .string('Please enter the reply-to address.')
    .trim()
    .max(200, 'The reply-to address is too long.')
    .refine(
      (v) => v === '' || z.email().safeParse(v).success,
      'Please enter a valid reply-to email address.',
    ),
  footer: z.string('Please enter the footer.').trim().max(1000, 'The footer can be at most 1000 characters.'),
  logo: z.enum(emailLogoChoices, 'Please choose which logo to show.'),
});
export type EmailSettingsUpdate = z.infer<typeof emailSettingsUpdate>;
