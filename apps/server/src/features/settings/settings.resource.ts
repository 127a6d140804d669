import { systemEmails } from '../../platform/mail/mail.tables.ts';
import { type MailKind, mailTemplates, renderMail } from '../../platform/mail/mail.templates.ts';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';

const kindLabels: Record<string, string> = {
  activation: 'Account activation',
  'password-reset': 'Password reset',
  invitation: 'Staff invitation',
};

/** Sample values the preview fills the placeholders with. */
const PREVIEW_DATA = {
  name: 'Jordan Example',
  company: 'Your company',
  inviter: 'Alex Admin',
  link: 'https://example.com/admin/reset-password?hashcode=preview',
};

export const systemEmailsResource = defineResource({
  name: 'system-emails',
  label: 'System emails',
  nav: { group: 'Communications', icon: 'mail' },
  singular: 'System email',
  table: systemEmails,
  titleField: 'subject',
  fields: {
    kind: field.select(
      'Mail',
      Object.keys(mailTemplates).map((kind) => ({ value: kind, label: kindLabels[kind] ?? kind })),
      { required: true },
    ),
    subject: field.text('Subject', { required: true, max: 200 }),
    body: field.textarea('Text', {
      required: true,
      max: 5000,
      help: 'Placeholders such as {{name}}, {{company}} and {{link}} are filled in',
    }),
  },
  list: { columns: ['kind', 'subject'], search: ['subject'], filters: ['kind'] },
  actions: {
    preview: {
      label: 'Preview',
      selection: 'one',
      permission: 'settings.read',
      run: async (_ctx, [row]) => {
        const mail = renderMail(row!.kind as MailKind, PREVIEW_DATA, {
          subject: String(row!.subject),
          body: String(row!.body),
        });
        return `${mail.subject}\n\n${mail.text}`;
      },
    },
  },
  permissions: { read: 'settings.read', write: 'settings.write' },
});

export const settingsResources = [systemEmailsResource];
