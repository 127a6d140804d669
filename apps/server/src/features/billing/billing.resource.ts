import { eq, ne } from 'drizzle-orm';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import {
  compact,
  dateOrderError,
  discountTypeOptions,
  paymentMethodOptions,
} from '../../platform/resources/options.ts';
import {
  coupons,
  insurances,
  nswSettings,
  paymentMethods,
  paymentTerms,
  promotionalCodes,
  surcharges,
} from './billing.tables.ts';

const billing = { read: 'billing.read', write: 'billing.write' } as const;

/** Default terms of SPEC.md point 9, offered as the starting text of new payment terms. */
export const DEFAULT_TERMS_HTML = [
  '<p>Payment is required at the time of booking.</p>',
  '<p>Bookings are non-refundable for change of mind.</p>',
  '<p>If the gym has to close, we will refund or postpone your booking.</p>',
  '<p>If your child is sick and you let us know beforehand, we will give you a credit note.</p>',
  '<p>Late pick-up after 3.30pm costs $15 per 15 minutes.</p>',
].join('');

const discountChecks = (v: Record<string, unknown>) =>
  compact({
    percent_off:
      v.discount_type === 'percent' && !v.percent_off
        ? 'Percent off is required for a percent discount.'
        : undefined,
    amount_off:
      v.discount_type === 'fixed' && !v.amount_off
        ? 'Amount off is required for a fixed discount.'
        : undefined,
    valid_to: dateOrderError(v.valid_from, v.valid_to, 'Valid to must be on or after valid from.'),
    code:
      typeof v.code === 'string' && !/^[A-Za-z0-9_-]+$/.test(v.code)
        ? 'Code may only use letters, numbers, - and _.'
        : undefined,
  });
/** Codes are matched upper-case; only the value of the chosen kind of discount is kept. */
const normaliseDiscount = (v: Record<string, unknown>) => ({
  ...v,
  code: typeof v.code === 'string' ? v.code.toUpperCase() : v.code,
  percent_off: v.discount_type === 'percent' ? v.percent_off : null,
  amount_off: v.discount_type === 'fixed' ? v.amount_off : null,
});

const discountFields = {
  percent_off: field.number('Percent off', { min: 1, max: 100, help: 'For a percent discount, e.g. 10' }),
  amount_off: field.money('Amount off', { help: 'For a fixed discount' }),
};

export const insurancesResource = defineResource({
  name: 'insurances',
  label: 'Insurances',
  nav: { group: 'Money', icon: 'shield' },
  singular: 'Insurance',
  table: insurances,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120 }),
    kind: field.select(
      'Kind',
      [
        { value: 'daily', label: 'Daily (per booked day, per child)' },
        { value: 'full', label: 'Full cover (once per child)' },
      ],
      { required: true },
    ),
    price: field.money('Price', { required: true }),
    description: field.textarea('Description', { max: 500 }),
  },
  list: { columns: ['name', 'kind', 'price'], search: ['name'], filters: ['kind'] },
  permissions: billing,
  deleteMode: 'archive',
});

export const couponsResource = defineResource({
  name: 'coupons',
  label: 'Coupons',
  nav: { group: 'Money', icon: 'ticket' },
  singular: 'Coupon',
  table: coupons,
  titleField: 'code',
  fields: {
    code: field.text('Code', { required: true, max: 40 }),
    discount_type: field.select('Discount', discountTypeOptions, { required: true }),
    ...discountFields,
    valid_from: field.date('Valid from'),
    valid_to: field.date('Valid to'),
    usage_limit: field.number('Total uses', { min: 1, max: 1_000_000, help: 'Empty: unlimited' }),
    per_parent_limit: field.number('Uses per parent', { min: 1, max: 1000, help: 'Empty: unlimited' }),
    event_ids: field.references('Events', 'events', { help: 'Empty: every event' }),
    used_count: field.number('Used', { readOnly: true }),
  },
  list: {
    columns: ['code', 'discount_type', 'percent_off', 'amount_off', 'valid_from', 'valid_to', 'used_count'],
    search: ['code'],
    filters: ['discount_type'],
  },
  permissions: billing,
  deleteMode: 'archive',
  check: discountChecks,
  beforeSave: normaliseDiscount,
});

export const promotionalCodesResource = defineResource({
  name: 'promotional-codes',
  label: 'Promotional codes',
  nav: { group: 'Money', icon: 'ticket' },
  singular: 'Promotional code',
  table: promotionalCodes,
  titleField: 'code',
  fields: {
    code: field.text('Code', { required: true, max: 40 }),
    description: field.text('Description', { max: 200 }),
    discount_type: field.select('Discount', discountTypeOptions, { required: true }),
    ...discountFields,
    applies_to: field.select(
      'Applies to',
      [
        { value: 'all', label: 'Everything' },
        { value: 'events', label: 'Events' },
        { value: 'parties', label: 'Parties' },
        { value: 'classes', label: 'Classes and private lessons' },
      ],
      { required: true, default: 'all' },
    ),
    valid_from: field.date('Valid from'),
    valid_to: field.date('Valid to'),
    active: field.boolean('Active', { default: true }),
  },
  list: {
    columns: ['code', 'discount_type', 'percent_off', 'amount_off', 'applies_to', 'active'],
    search: ['code', 'description'],
    filters: ['applies_to', 'active'],
  },
  permissions: billing,
  check: discountChecks,
  beforeSave: normaliseDiscount,
});

export const nswSettingsResource = defineResource({
  name: 'nsw-settings',
  label: 'NSW vouchers',
  nav: { group: 'Money', icon: 'ticket' },
  singular: 'NSW voucher setting',
  table: nswSettings,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 80, default: 'NSW voucher' }),
    enabled: field.boolean('Accept vouchers'),
    voucher_value: field.money('Value per child', { required: true, default: 5000 }),
    code_format: field.text('Code format', {
      required: true,
      max: 200,
      default: '^[A-Za-z0-9]{6,20}$',
      help: 'A regular expression codes must match',
    }),
  },
  list: { columns: ['name', 'enabled', 'voucher_value'] },
  permissions: billing,
  check: (v) => {
    try {
      new RegExp(String(v.code_format));
      return undefined;
    } catch {
      return { code_format: 'Code format must be a valid regular expression.' };
    }
  },
});

export const surchargesResource = defineResource({
  name: 'surcharges',
  label: 'Surcharges',
  nav: { group: 'Money', icon: 'percent' },
  singular: 'Surcharge',
  table: surcharges,
  titleField: 'name',
  fields: {
    name: field.text('Name', {
      required: true,
      max: 80,
      help: 'Shown on the price lines, e.g. Card surcharge',
    }),
    payment_method: field.select('Payment method', paymentMethodOptions, { required: true }),
    kind: field.select(
      'Kind',
      [
        { value: 'percent', label: 'Percent of the total' },
        { value: 'fixed', label: 'Fixed amount' },
      ],
      { required: true },
    ),
    // One column, `amount`: basis points for a percent surcharge (staff type 1.5 for 1.5%), cents
    // for a fixed one. Each kind has its own field, shown while that kind is chosen.
    percent: field.percent('Percent', {
      column: 'amount',
      required: true,
      help: 'e.g. 1.5 for 1.5%',
      when: { field: 'kind', value: 'percent' },
    }),
    fixed_amount: field.money('Amount', {
      column: 'amount',
      required: true,
      max: 1_000_000,
      when: { field: 'kind', value: 'fixed' },
    }),
  },
  list: {
    columns: ['name', 'payment_method', 'kind', 'percent', 'fixed_amount'],
    filters: ['payment_method'],
  },
  permissions: billing,
  check: (v) =>
    v.kind === 'percent' && (v.percent as number) > 2000
      ? { percent: 'A surcharge cannot be more than 20%.' }
      : undefined,
});

export const paymentTermsResource = defineResource({
  name: 'payment-terms',
  label: 'Payment terms',
  nav: { group: 'Money', icon: 'file' },
  singular: 'Payment terms',
  table: paymentTerms,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120 }),
    applies_to: field.select(
      'For',
      [
        { value: 'events', label: 'Event bookings' },
        { value: 'parties', label: 'Birthday parties' },
        { value: 'classes', label: 'Class enrolments' },
      ],
      { required: true },
    ),
    content: field.richtext('Terms', { required: true, default: DEFAULT_TERMS_HTML }),
    is_default: field.boolean('Default', {
      help: 'Shown at checkout unless an event or a registration form picks other terms; one default for each kind',
    }),
  },
  list: { columns: ['name', 'applies_to', 'is_default'], search: ['name'], filters: ['applies_to'] },
  permissions: billing,
  // One default per kind: choosing a new default clears the old one of that kind in the same transaction.
  beforeSave: async (values, { tx, tenant, id }) => {
    if (values.is_default) {
      await tx
        .update(paymentTerms)
        .set({ isDefault: false })
        .where(
          tenant.where(
            paymentTerms,
            eq(paymentTerms.appliesTo, values.applies_to as 'events' | 'parties' | 'classes'),
            id === null ? undefined : ne(paymentTerms.id, id),
          ),
        );
    }
    return values;
  },
});

/** Which providers the company takes cards with; exactly one enabled method is the default. */
export const paymentMethodsResource = defineResource({
  name: 'payment-methods',
  label: 'Payment methods',
  nav: { group: 'Money', icon: 'cash' },
  singular: 'Payment method',
  table: paymentMethods,
  titleField: 'label',
  fields: {
    provider: field.select('Provider', paymentMethodOptions, { required: true }),
    label: field.text('Name', { required: true, max: 80, help: 'e.g. Card (Stripe)' }),
    enabled: field.boolean('Enabled', { default: true }),
    is_default: field.boolean('Default', { help: 'Checkout uses the default method' }),
  },
  list: { columns: ['label', 'provider', 'enabled', 'is_default'], filters: ['provider'] },
  permissions: { read: 'billing.read', write: 'settings.write' },
  check: (v) =>
    v.is_default && !v.enabled ? { is_default: 'The default method must be enabled.' } : undefined,
  // One default: choosing a new default clears the old one in the same transaction.
  beforeSave: async (values, { tx, tenant, id }) => {
    if (values.is_default) {
      await tx
        .update(paymentMethods)
        .set({ isDefault: false })
        .where(tenant.where(paymentMethods, id === null ? undefined : ne(paymentMethods.id, id)));
    }
    return values;
  },
});

export const billingResources = [
  paymentMethodsResource,
  insurancesResource,
  couponsResource,
  promotionalCodesResource,
  nswSettingsResource,
  surchargesResource,
  paymentTermsResource,
];
