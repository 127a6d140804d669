import { ne } from 'drizzle-orm';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { privateLessonSettings } from './private-lessons.tables.ts';

/**
 * The company's private lesson cancellation policy (one row; without it: 24 hours, credit). A parent
 * may cancel online until this many hours before the lesson; what they paid then becomes the outcome.
 */
export const privateLessonPolicyResource = defineResource({
  name: 'private-lesson-policy',
  label: 'Private lesson cancellation',
  nav: { group: 'Classes', icon: 'whistle' },
  singular: 'Private lesson cancellation policy',
  table: privateLessonSettings,
  titleField: 'cancel_hours_before',
  fields: {
    cancel_hours_before: field.number('Hours before the lesson', {
      required: true,
      min: 0,
      max: 720,
      default: 24,
      help: 'Parents may cancel online until this many hours before the lesson',
    }),
    cancel_outcome: field.select(
      'What the amount paid becomes',
      [
        { value: 'credit', label: 'Credit' },
        { value: 'refund', label: 'Refund' },
        { value: 'none', label: 'Nothing (not refunded)' },
      ],
      { required: true, default: 'credit' },
    ),
  },
  list: { columns: ['cancel_hours_before', 'cancel_outcome'] },
  permissions: { read: 'classes.read', write: 'classes.write' },
  // One policy per company: a second row would be ignored, so it is refused.
  check: async (_values, { tx, tenant, id }) => {
    const [other] = await tx
      .select({ id: privateLessonSettings.id })
      .from(privateLessonSettings)
      .where(tenant.where(privateLessonSettings, id === null ? undefined : ne(privateLessonSettings.id, id)));
    return other
      ? { cancel_hours_before: 'The company already has a cancellation policy: edit that one.' }
      : undefined;
  },
});

export const privateLessonResources = [privateLessonPolicyResource];
