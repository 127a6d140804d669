import { z } from 'zod';
import { systemEmailWording } from './email-settings.ts';

/** Reminder emails (SPEC reminder-emails, issue 16): rules a company switches on and edits. */

export const reminderKinds = [
  'class',
  'invoice-due',
  'invoice-overdue',
  'waiver',
  'trial',
  're-enrolment',
  'party-guests',
  'wwcc',
] as const;
export type ReminderKind = (typeof reminderKinds)[number];

export interface ReminderInfo {
  title: string;
  /** What it sends and to whom, in the page's words. */
  sends: string;
  unit: 'hours' | 'days';
  /** Whether the reminder goes N units before or after its occasion. */
  direction: 'before' | 'after';
  /** The N a company starts with, and the largest it may choose. */
  defaultAmount: number;
  maxAmount: number;
  /** The placeholders its wording may use (`{{name}}`), shown on the page. */
  placeholders: Record<string, string>;
}

const family = { name: 'The parent’s full name', company: 'Your company’s name' };

/** Each rule: its words on the page, its N, and its placeholders (checked on both sides). */
export const reminderInfo: Record<ReminderKind, ReminderInfo> = {
  class: {
    title: 'Class reminder',
    sends:
      'Mails the families of the children enrolled in a session before it starts (not for cancelled sessions or children marked absent).',
    unit: 'hours',
    direction: 'before',
    defaultAmount: 24,
    maxAmount: 168,
    placeholders: {
      ...family,
      children: 'The family’s children in the session',
      class: 'The class name',
      date: 'The session’s date',
      time: 'The session’s start time',
    },
  },
  'invoice-due': {
    title: 'Invoice due',
    sends: 'Mails the family before an unpaid invoice is due.',
    unit: 'days',
    direction: 'before',
    defaultAmount: 3,
    maxAmount: 60,
    placeholders: {
      ...family,
      number: 'The invoice number',
      balance: 'The amount still owing',
      due: 'The due date',
      pay_link: 'The link to pay online',
    },
  },
  'invoice-overdue': {
    title: 'Invoice overdue',
    sends: 'Mails the family after an invoice’s due date has passed while it is still unpaid.',
    unit: 'days',
    direction: 'after',
    defaultAmount: 3,
    maxAmount: 60,
    placeholders: {
      ...family,
      number: 'The invoice number',
      balance: 'The amount still owing',
      due: 'The due date',
      pay_link: 'The link to pay online',
    },
  },
  waiver: {
    title: 'Missing waiver',
    sends:
      'Mails the families who still need to sign a waiver before an event or a party (guests’ parents too).',
    unit: 'days',
    direction: 'before',
    defaultAmount: 2,
    maxAmount: 30,
    placeholders: {
      ...family,
      children: 'The children who still need a waiver',
      title: 'The event or party',
      date: 'Its first day',
      link: 'The link to sign',
    },
  },
  trial: {
    title: 'Trial follow-up',
    sends:
      'Mails the family after a child’s trial session, unless the child has enrolled in the class since.',
    unit: 'hours',
    direction: 'after',
    defaultAmount: 2,
    maxAmount: 168,
    placeholders: {
      ...family,
      children: 'The child who came to the trial',
      class: 'The class name',
      date: 'The trial’s date',
      link: 'The link to the family’s classes',
    },
  },
  're-enrolment': {
    title: 'Re-enrolment deadline',
    sends: 'Mails the families who have not confirmed their held places before a rollover’s deadline.',
    unit: 'days',
    direction: 'before',
    defaultAmount: 2,
    maxAmount: 30,
    placeholders: {
      ...family,
      term: 'The term the places are held in',
      deadline: 'The deadline',
      places: 'The held places',
      link: 'The link to confirm',
    },
  },
  'party-guests': {
    title: 'Party guest list',
    sends: 'Mails the party’s parent before the party to complete the guest list.',
    unit: 'days',
    direction: 'before',
    defaultAmount: 7,
    maxAmount: 60,
    placeholders: {
      ...family,
      child: 'The birthday child',
      date: 'The party’s date',
      guests: 'The number of guests booked',
      entered: 'The number of guests entered so far',
      link: 'The link to the guest list',
    },
  },
  wwcc: {
    title: 'Working With Children Check expiring',
    sends: 'Mails the coach and the company before a coach’s Working With Children Check expires.',
    unit: 'days',
    direction: 'before',
    defaultAmount: 30,
    maxAmount: 180,
    placeholders: {
      name: 'The name of the person mailed (the coach, or the company)',
      company: 'Your company’s name',
      coach: 'The coach’s name',
      number: 'The check’s number',
      expires: 'The expiry date',
    },
  },
};

export const reminderRule = z.object({
  kind: z.enum(reminderKinds),
  title: z.string(),
  sends: z.string(),
  enabled: z.boolean(),
  amount: z.number(),
  unit: z.enum(['hours', 'days']),
  direction: z.enum(['before', 'after']),
  max_amount: z.number(),
  /** The wording used: the company's, else the default. */
  subject: z.string(),
  body: z.string(),
  customised: z.boolean(),
  default_subject: z.string(),
  default_body: z.string(),
  placeholders: z.array(z.object({ name: z.string(), meaning: z.string() })),
});
export type ReminderRule = z.infer<typeof reminderRule>;

export const sentReminder = z.object({
  id: z.number(),
  kind: z.enum(reminderKinds),
  title: z.string(),
  to: z.string(),
  /** What it reminded of: "Kinder Gym on 24/11/2026 at 16:00". */
  occasion: z.string(),
  sent_at: z.string(),
});
export type SentReminder = z.infer<typeof sentReminder>;

/** GET /api/v1/admin/reminder-emails: every rule, and the last 50 reminders sent. */
export const reminderRulesResponse = z.object({
  rules: z.array(reminderRule),
  sent: z.array(sentReminder),
});
export type ReminderRulesResponse = z.infer<typeof reminderRulesResponse>;

/** POST /api/v1/admin/reminder-emails: switch one rule on or off, its N and its wording. */
export const saveReminderRuleRequest = z
  .object({
    kind: z.enum(reminderKinds, { error: 'Choose a reminder.' }),
    enabled: z.boolean({ error: 'Choose whether the reminder is on.' }),
    amount: z.coerce
      .number({ error: 'Enter a whole number.' })
      .int('Enter a whole number.')
      .min(1, 'Enter at least 1.'),
    // Checked in full below with the System emails schema of the rule's mail kind.
    subject: z.string('Please enter the subject.').trim(),
    body: z.string('Please enter the text.').trim(),
  })
  .superRefine((value, ctx) => {
    const info = reminderInfo[value.kind];
    if (value.amount > info.maxAmount)
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `Enter at most ${info.maxAmount} ${info.unit}.`,
      });
    // The wording is the rule's mail kind's system email: the same rules and messages as that page.
    const wording = systemEmailWording(Object.keys(info.placeholders)).safeParse(value);
    if (!wording.success)
      for (const issue of wording.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
export type SaveReminderRuleRequest = z.input<typeof saveReminderRuleRequest>;
