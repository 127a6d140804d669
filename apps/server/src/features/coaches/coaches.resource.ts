import { eq, ne } from 'drizzle-orm';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { compact, dateOrderError, weekdayOptions } from '../../platform/resources/options.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { companyOf, contactOf } from '../accounts/accounts.service.ts';
import { checkProblem } from './coaches.service.ts';
import { coaches, coachLeaves, coachPrivateSlots, coachUniforms } from './coaches.tables.ts';

const access = { read: 'coaches.read', write: 'coaches.write' } as const;
const nested = { resource: 'coaches', column: 'coachId' };

export const wwccOutcomeOptions = [
  { value: 'cleared', label: 'Cleared' },
  { value: 'pending', label: 'Pending' },
  { value: 'barred', label: 'Barred' },
];

export const coachesResource = defineResource({
  name: 'coaches',
  label: 'Coaches',
  nav: { group: 'Classes', icon: 'whistle' },
  singular: 'Coach',
  table: coaches,
  titleField: 'name',
  fields: {
    // Copied from the staff user on save (beforeSave): references to a coach show it.
    name: field.text('Name', { readOnly: true }),
    user_id: field.reference('Staff user', 'staff', {
      required: true,
      help: 'An administrator, staff member or coach of the company (invite them under Users first)',
    }),
    phone: field.phone('Phone'),
    qualifications: field.textarea('Qualifications', { max: 1000 }),
    wwcc_number: field.text('Working With Children Check number', { max: 30 }),
    wwcc_verified_on: field.date('Check verified on', {
      help: 'When you checked the number with the state screening agency',
    }),
    wwcc_outcome: field.select('Check outcome', wwccOutcomeOptions),
    wwcc_expires_on: field.date('Check expires on'),
  },
  list: {
    columns: ['name', 'phone', 'wwcc_number', 'wwcc_outcome', 'wwcc_expires_on'],
    search: ['name', 'phone', 'wwcc_number'],
    filters: ['wwcc_outcome'],
    // The checks that expire first (or already have) lead the list.
    defaultSort: { field: 'wwcc_expires_on', order: 'asc' },
  },
  permissions: access,
  deleteMode: 'archive',
  actions: {
    // The lessons parents booked with this coach's private slots (the staff list, filtered).
    'private-lessons': {
      label: 'Private lessons',
      selection: 'one',
      screen: 'private-lessons',
      permission: 'bookings.read',
    },
  },
  sections: {
    rostering: {
      label: 'Rostering',
      columns: [
        { name: 'day', label: 'Day' },
        { name: 'status', label: 'Working With Children Check' },
      ],
      // Whether the check lets the coach be rostered now and a month ahead (the roster's own rule).
      rows: async ({ tx, tenant }, row) => {
        const today = todayIn((await companyOf(tx, tenant)).timeZone);
        const check = {
          wwccNumber: row.wwcc_number as string | null,
          wwccOutcome: row.wwcc_outcome as 'cleared' | 'pending' | 'barred' | null,
          wwccVerifiedOn: row.wwcc_verified_on as string | null,
          wwccExpiresOn: row.wwcc_expires_on as string | null,
          archivedAt: null,
        };
        const status = (date: string) =>
          checkProblem(String(row.name || 'This coach'), check, date) ?? 'May be rostered';
        return [
          { day: 'Today', status: status(today) },
          { day: 'In 30 days', status: status(addDays(today, 30)) },
        ];
      },
    },
  },
  check: async (v, { tx, tenant, id }) => {
    const userId = typeof v.user_id === 'number' ? v.user_id : null;
    const [taken] = userId
      ? await tx
          .select({ id: coaches.id })
          .from(coaches)
          .where(tenant.where(coaches, eq(coaches.userId, userId), id ? ne(coaches.id, id) : undefined))
      : [];
    const today = todayIn((await companyOf(tx, tenant)).timeZone);
    const verified = typeof v.wwcc_verified_on === 'string' ? v.wwcc_verified_on : null;
    return compact({
      user_id: taken ? 'This staff user already has a coach profile.' : undefined,
      wwcc_verified_on:
        verified && verified > today ? 'Check verified on cannot be in the future.' : undefined,
      wwcc_expires_on: dateOrderError(
        verified,
        v.wwcc_expires_on,
        'Check expires on must be after the date it was verified.',
      ),
      wwcc_number:
        v.wwcc_outcome === 'cleared' && !v.wwcc_number ? 'A cleared check needs its number.' : undefined,
      wwcc_outcome:
        v.wwcc_outcome === 'cleared' && !verified
          ? 'A cleared check needs the date it was verified.'
          : undefined,
    });
  },
  beforeSave: async (v, { tx, tenant }) => ({
    ...v,
    name: (await contactOf(tx, tenant, v.user_id as number)).fullName,
  }),
});

export const coachLeavesResource = defineResource({
  name: 'leaves',
  label: 'Leave',
  singular: 'Leave',
  table: coachLeaves,
  parent: nested,
  titleField: 'reason',
  fields: {
    reason: field.text('Reason', { required: true, max: 200, help: 'e.g. Annual leave' }),
    start_date: field.date('First day', { required: true }),
    end_date: field.date('Last day', { required: true }),
  },
  list: {
    columns: ['reason', 'start_date', 'end_date'],
    search: ['reason'],
    defaultSort: { field: 'start_date', order: 'desc' },
  },
  permissions: access,
  check: (v) =>
    compact({
      end_date: dateOrderError(v.start_date, v.end_date, 'Last day must be on or after the first day.'),
    }),
});

export const coachPrivateSessionsResource = defineResource({
  name: 'private-sessions',
  label: 'Private sessions',
  singular: 'Private session',
  table: coachPrivateSlots,
  parent: nested,
  titleField: 'start_time',
  fields: {
    weekday: field.select('Day', weekdayOptions, { required: true }),
    start_time: field.time('Starts at', { required: true }),
    duration_minutes: field.number('Minutes', { required: true, min: 15, max: 240, default: 30 }),
    max_children: field.number('Children per lesson', {
      required: true,
      min: 1,
      max: 3,
      default: 1,
      help: '1 to 3',
    }),
    price: field.money('Price per lesson', { required: true }),
  },
  list: {
    columns: ['weekday', 'start_time', 'duration_minutes', 'max_children', 'price'],
    defaultSort: { field: 'weekday', order: 'asc' },
  },
  permissions: access,
});

export const coachUniformsResource = defineResource({
  name: 'uniforms',
  label: 'Uniforms',
  singular: 'Uniform item',
  table: coachUniforms,
  parent: nested,
  titleField: 'size',
  fields: {
    uniform_type_id: field.reference('Uniform', 'uniform-types', { required: true }),
    size: field.text('Size', { required: true, max: 20, help: 'e.g. S, M, 10, One size' }),
    issued_on: field.date('Issued on', { required: true }),
  },
  list: {
    columns: ['size', 'uniform_type_id', 'issued_on'],
    search: ['size'],
    filters: ['uniform_type_id'],
    defaultSort: { field: 'issued_on', order: 'desc' },
  },
  permissions: access,
});

export const coachResources = [
  coachesResource,
  coachLeavesResource,
  coachPrivateSessionsResource,
  coachUniformsResource,
];
