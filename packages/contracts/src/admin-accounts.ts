import { z } from 'zod';
import { PASSWORD_MAX, roleSchema, staffRoles, userProfile } from './auth.ts';

/** Paging of admin lists: react-admin's shape, `{ data, total }`. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25),
  q: z.string().trim().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** /admin/my-account: the profile, and optionally a new password (with the current one). */
export const myAccountUpdate = userProfile.extend({
  current_password: z.string().max(PASSWORD_MAX).optional().default(''),
  new_password: z.string().max(PASSWORD_MAX).optional().default(''),
});
export type MyAccountUpdate = z.infer<typeof myAccountUpdate>;
export const myAccount = z.object({
  full_name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: roleSchema,
});
export type MyAccount = z.infer<typeof myAccount>;

export const timeZones = [
  'Australia/Sydney',
  'Australia/Melbourne',
  'Australia/Brisbane',
  'Australia/Adelaide',
  'Australia/Darwin',
  'Australia/Perth',
  'Australia/Hobart',
] as const;

/**
 * Currencies a company may charge in (ISO 4217). Money is kept in integer cents, so only currencies
 * with two minor digits are offered; SPEC.md point 9: new companies use USD.
 */
export const currencyNames = {
  USD: 'US dollar',
  AUD: 'Australian dollar',
  CAD: 'Canadian dollar',
  CHF: 'Swiss franc',
  DKK: 'Danish krone',
  EUR: 'Euro',
  GBP: 'Pound sterling',
  HKD: 'Hong Kong dollar',
  MXN: 'Mexican peso',
  NOK: 'Norwegian krone',
  NZD: 'New Zealand dollar',
  SEK: 'Swedish krona',
  SGD: 'Singapore dollar',
  ZAR: 'South African rand',
} as const;
export type Currency = keyof typeof currencyNames;
export const currencies = Object.keys(currencyNames) as [Currency, ...Currency[]];
export const DEFAULT_CURRENCY: Currency = 'USD';

/** /admin/my-company. */
export const companySettingsUpdate = z.object({
  name: z.string().trim().min(1, 'Company name is required.').max(120),
  email: z.union([z.literal(''), z.email('Please enter a valid email address.')]).default(''),
  phone: z.string().trim().max(30).default(''),
  time_zone: z.enum(timeZones, 'Please choose a time zone.'),
  currency: z.enum(currencies, 'Please choose a currency.'),
});
export type CompanySettingsUpdate = z.infer<typeof companySettingsUpdate>;
export const companySettings = companySettingsUpdate.extend({
  id: z.number(),
  payment_method: z.enum(['stripe', 'square', 'test']),
  authhash: z.string(),
  logo: z.string().nullable(),
});
export type CompanySettings = z.infer<typeof companySettings>;

export const staffRoleSchema = z.enum(staffRoles, 'Please choose a role.');

/** /admin/users: a staff member is invited by email and sets their own password. */
export const userCreate = z.object({
  full_name: z.string().trim().min(1, 'Full name is required.').max(120),
  email: z.email('Please enter a valid email address.').max(254),
  role: staffRoleSchema,
});
export type UserCreate = z.infer<typeof userCreate>;
export const userUpdate = z.object({
  full_name: z.string().trim().min(1, 'Full name is required.').max(120),
  role: staffRoleSchema,
  status: z.enum(['active', 'disabled'], 'Please choose a status.'),
});
export type UserUpdate = z.infer<typeof userUpdate>;
export const userSummary = z.object({
  id: z.number(),
  full_name: z.string(),
  email: z.string(),
  role: roleSchema,
  status: z.enum(['pending', 'active', 'disabled']),
  /** Invited and not yet signed in: shown as "Invited", not "Active" (issue 21 point 16). */
  invited: z.boolean(),
  last_login_at: z.string().nullable(),
});
export type UserSummary = z.infer<typeof userSummary>;
export const userList = z.object({ data: z.array(userSummary), total: z.number() });

export const outboxSummary = z.object({
  id: z.number(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(['pending', 'sent', 'kept', 'failed']),
  created_at: z.string(),
});
export const outboxList = z.object({ data: z.array(outboxSummary), total: z.number() });
export const outboxMail = outboxSummary.extend({ text: z.string(), html: z.string() });
