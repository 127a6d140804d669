import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { cancellationPolicies } from './cancellation.tables.ts';

/**
 * What a parent gets back for cancelling from their account, per kind (issue 15). A kind without a
 * policy cannot be cancelled online: the parent is asked to contact the company.
 */
export const cancellationPoliciesResource = defineResource({
  name: 'cancellation-policies',
  label: 'Cancellation policies',
  nav: { group: 'Money', icon: 'receipt' },
  singular: 'Cancellation policy',
  table: cancellationPolicies,
  titleField: 'applies_to',
  fields: {
    applies_to: field.select(
      'Parents may cancel',
      [
        { value: 'events', label: 'A booked event day' },
        { value: 'parties', label: 'A birthday party' },
        { value: 'classes', label: 'A class enrolment (withdraw)' },
      ],
      { required: true },
    ),
    notice_hours: field.number('Notice needed (hours before the start)', {
      required: true,
      min: 0,
      max: 2000,
      help: 'Cancelling later than this gives nothing back. For classes: sessions inside the notice are charged.',
    }),
    percent_back: field.number('Percent given back', {
      required: true,
      min: 0,
      max: 100,
      help: 'e.g. 100, or 50',
    }),
    destination: field.select(
      'Given back as',
      [
        { value: 'credit', label: 'Credit on the family’s account' },
        { value: 'refund', label: 'A refund to the card' },
      ],
      { required: true },
    ),
    summary: field.textarea('What parents read', {
      max: 300,
      help: 'e.g. Cancel at least 48 hours ahead for a full credit.',
    }),
  },
  list: { columns: ['applies_to', 'notice_hours', 'percent_back', 'destination'] },
  permissions: { read: 'billing.read', write: 'billing.write' },
});
