/**
 * Mail templates per kind. Placeholders are `{{name}}`; values are HTML-escaped in the HTML part.
 * Each kind says what it is (`label`), when it is sent (`sent`) and what each placeholder means
 * (`placeholders`): the System emails page (features/settings/email-settings.*) lists them, and a
 * company's own wording (`system_emails`) may use exactly these placeholders. The unit test fails
 * when a default uses a placeholder that is not described, or a description names one it does not
 * use; every placeholder also needs a sample value in `SAMPLE_DATA` for the preview.
 *
 * To add a kind: add an entry here and call `queueMail(tx, tenant, config, 'kind', to, data)`.
 */
export const mailTemplates = {
  activation: {
    label: 'Account activation',
    sent: 'When a new company or family signs up: confirms their email address before they can sign in.',
    placeholders: {
      name: "The person's full name",
      company: "Your company's name",
      link: 'The activation link (works once, for 7 days)',
    },
    subject: 'Activate your {{company}} account',
    body: [
      'Hello {{name}},',
      'Please confirm your email address to activate your account at {{company}}:',
      '{{link}}',
      'The link works once and expires in 7 days.',
    ],
  },
  'password-reset': {
    label: 'Password reset',
    sent: 'When someone asks for a new password on the sign-in page.',
    placeholders: {
      name: "The person's full name",
      company: "Your company's name",
      link: 'The link to choose a new password (works once, for 1 hour)',
    },
    subject: 'Reset your {{company}} password',
    body: [
      'Hello {{name}},',
      'Someone asked to reset the password of your account at {{company}}. If it was you, choose a new password here:',
      '{{link}}',
      'The link works once and expires in 1 hour. If you did not ask for it, you can ignore this mail.',
    ],
  },
  invitation: {
    label: 'Staff invitation',
    sent: 'When an administrator adds a staff member or coach on Users.',
    placeholders: {
      name: "The new staff member's full name",
      inviter: 'Who sent the invitation',
      company: "Your company's name",
      link: 'The link to choose a password (works once, for 7 days)',
    },
    subject: 'You have been invited to {{company}}',
    body: [
      'Hello {{name}},',
      '{{inviter}} has invited you to the {{company}} team. Choose your password to sign in:',
      '{{link}}',
      'The link works once and expires in 7 days.',
    ],
  },
  'family-invitation': {
    label: 'Family invitation',
    sent: 'When staff add a family, or families are imported, so the parent can choose a password.',
    placeholders: {
      name: "The parent's full name",
      inviter: 'The staff member who added the family',
      company: "Your company's name",
      children: "The children's first names",
      link: 'The link to choose a password (works once, for 7 days)',
    },
    subject: 'Your family account at {{company}}',
    body: [
      'Hello {{name}},',
      '{{inviter}} at {{company}} has set up your family account for {{children}}. Choose your password, then enrol in classes:',
      '{{link}}',
      'The link works once and expires in 7 days.',
    ],
  },
  'booking-confirmation': {
    label: 'Event booking confirmation',
    sent: 'When a family has paid for an event booking (holiday program, camp, workshop).',
    placeholders: {
      event: "The event's name",
      name: "The parent's full name",
      company: "Your company's name",
      reference: "The booking's code",
      places: 'How many places were booked',
      sessions: 'The booked days and times, one per line',
      amount: 'The amount paid',
      waitlisted: 'The days the family is waitlisted for (empty when none)',
      link: 'The link to sign the waiver',
      calendar: 'Add to Google Calendar links for the booked days',
    },
    subject: 'Booking confirmed: {{event}}',
    body: [
      'Hello {{name}},',
      'Thank you for booking {{event}} with {{company}}. Your booking {{reference}} is confirmed for {{places}} place(s) on:',
      '{{sessions}}',
      'Amount paid: {{amount}}',
      '{{waitlisted}}',
      'Please sign the waiver for each child before the first day:',
      '{{link}}',
      '{{calendar}}',
    ],
  },
  'enrolment-confirmation': {
    label: 'Class enrolment confirmation',
    sent: 'When a family has paid for class enrolments (the sessions come as a calendar file).',
    placeholders: {
      reference: "The enrolment's code",
      name: "The parent's full name",
      company: "Your company's name",
      sessions: 'The classes with their days and times, one per line',
      amount: 'The amount paid',
      waiver: 'A line asking for the waiver (empty when none is needed)',
      link: 'The link to sign the waiver (empty when none is needed)',
      calendar: 'Add to Google Calendar links for the first sessions, and the family calendar feed',
    },
    subject: 'Enrolment confirmed: {{reference}}',
    body: [
      'Hello {{name}},',
      'Thank you for enrolling with {{company}}. Your enrolment {{reference}} is confirmed:',
      '{{sessions}}',
      'Amount paid: {{amount}}',
      '{{waiver}}',
      '{{link}}',
      'The sessions are in the attached calendar file (classes.ics).',
      '{{calendar}}',
    ],
  },
  'waitlist-invitation': {
    label: 'Event waitlist offer',
    sent: 'When a place frees up on a full event day and the next family on its waitlist is offered it.',
    placeholders: {
      event: "The event's name",
      name: "The parent's full name",
      session: 'The session and date that has a place',
      hours: 'How many hours the place is held',
      link: 'The link to accept or decline the place',
    },
    subject: 'A place is free: {{event}}',
    body: [
      'Hello {{name}},',
      'Good news: a place has become free for {{session}} at {{event}}. We are holding it for you for {{hours}} hours.',
      '{{link}}',
      'If you no longer need it, please decline so the next family can have it.',
    ],
  },
  'party-confirmation': {
    label: 'Party booking confirmation',
    sent: 'When a family has paid the deposit for a birthday party.',
    placeholders: {
      date: "The party's date",
      name: "The parent's full name",
      company: "Your company's name",
      time: "The party's start time",
      guests: 'How many guests were booked',
      reference: "The booking's code",
      deposit: 'The deposit paid',
      balance: 'The balance still to pay',
      link: 'The link to add guests',
      waiver_link: "The link to sign the birthday child's waiver",
      calendar: 'An Add to Google Calendar link for the party',
    },
    subject: 'Party booked for {{date}}',
    body: [
      'Hello {{name}},',
      'Your birthday party at {{company}} on {{date}} at {{time}} for {{guests}} guests is booked (reference {{reference}}).',
      'Deposit paid: {{deposit}}. Balance to pay the venue: {{balance}}.',
      'Add your guests and we will send their parents the invitation and the waiver link:',
      '{{link}}',
      'Please sign the birthday child’s waiver too:',
      '{{waiver_link}}',
      '{{calendar}}',
    ],
  },
  'party-invitation': {
    label: 'Party guest invitation',
    sent: "When the party's family adds a guest: sent to the guest's parent. Your Party invitation settings wording, when set, is used instead.",
    placeholders: {
      child: 'The birthday child',
      name: "The guest's parent",
      guest: 'The invited child',
      date: "The party's date",
      time: "The party's start time",
      venue: 'Where the party is',
      link: "The link to sign the guest's waiver",
    },
    subject: 'You are invited to {{child}}’s party',
    body: [
      'Hello {{name}},',
      '{{guest}} is invited to {{child}}’s birthday party on {{date}} at {{time}}, {{venue}}.',
      'Please sign the waiver for {{guest}} before the party:',
      '{{link}}',
    ],
  },
  'private-lesson-confirmation': {
    label: 'Private lesson confirmation',
    sent: 'When a family has booked and paid for a private lesson (the lesson comes as a calendar file).',
    placeholders: {
      date: "The lesson's date",
      time: "The lesson's start time",
      name: "The parent's full name",
      company: "Your company's name",
      coach: "The coach's name",
      children: "The children's first names",
      minutes: 'How long the lesson is, in minutes',
      reference: "The booking's code",
      amount: 'The amount paid',
      link: "The family's private lessons page",
    },
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
    label: 'Private lesson cancellation',
    sent: 'When staff or the family cancel a private lesson.',
    placeholders: {
      date: "The lesson's date",
      time: "The lesson's start time",
      name: "The parent's full name",
      company: "Your company's name",
      coach: "The coach's name",
      reference: "The booking's code",
      outcome: 'What happens to the money (refund, credit or none)',
    },
    subject: 'Private lesson cancelled: {{date}} at {{time}}',
    body: [
      'Hello {{name}},',
      'Your private lesson at {{company}} with {{coach}} on {{date}} at {{time}} (reference {{reference}}) has been cancelled.',
      '{{outcome}}',
      'If you have any questions, please reply to this mail.',
    ],
  },
  invoice: {
    label: 'Invoice',
    sent: 'When an invoice is issued or staff email it (term billing, one-off invoices).',
    placeholders: {
      number: "The invoice's number",
      company: 'Your legal name from the billing profile',
      total: "The invoice's total",
      due: 'The due date',
      name: "The buyer's name",
      document: '"tax invoice" or "invoice"',
      balance: 'The amount still owing',
      pdf_link: 'The link to the PDF',
      pay_link: 'The link to pay online',
      bank: 'How to pay by bank transfer (empty without bank details)',
      late_fee: 'Your late-fee policy (empty when none)',
    },
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
    label: 'Waiver request',
    sent: 'When staff ask a family to sign a missing waiver for a booking or party.',
    placeholders: {
      title: 'What the waiver is for (the event or party)',
      name: "The parent's full name",
      company: "Your company's name",
      children: "The children's first names",
      link: 'The link to sign the waiver',
    },
    subject: 'Please sign the waiver: {{title}}',
    body: [
      'Hello {{name}},',
      '{{company}} needs a signed waiver for {{children}} before {{title}}. It takes a minute on your phone:',
      '{{link}}',
      'A waiver you have signed before is found automatically, so you will not be asked twice.',
    ],
  },
  'booking-cancelled': {
    label: 'Event booking cancellation',
    sent: 'When an event booking is cancelled by staff or the family.',
    placeholders: {
      event: "The event's name",
      name: "The parent's full name",
      reference: "The booking's code",
      company: "Your company's name",
      money: 'What happens to the money (refund, credit or none)',
    },
    subject: 'Booking cancelled: {{event}}',
    body: [
      'Hello {{name}},',
      'Your booking {{reference}} for {{event}} with {{company}} has been cancelled.',
      '{{money}}',
      'If you have any questions, please reply to this mail.',
    ],
  },
  'class-session-cancelled': {
    label: 'Class cancellation',
    sent: 'When staff cancel one session of a class: sent to each enrolled family.',
    placeholders: {
      class: "The class's name",
      date: "The session's date",
      name: "The parent's full name",
      company: "Your company's name",
      time: "The session's start time",
      children: 'The enrolled children',
      reason: 'The reason staff gave',
    },
    subject: 'Class cancelled: {{class}} on {{date}}',
    body: [
      'Hello {{name}},',
      '{{company}} has cancelled {{class}} on {{date}} at {{time}} for {{children}}.',
      'Reason: {{reason}}',
      'If you have any questions, please reply to this mail.',
    ],
  },
  'class-waitlist-offer': {
    label: 'Class waitlist offer',
    sent: 'When staff offer a waitlisted family a place in a class.',
    placeholders: {
      class: "The class's name",
      name: "The parent's full name",
      when: "The class's day and time",
      children: 'The children offered the place',
      first_session: 'The first session of the place',
      expires: 'Until when the place is held',
      link: 'The link to pay and accept',
      decline_link: 'The link to decline',
    },
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
    label: 'Trial follow-up',
    sent: "After a child's trial class: holds a place and invites the family to enrol.",
    placeholders: {
      children: 'The children who tried the class',
      class: "The class's name",
      name: "The parent's full name",
      company: "Your company's name",
      first_session: 'The first session of the held place',
      when: "The class's day and time",
      expires: 'Until when the place is held',
      link: 'The link to enrol',
    },
    subject: 'Enrol {{children}} in {{class}}',
    body: [
      'Hello {{name}},',
      'Thank you for trying {{class}} with {{company}}. We are holding a place for {{children}} from {{first_session}} ({{when}}) until {{expires}}.',
      'Enrol with one tap:',
      '{{link}}',
    ],
  },
  're-enrolment': {
    label: 'Re-enrolment (rollover)',
    sent: "When a term's classes roll over: the family's places in the next term are held until the deadline.",
    placeholders: {
      term: 'The next term',
      deadline: 'Until when the places are held',
      name: "The parent's full name",
      company: "Your company's name",
      places: 'The held places, one per child and class',
      link: 'The link to confirm and pay',
      release_link: 'The link to release the places',
    },
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
    label: 'Payment to refund (to you)',
    sent: "To your company's email: a payment arrived for a booking whose places had already been taken, so it must be refunded.",
    placeholders: {
      reference: "The booking's code",
      amount: 'The amount to refund',
    },
    subject: 'Payment to refund: booking {{reference}}',
    body: [
      'A payment of {{amount}} arrived for booking {{reference}} after its places had been taken by others.',
      'The booking was not confirmed and nothing was oversold. Please refund the payment and contact the family.',
    ],
  },
  'autopay-receipt': {
    label: 'Automatic payment receipt',
    sent: "When a family's saved card is charged automatically for an invoice.",
    placeholders: {
      invoice: "The invoice's number",
      name: "The parent's full name",
      company: "Your company's name",
      amount: 'The amount charged',
      card: 'The card (brand and last four digits)',
      what: 'What was charged for',
      link: "The family's payments page",
    },
    subject: 'Payment received: {{invoice}}',
    body: [
      'Hello {{name}},',
      'Thank you: {{company}} charged {{amount}} to your saved card ({{card}}) for {{what}}.',
      'Your payments and receipts:',
      '{{link}}',
    ],
  },
  'autopay-failed': {
    label: 'Automatic payment failed',
    sent: "When the automatic charge of a family's saved card fails.",
    placeholders: {
      amount: 'The amount that could not be charged',
      name: "The parent's full name",
      company: "Your company's name",
      card: 'The card (brand and last four digits)',
      what: 'What was charged for',
      reason: 'Why the card was declined',
      next: 'When we try again, or that it was the last try',
      link: 'The link to update the card',
    },
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
    label: 'Automatic payment failed (to staff)',
    sent: "To your staff when a family's last automatic charge has failed and the invoice is overdue.",
    placeholders: {
      family: "The family's name",
      invoice: "The invoice's number",
      amount: 'The amount that could not be charged',
      what: 'What was charged for',
      reason: 'Why the card was declined',
      email: "The family's email address",
    },
    subject: 'Autopay failed for {{family}}, invoice {{invoice}}',
    body: [
      'The last automatic charge of {{amount}} for {{what}} failed: {{reason}}',
      'The invoice is now overdue and {{family}} ({{email}}) has been asked to update their card. A small "Payment overdue" dot shows on their children\'s roll entries until it is paid.',
    ],
  },
  'refund-failed': {
    label: 'Refund failed (to you)',
    sent: "To your company's email when the card provider could not make a refund.",
    placeholders: {
      amount: 'The amount of the refund',
      family: "The family's name",
      payment: 'The payment it was taken from',
      failure: 'Why the refund failed',
    },
    subject: 'A refund failed: {{amount}} to {{family}}',
    body: [
      'The card provider could not refund {{amount}} of payment {{payment}} to {{family}}: {{failure}}',
      'The money was not returned. Any invoice it was taken from is paid again. Please refund it another way (for example to family credit) and contact the family.',
    ],
  },
  // "Enquire" on the public registration form (features/crm): the company hears of a new lead.
  'crm-enquiry': {
    label: 'New enquiry (to you)',
    sent: "To your company's email when a parent sends an enquiry from the registration form.",
    placeholders: {
      company: "Your company's name",
      name: "The parent's name",
      email: "The parent's email address",
      phone: "The parent's phone number",
      children: "The children's names and ages",
      interest: 'The registration form they enquired from',
      message: "The parent's message",
      link: 'The contact in Contacts',
    },
    subject: 'New enquiry from {{name}}',
    body: [
      '{{name}} sent an enquiry to {{company}} from the registration form ({{interest}}).',
      'Email: {{email}}\nPhone: {{phone}}\nChildren: {{children}}',
      'Message: {{message}}',
      'The enquiry is in Contacts as a new lead:',
      '{{link}}',
    ],
  },
  // Reminder emails (features/communications/reminders): a company's rule may reword each.
  'reminder-class': {
    label: 'Class reminder',
    sent: 'A reminder rule (Reminder emails): the set number of hours before a class session.',
    placeholders: {
      class: "The class's name",
      date: "The session's date",
      time: "The session's start time",
      name: "The parent's full name",
      children: 'The enrolled children',
      company: "Your company's name",
    },
    subject: 'Reminder: {{class}} on {{date}} at {{time}}',
    body: [
      'Hello {{name}},',
      'A reminder that {{children}} has {{class}} with {{company}} on {{date}} at {{time}}.',
      'If {{children}} cannot come, please let us know.',
    ],
  },
  'reminder-invoice-due': {
    label: 'Invoice due reminder',
    sent: 'A reminder rule (Reminder emails): before an unpaid invoice is due.',
    placeholders: {
      number: "The invoice's number",
      due: 'The due date',
      name: "The buyer's name",
      company: "Your company's name",
      balance: 'The amount still owing',
      pay_link: 'The link to pay online',
    },
    subject: 'Invoice {{number}} is due on {{due}}',
    body: [
      'Hello {{name}},',
      'A reminder that invoice {{number}} from {{company}} is due on {{due}}. Amount owing: {{balance}}.',
      'Pay online (sign in first):',
      '{{pay_link}}',
      'If you have already paid, thank you and please ignore this mail.',
    ],
  },
  'reminder-invoice-overdue': {
    label: 'Invoice overdue reminder',
    sent: 'A reminder rule (Reminder emails): after an invoice is past its due date and still owing.',
    placeholders: {
      number: "The invoice's number",
      name: "The buyer's name",
      company: "Your company's name",
      due: 'The due date',
      balance: 'The amount still owing',
      pay_link: 'The link to pay online',
    },
    subject: 'Invoice {{number}} is overdue',
    body: [
      'Hello {{name}},',
      'Invoice {{number}} from {{company}} was due on {{due}} and {{balance}} is still owing.',
      'Pay online (sign in first):',
      '{{pay_link}}',
      'If you have already paid, thank you and please ignore this mail. If you cannot pay yet, please reply so we can help.',
    ],
  },
  'reminder-waiver': {
    label: 'Missing waiver reminder',
    sent: 'A reminder rule (Reminder emails): before an event or party when a waiver is still unsigned.',
    placeholders: {
      title: 'What the waiver is for (the event or party)',
      name: "The parent's full name",
      company: "Your company's name",
      children: 'The children without a signed waiver',
      date: 'The date of the event or party',
      link: 'The link to sign the waiver',
    },
    subject: 'Please sign the waiver before {{title}}',
    body: [
      'Hello {{name}},',
      '{{company}} still needs a signed waiver for {{children}} before {{title}} on {{date}}. It takes a minute on your phone:',
      '{{link}}',
    ],
  },
  'reminder-trial': {
    label: 'Trial follow-up reminder',
    sent: "A reminder rule (Reminder emails): after a child's trial class.",
    placeholders: {
      class: "The class's name",
      name: "The parent's full name",
      children: 'The children who tried the class',
      company: "Your company's name",
      date: "The trial's date",
      link: 'The link to enrol',
    },
    subject: 'How was {{class}}?',
    body: [
      'Hello {{name}},',
      'Thank you for bringing {{children}} to a trial of {{class}} with {{company}} on {{date}}. We hope it was fun!',
      'To keep coming, enrol here:',
      '{{link}}',
    ],
  },
  'reminder-re-enrolment': {
    label: 'Re-enrolment deadline reminder',
    sent: 'A reminder rule (Reminder emails): before the deadline of held re-enrolment places.',
    placeholders: {
      term: 'The next term',
      deadline: 'Until when the places are held',
      name: "The parent's full name",
      company: "Your company's name",
      places: 'The held places, one per child and class',
      link: 'The link to confirm and pay',
    },
    subject: 'Your places for {{term}} are held until {{deadline}}',
    body: [
      'Hello {{name}},',
      'A reminder that {{company}} is holding these places in {{term}} for your family until {{deadline}}:',
      '{{places}}',
      'Confirm them here before the deadline, or they will be released:',
      '{{link}}',
    ],
  },
  'reminder-party-guests': {
    label: 'Party guest-list reminder',
    sent: 'A reminder rule (Reminder emails): before a party whose guest list is not complete.',
    placeholders: {
      child: 'The birthday child',
      date: "The party's date",
      name: "The parent's full name",
      company: "Your company's name",
      entered: 'How many guests are entered',
      guests: 'How many guests were booked',
      link: 'The link to add guests',
    },
    subject: 'Add your guests for {{child}}’s party on {{date}}',
    body: [
      'Hello {{name}},',
      '{{child}}’s party at {{company}} is on {{date}}. You have entered {{entered}} of {{guests}} guests so far.',
      'Add your guests so we can send their parents the invitation and the waiver:',
      '{{link}}',
    ],
  },
  'reminder-wwcc': {
    label: "Coach's Working With Children Check expiring",
    sent: "A reminder rule (Reminder emails): to the coach and the company before a coach's Working With Children Check expires.",
    placeholders: {
      coach: "The coach's name",
      expires: 'The expiry date',
      name: 'Who is mailed: the coach, or the company',
      company: "Your company's name",
      number: "The check's number",
    },
    subject: 'Working With Children Check of {{coach}} expires on {{expires}}',
    body: [
      'Hello {{name}},',
      'The Working With Children Check of {{coach}} at {{company}} (number {{number}}) expires on {{expires}}.',
      'Please renew it and update the coach’s profile, or the coach cannot be rostered after that date.',
    ],
  },
} as const satisfies Record<string, MailTemplate>;

/** One kind of system mail: its default wording and what the System emails page says about it. */
export interface MailTemplate {
  /** The plain-English name staff see. */
  label: string;
  /** When the product sends it. */
  sent: string;
  /** Every placeholder the default uses, with what it is filled with. */
  placeholders: Readonly<Record<string, string>>;
  subject: string;
  body: readonly string[];
}

export type MailKind = keyof typeof mailTemplates;

export const isMailKind = (kind: string): kind is MailKind => Object.hasOwn(mailTemplates, kind);

/** The placeholders a kind's wording may use. */
export const placeholdersOf = (kind: MailKind): string[] =>
  Object.keys((mailTemplates[kind] as MailTemplate).placeholders);

/**
 * What the preview and "Send me a test" fill placeholders with (`company` is the company's own
 * name). One value per placeholder name across all kinds; the unit test checks every described
 * placeholder has one.
 */
export const SAMPLE_DATA: Readonly<Record<string, string>> = {
  name: 'Jordan Example',
  company: 'Your company',
  inviter: 'Alex Admin',
  link: 'https://example.com/link',
  children: 'Mia and Leo',
  child: 'Mia',
  guest: 'Sam',
  event: 'Summer Holiday Program',
  reference: 'BK-7Q4M2',
  places: '2',
  sessions: 'Mon 12 Jan 2026 Morning 09:00–12:00\nTue 13 Jan 2026 Morning 09:00–12:00',
  amount: '$120.00',
  waitlisted: 'Waitlisted: Wed 14 Jan 2026 Morning.',
  waiver: 'Please sign the waiver for each child before the first session:',
  session: 'Morning on Wed 14 Jan 2026',
  hours: '24',
  date: 'Sat 17 Jan 2026',
  time: '10:00',
  guests: '12',
  deposit: '$100.00',
  balance: '$250.00',
  waiver_link: 'https://example.com/waiver',
  calendar:
    'Add to Google Calendar:\nSummer Holiday Program: Morning, 14/01/2026 09:00: https://calendar.google.com/calendar/render?action=TEMPLATE',
  venue: 'Main Hall, 1 Example St, Springfield',
  coach: 'Casey Coach',
  minutes: '30',
  outcome: 'We will refund $60.00 to you.',
  number: 'INV-000123',
  total: '$330.00',
  due: 'Fri 30 Jan 2026',
  document: 'tax invoice',
  pdf_link: 'https://example.com/invoice.pdf',
  pay_link: 'https://example.com/pay',
  bank: 'Or pay by bank transfer: Your company, BSB 062-000, account 12345678.',
  late_fee: 'A $10 late fee applies 7 days after the due date.',
  title: 'Summer Holiday Program',
  money: 'We will refund $120.00 to you.',
  class: 'Junior Gym (5–7 years)',
  reason: 'The hall is closed for repairs.',
  when: 'Tuesdays 16:00',
  first_session: 'Tue 3 Feb 2026',
  expires: 'Fri 30 Jan 2026 17:00',
  decline_link: 'https://example.com/decline',
  term: 'Term 1 2026',
  deadline: 'Fri 30 Jan 2026 18:00',
  release_link: 'https://example.com/release',
  invoice: 'INV-000123',
  card: 'Visa ending 4242',
  what: 'Term 1 2026 classes',
  next: 'We will try again on Mon 2 Feb 2026.',
  family: 'Jordan Example',
  email: 'jordan@example.com',
  payment: 'Card payment of $120.00 on 12 Jan 2026',
  failure: 'The card has expired.',
  entered: '8',
  phone: '0400 000 000',
  interest: 'Term classes',
  message: 'Does my 4 year old need to be toilet trained?',
};

export const escapeHtml = (value: string) =>
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

/**
 * A company's email settings as they change a mail (settings/emails): the footer under the text and
 * the HTML, the logo above the HTML. Sender name and reply-to go on the outbox row, not the body.
 */
export interface MailLook {
  footer: string;
  /** Absolute URL of the logo image, or null for none. */
  logoUrl: string | null;
  /** The logo's alt text: the company's name. */
  logoAlt: string;
}

export function applyMailLook(mail: { text: string; html: string }, look: MailLook) {
  const footer = look.footer.trim();
  const text = footer ? `${mail.text}\n\n--\n${footer}` : mail.text;
  const logo = look.logoUrl
    ? `<p><img src="${escapeHtml(look.logoUrl)}" alt="${escapeHtml(look.logoAlt)}" style="max-height:64px;max-width:240px"></p>\n`
    : '';
  const footerHtml = footer
    ? `\n<hr>\n<p style="color:#666;font-size:12px">${escapeHtml(footer).replaceAll('\n', '<br>')}</p>`
    : '';
  return { text, html: `${logo}${mail.html}${footerHtml}` };
}
