import { z } from 'zod';

/**
 * Roles of SPEC.md point 6. `student` is a parent. `operator` runs the installation: a user of the
 * installation's own company, above every company and inside none (decision 018).
 */
export const roles = ['companyadmin', 'companystaff', 'companycoach', 'student', 'operator'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;
export const staffRoles = ['companyadmin', 'companystaff', 'companycoach'] as const satisfies readonly Role[];
export const roleLabels: Record<Role, string> = {
  companyadmin: 'Administrator',
  companystaff: 'Staff',
  companycoach: 'Coach',
  student: 'Parent',
  operator: 'Operator',
};

/** Why the staff of a company that is not active cannot sign in (decision 018). */
export const companySignInMessages = {
  pending: 'Your company is waiting for approval. We will email you when your account is active.',
  declined: 'Your company’s sign-up was not approved. Please contact us if you think this is a mistake.',
  suspended:
    'Your company’s account is suspended: bookings are closed and staff cannot sign in. Please contact us.',
} as const;

/** POST /rest. The login form and the server share this schema (SPEC.md point 5: both required). */
export const loginRequest = z.object({
  username: z.string().trim().min(1, 'Email address is required.'),
  password: z.string().min(1, 'Password is required.'),
  /** Parents sign in through their company's public pages; the authhash names that company. */
  authhash: z.string().optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;
export const loginResponse = z.object({ token: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const navigationItem = z.object({
  label: z.string(),
  path: z.string(),
  icon: z.string().optional(),
  /** The sidebar group (Events, Parties, Money, …); none for Dashboard and a parent's pages. */
  group: z.string().optional(),
});
export type NavigationItem = z.infer<typeof navigationItem>;

/** GET /rest/acl: the access-control response of SPEC.md point 3. */
export const aclResponse = z.object({
  name: z.string(),
  meta: z.object({
    logo: z.string().nullable(),
    role: roleSchema.nullable(),
    is_company: z.boolean(),
    company_id: z.number().nullable(),
    company_name: z.string().nullable(),
    /** The company's currency (ISO 4217), for amounts the SPA formats itself (issue 21 point 21). */
    currency: z.string().optional(),
    /** An operator's support access to this company (decision 018): the SPA shows it in a banner. */
    support: z.object({ company_name: z.string(), reason: z.string(), until: z.string() }).optional(),
  }),
  navigation: z.object({ side: z.array(navigationItem), top: z.array(navigationItem) }),
});
export type AclResponse = z.infer<typeof aclResponse>;

export const forgottenPasswordRequest = z.object({
  email: z.email('Please enter a valid email address.'),
  authhash: z.string().optional(),
});
export type ForgottenPasswordRequest = z.infer<typeof forgottenPasswordRequest>;

/** Link check of SPEC.md point 4: 0 invalid, 1 valid, 2 timed out. */
export const linkCheckResult = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type LinkCheckResult = z.infer<typeof linkCheckResult>;
export const linkCheckResponse = z.object({ result: linkCheckResult });

export const resetPasswordRequest = z
  .object({
    hashcode: z.string().min(1),
    password: z.string().min(1, 'Password is required.'),
    password2: z.string().min(1, 'Please confirm the password.'),
  })
  .refine((v) => v.password === v.password2, { path: ['password2'], message: 'The passwords do not match.' });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** Passwords: at least 8 characters for parents and 12 for staff; long passphrases welcome. */
export const PASSWORD_MAX = 256;
export const parentPassword = z
  .string()
  .min(8, 'Password must be at least 8 characters.')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);
export const staffPassword = z
  .string()
  .min(12, 'Password must be at least 12 characters.')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

const fullName = z.string().trim().min(1, 'Full name is required.').max(120);
const email = z.email('Please enter a valid email address.').max(254);
const phone = z
  .string()
  .trim()
  .max(30)
  .regex(/^[0-9 +()-]*$/, 'Please enter a valid phone number.');

/** /admin/company/signup: a company and its first administrator. */
export const companySignupRequest = z.object({
  company_name: z.string().trim().min(1, 'Company name is required.').max(120),
  full_name: fullName,
  email,
  password: staffPassword,
});
export type CompanySignupRequest = z.infer<typeof companySignupRequest>;

/** Parent signup for the company named by authhash. */
export const studentSignupRequest = z.object({
  authhash: z.string().min(1),
  full_name: fullName,
  email,
  phone: phone.min(1, 'Phone is required.'),
  password: parentPassword,
});
export type StudentSignupRequest = z.infer<typeof studentSignupRequest>;

/** User profile of SPEC.md point 3. */
export const userProfile = z.object({ full_name: fullName, email, phone: phone.optional().default('') });
export type UserProfile = z.infer<typeof userProfile>;
