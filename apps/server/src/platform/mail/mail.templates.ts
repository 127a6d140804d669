/**
 * Mail templates per kind. Placeholders are `{{name}}`; values are HTML-escaped in the HTML part.
 * Companies will be able to override a kind's subject and body (system-emails, resource-engine issue);
 * these are the defaults.
 *
 * To add a kind: add an entry here and call `queueMail(tx, tenant, 'kind', to, data)`.
 */
export const mailTemplates = {
  activation: {
    subject: 'Activate your {{company}} account',
    body: [
      'Hello {{name}},',
      'Please confirm your email address to activate your account at {{company}}:',
      '{{link}}',
      'The link works once and expires in 7 days.',
    ],
  },
  'password-reset': {
    subject: 'Reset your {{company}} password',
    body: [
      'Hello {{name}},',
      'Someone asked to reset the password of your account at {{company}}. If it was you, choose a new password here:',
      '{{link}}',
      'The link works once and expires in 1 hour. If you did not ask for it, you can ignore this mail.',
    ],
  },
  invitation: {
    subject: 'You have been invited to {{company}}',
    body: [
      'Hello {{name}},',
      '{{inviter}} has invited you to the {{company}} team. Choose your password to sign in:',
      '{{link}}',
      'The link works once and expires in 7 days.',
    ],
  },
  'family-invitation': {
    subject: 'Your family account at {{company}}',
    body: [
      'Hello {{name}},',
      '{{inviter}} at {{company}} has set up your family account for {{children}}. Choose your password, then enrol in classes:',
      '{{link}}',
      'The link works once and expires in 7 days.',
    ],
  },
  'booking-confirmation': {
    subject: 'Booking confirmed: {{event}}',
    body: [
      'Hello {{name}},',
      'Thank you for booking {{event}} with {{company}}. Your booking {{reference}} is confirmed for {{places}} place(s) on:',
      '{{sessions}}',
      'Amount paid: {{amount}}',
      '{{waitlisted}}',
      'Please sign the waiver for each child before the first day:',
      '{{link}}',
    ],
  },
  'enrolment-confirmation': {
    subject: 'Enrolment confirmed: {{reference}}',
    body: [
      'Hello {{name}},',
      'Thank you for enrolling with {{company}}. Your enrolment {{reference}} is confirmed:',
      '{{sessions}}',
      'Amount paid: {{amount}}',
      '{{waiver}}',
      '{{link}}',
      'The sessions are in the attached calendar file (classes.ics).',
    ],
  },
  'waitlist-invitation': {
    subject: 'A place is free: {{event}}',
    body: [
      'Hello {{name}},',
      'Good news: a place has become free for {{session}} at {{event}}. We are holding it for you for {{hours}} hours.',
      '{{link}}',
      'If you no longer need it, please decline so the next family can have it.',
    ],
  },
  'party-confirmation': {
    subject: 'Party booked for {{date}}',
    body: [
      'Hello {{name}},',
      'Your birthday party at {{company}} on {{date}} at {{time}} for {{guests}} guests is booked (reference {{reference}}).',
      'Deposit paid: {{deposit}}. Balance to pay the venue: {{balance}}.',
      'Add your guests and we will send their parents the invitation and the waiver link:',
      '{{link}}',
      'Please sign the birthday child’s waiver too:',
      '{{waiver_link}}',
    ],
  },
  'party-invitation': {
    subject: 'You are invited to {{child}}’s party',
    body: [
      'Hello {{name}},',
      '{{guest}} is invited to {{child}}’s birthday party on {{date}} at {{time}}, {{venue}}.',
      'Please sign the waiver for {{guest}} before the party:',
      '{{link}}',
    ],
  },
  'private-lesson-confirmation': {
    subject: 'Private lesson booked for {{date}} at {{time}}',
    body: [
      'Hello {{name}},',
      'Your private lesson at {{company}} with {{coach}} for {{children}} is booked: {{date}} at {{time}}, {{minutes}} minutes (reference {{reference}}).',
      'Paid: {{amount}}. The lesson is in the attached calendar file.',
      'See or cancel your private lessons here:',
      '{{link}}',
    ],
  },
  'private-lesson-cancelled': {
    subject: 'Private lesson cancelled: {{date}} at {{time}}',
    body: [
      'Hello {{name}},',
      'Your private lesson at {{company}} with {{coach}} on {{date}} at {{time}} (reference {{reference}}) has been cancelled.',
      '{{outcome}}',
      'If you have any questions, please reply to this mail.',
    ],
  },
  invoice: {
    subject: 'Invoice {{number}} from {{company}}: {{total}} due {{due}}',
    body: [
      'Hello {{name}},',
      'Here is your {{document}} {{number}} from {{company}} for {{total}}. Amount due: {{balance}} by {{due}}.',
      'See and download it (PDF):',
      '{{pdf_link}}',
      'Pay online (sign in first):',
      '{{pay_link}}',
      '{{bank}}',
      '{{late_fee}}',
      'If you have any questions, please reply to this mail.',
    ],
  },
  'waiver-request': {
    subject: 'Please sign the waiver: {{title}}',
    body: [
      'Hello {{name}},',
      '{{company}} needs a signed waiver for {{children}} before {{title}}. It takes a minute on your phone:',
      '{{link}}',
      'A waiver you have signed before is found automatically, so you will not be asked twice.',
    ],
  },
  'booking-cancelled': {
    subject: 'Booking cancelled: {{event}}',
    body: [
      'Hello {{name}},',
      'Your booking {{reference}} for {{event}} with {{company}} has been cancelled.',
      '{{money}}',
      'If you have any questions, please reply to this mail.',
    ],
  },
  'class-session-cancelled': {
    subject: 'Class cancelled: {{class}} on {{date}}',
    body: [
      'Hello {{name}},',
      '{{company}} has cancelled {{class}} on {{date}} at {{time}} for {{children}}.',
      'Reason: {{reason}}',
      'If you have any questions, please reply to this mail.',
    ],
  },
  'class-waitlist-offer': {
    subject: 'A place is free: {{class}}',
    body: [
      'Hello {{name}},',
      'Good news: a place has become free in {{class}} ({{when}}) for {{children}}, from {{first_session}}. We are holding it for you until {{expires}}.',
      'Pay to accept the place here:',
      '{{link}}',
      'If you no longer need it, please decline so the next family can have it:',
      '{{decline_link}}',
    ],
  },
  'class-trial-follow-up': {
    subject: 'Enrol {{children}} in {{class}}',
    body: [
      'Hello {{name}},',
      'Thank you for trying {{class}} with {{company}}. We are holding a place for {{children}} from {{first_session}} ({{when}}) until {{expires}}.',
      'Enrol with one tap:',
      '{{link}}',
    ],
  },
  're-enrolment': {
    subject: 'Your places for {{term}} are held until {{deadline}}',
    body: [
      'Hello {{name}},',
      '{{company}} is holding these places in {{term}} for your family until {{deadline}}:',
      '{{places}}',
      'Confirm and pay:',
      '{{link}}',
      'If you no longer need them, release them so another family can have them:',
      '{{release_link}}',
      'Places not confirmed by the deadline are released.',
    ],
  },
  'refund-due': {
    subject: 'Payment to refund: booking {{reference}}',
    body: [
      'A payment of {{amount}} arrived for booking {{reference}} after its places had been taken by others.',
      'The booking was not confirmed and nothing was oversold. Please refund the payment and contact the family.',
    ],
  },
  'autopay-receipt': {
    subject: 'Payment received: {{invoice}}',
    body: [
      'Hello {{name}},',
      'Thank you: {{company}} charged {{amount}} to your saved card ({{card}}) for {{what}}.',
      'Your payments and receipts:',
      '{{link}}',
    ],
  },
  'autopay-failed': {
    subject: 'Your automatic payment of {{amount}} did not go through',
    body: [
      'Hello {{name}},',
      '{{company}} could not charge {{amount}} to your saved card ({{card}}) for {{what}}: {{reason}}',
      '{{next}}',
      'Update your card here:',
      '{{link}}',
    ],
  },
  'autopay-failed-staff': {
    subject: 'Autopay failed for {{family}}, invoice {{invoice}}',
    body: [
      'The last automatic charge of {{amount}} for {{what}} failed: {{reason}}',
      'The invoice is now overdue and {{family}} ({{email}}) has been asked to update their card. A small "Payment overdue" dot shows on their children\'s roll entries until it is paid.',
    ],
  },
  'refund-failed': {
    subject: 'A refund failed: {{amount}} to {{family}}',
    body: [
      'The card provider could not refund {{amount}} of payment {{payment}} to {{family}}: {{failure}}',
      'The money was not returned. Any invoice it was taken from is paid again. Please refund it another way (for example to family credit) and contact the family.',
    ],
  },
  // "Enquire" on the public registration form (features/crm): the company hears of a new lead.
  'crm-enquiry': {
    subject: 'New enquiry from {{name}}',
    body: [
      '{{name}} sent an enquiry to {{company}} from the registration form ({{interest}}).',
      'Email: {{email}}\nPhone: {{phone}}\nChildren: {{children}}',
      'Message: {{message}}',
      'The enquiry is in Contacts as a new lead:',
      '{{link}}',
    ],
  },
} as const satisfies Record<string, { subject: string; body: readonly string[] }>;

export type MailKind = keyof typeof mailTemplates;

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const fill = (template: string, data: Record<string, string>, encode: (v: string) => string) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => encode(data[key] ?? ''));

/** A company's wording (system-emails): paragraphs separated by blank lines. */
export interface MailOverride {
  subject: string;
  body: string;
}

export function renderMail(kind: MailKind, data: Record<string, string>, override?: MailOverride) {
  const template = override
    ? {
        subject: override.subject,
        body: override.body
          .split(/\r?\n\s*\r?\n/)
          .map((p) => p.trim())
          .filter(Boolean),
      }
    : mailTemplates[kind];
  const subject = fill(template.subject, data, (v) => v);
  // A line that is only an empty placeholder (e.g. no waitlisted days) is left out.
  const body = template.body.filter((line) => fill(line, data, (v) => v).trim() !== '');
  const text = body.map((line) => fill(line, data, (v) => v)).join('\n\n');
  const html = body
    .map((line) => {
      const filled = fill(line, data, escapeHtml).replaceAll('\n', '<br>');
      // A line that is only a link placeholder becomes a link.
      return /^\{\{\w*link\}\}$/.test(line) ? `<p><a href="${filled}">${filled}</a></p>` : `<p>${filled}</p>`;
    })
    .join('\n');
  return { subject, text, html };
}
