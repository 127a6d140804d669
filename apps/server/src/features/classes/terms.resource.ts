import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { compact, dateOrderError } from '../../platform/resources/options.ts';
import { displayDate } from '../../platform/time.ts';
import { regionNames, regions } from './calendar/school-terms.ts';
import { classTypes, termClosures, terms } from './classes.tables.ts';
import {
  closuresOutside,
  lockTermNames,
  overlappingTermMessage,
  overlappingTermNamed,
  termOf,
} from './terms.service.ts';

const classes = { read: 'classes.read', write: 'classes.write' } as const;

/** Ages are stored in months; the form says so and gives an example. */
const ageHelp = (edge: string) =>
  `In months: 3 years 6 months is 42, 5 years is 60. Empty: no ${edge} limit.`;

export const classTypesResource = defineResource({
  name: 'class-types',
  label: 'Class types',
  nav: { group: 'Classes', icon: 'whistle' },
  singular: 'Class type',
  table: classTypes,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Kinder Gym, Ninja Kids' }),
    // Shown to parents when they choose a class (the enrolment pages), so sanitized on save.
    description: field.richtext('Description', { max: 5000 }),
    level: field.text('Level', { max: 60, help: 'e.g. Beginner, Level 2' }),
    age_min_months: field.number('Age from (months)', { min: 0, max: 1200, help: ageHelp('lower') }),
    age_max_months: field.number('Age to (months)', { min: 0, max: 1200, help: ageHelp('upper') }),
    default_duration_minutes: field.number('Default duration (minutes)', {
      required: true,
      min: 5,
      max: 600,
      default: 60,
    }),
    colour: field.colour('Colour', { help: 'Shown on the timetable' }),
    capacity_default: field.number('Default capacity', {
      required: true,
      min: 1,
      max: 500,
      default: 10,
      help: 'Children per class; each class can change it',
    }),
    pricing_model: field.select(
      'Pricing',
      [
        { value: 'per_session', label: 'Price per session' },
        { value: 'term', label: 'Flat term price' },
      ],
      { required: true, default: 'per_session' },
    ),
    price: field.money('Price', {
      required: true,
      default: 0,
      help: 'Per session, or for the whole term, as the pricing says',
    }),
    trial_allowed: field.boolean('Trial class allowed'),
    trial_price: field.money('Trial price', {
      required: true,
      when: { field: 'trial_allowed', value: 'true' },
    }),
    makeup_allowed: field.boolean('Makeup classes allowed', {
      help: 'A missed or cancelled session gives a credit for another class',
    }),
    makeup_expiry: field.select(
      'Makeup credit lasts',
      [
        { value: 'days', label: 'A number of days' },
        { value: 'end_of_term', label: 'Until the end of the term' },
      ],
      { required: true, when: { field: 'makeup_allowed', value: 'true' } },
    ),
    makeup_expiry_days: field.number('Makeup credit days', {
      required: true,
      min: 1,
      max: 365,
      when: { field: 'makeup_expiry', value: 'days' },
    }),
    makeup_cap_per_term: field.number('Makeups per term', {
      min: 0,
      max: 100,
      help: 'Empty: no limit',
      when: { field: 'makeup_allowed', value: 'true' },
    }),
    gst: field.select(
      'GST',
      [
        { value: 'taxable', label: 'Taxable (GST included)' },
        { value: 'gst_free', label: 'GST-free' },
      ],
      { required: true, default: 'taxable' },
    ),
    uniform_type_id: field.reference('Required uniform', 'uniform-types', { help: 'Empty: none' }),
  },
  list: {
    columns: ['name', 'level', 'pricing_model', 'price', 'capacity_default'],
    search: ['name', 'level'],
    filters: ['pricing_model'],
    defaultSort: { field: 'name', order: 'asc' },
  },
  permissions: classes,
  deleteMode: 'archive',
  check: (v) =>
    compact({
      age_max_months:
        typeof v.age_min_months === 'number' &&
        typeof v.age_max_months === 'number' &&
        v.age_max_months < v.age_min_months
          ? 'Age to must be at least Age from.'
          : undefined,
    }),
});

export const termsResource = defineResource({
  name: 'terms',
  label: 'Terms',
  nav: { group: 'Classes', icon: 'calendar' },
  singular: 'Term',
  table: terms,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Term 1 2027' }),
    start_date: field.date('Start date', { required: true }),
    end_date: field.date('End date', { required: true }),
    region: field.select(
      'School calendar',
      regions.map((r) => ({ value: r, label: regionNames[r] })),
      { help: 'The state or territory whose school term this follows; empty: your own dates' },
    ),
    priority_enrolment_opens_at: field.datetime('Re-enrolment opens', {
      help: 'Families already enrolled may re-enrol from here',
    }),
    public_enrolment_opens_at: field.datetime('Enrolment opens to everyone'),
    status: field.select(
      'Status',
      [
        { value: 'draft', label: 'Draft' },
        { value: 'open', label: 'Open' },
        { value: 'closed', label: 'Closed' },
      ],
      { required: true, default: 'draft' },
    ),
  },
  list: {
    columns: ['name', 'start_date', 'end_date', 'region', 'status'],
    search: ['name'],
    filters: ['status', 'region'],
    defaultSort: { field: 'start_date', order: 'desc' },
  },
  actions: {
    'term-calendar': {
      label: 'From the school calendar',
      selection: 'none',
      screen: 'term-calendar',
    },
    rollover: { label: 'Roll over', selection: 'one', screen: 'rollover' },
    // The term billing run (features/billing/billing-run.*): preview every family's invoice, then issue.
    billing: { label: 'Bill this term', selection: 'one', screen: 'billing', permission: 'billing.read' },
  },
  permissions: classes,
  deleteMode: 'archive',
  check: async (v, { tx, tenant, id }) => {
    const errors = compact({
      end_date: dateOrderError(v.start_date, v.end_date, 'End date must be on or after the start date.'),
      public_enrolment_opens_at:
        v.priority_enrolment_opens_at instanceof Date &&
        v.public_enrolment_opens_at instanceof Date &&
        v.public_enrolment_opens_at < v.priority_enrolment_opens_at
          ? 'Enrolment opens to everyone after re-enrolment opens, not before.'
          : undefined,
    });
    if (Object.keys(errors).length) return errors;
    const dates = { startDate: String(v.start_date), endDate: String(v.end_date) };
    await lockTermNames(tx, tenant);
    if (await overlappingTermNamed(tx, tenant, { name: String(v.name), ...dates, exceptId: id }))
      return { name: overlappingTermMessage(String(v.name)) };
    if (id !== null && (await closuresOutside(tx, tenant, id, dates.startDate, dates.endDate)) > 0)
      return {
        end_date: 'Some closures of this term fall outside these dates: change or remove them first.',
      };
    return undefined;
  },
});

export const termClosuresResource = defineResource({
  name: 'closures',
  label: 'Closures',
  singular: 'Closure',
  table: termClosures,
  parent: { resource: 'terms', column: 'termId' },
  titleField: 'reason',
  fields: {
    start_date: field.date('First day', { required: true }),
    end_date: field.date('Last day', { required: true, help: 'The same as the first day for one day' }),
    reason: field.text('Reason', { required: true, max: 120, help: 'e.g. Good Friday, Venue maintenance' }),
    kind: field.select(
      'Kind',
      [
        { value: 'closed', label: 'Facility closed (no session, no charge)' },
        { value: 'billing_only', label: 'Billing only (sessions run, not charged)' },
      ],
      { required: true, default: 'closed' },
    ),
  },
  list: {
    columns: ['reason', 'start_date', 'end_date', 'kind'],
    search: ['reason'],
    filters: ['kind'],
    defaultSort: { field: 'start_date', order: 'asc' },
  },
  permissions: classes,
  check: async (v, { tx, tenant, parentId }) => {
    const order = dateOrderError(v.start_date, v.end_date, 'Last day must be on or after the first day.');
    const term = parentId === null ? undefined : await termOf(tx, tenant, parentId);
    const outside = (d: unknown) =>
      term !== undefined && typeof d === 'string' && (d < term.startDate || d > term.endDate);
    const within = (label: string) =>
      term &&
      `${label} must be within the term (${displayDate(term.startDate)} to ${displayDate(term.endDate)}).`;
    return compact({
      start_date: outside(v.start_date) ? within('First day') : undefined,
      end_date: order ?? (outside(v.end_date) ? within('Last day') : undefined),
    });
  },
});

export const termResources = [classTypesResource, termsResource, termClosuresResource];
