import { z } from 'zod';
import { appliedFlag } from './flags.ts';
import { childProfileForm } from './students.ts';
import { task } from './tasks.ts';
import { uniformOrder } from './uniform-orders.ts';

/**
 * The staff Students screens (issue 17): every child across the company's families, and one
 * child's screen. GET /api/v1/admin/students, GET/POST /api/v1/admin/students/:id.
 */

export const studentSorts = ['name', 'age', 'family'] as const;
export const STUDENTS_PAGE_SIZE = 25;

/** GET /api/v1/admin/students?q=&sort=&dir=&page= */
export const studentDirectoryQuery = z.object({
  /** Part of a child's or parent's name, an email or a phone number. */
  q: z.string().trim().max(100).optional().default(''),
  sort: z.enum(studentSorts).optional().default('name'),
  dir: z.enum(['asc', 'desc']).optional().default('asc'),
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type StudentDirectoryQuery = z.infer<typeof studentDirectoryQuery>;

/** A flag shown on a child (the flags feature defines them). */
export const studentFlag = z.object({ id: z.number(), name: z.string(), colour: z.string() });

export const studentDirectoryRow = z.object({
  id: z.number(),
  name: z.string(),
  dob: z.string(),
  /** Whole years on the company's today. */
  age: z.number(),
  family: z.object({ id: z.number(), name: z.string(), email: z.string(), phone: z.string() }),
  active_classes: z.number(),
  flags: z.array(studentFlag),
});
export type StudentDirectoryRow = z.infer<typeof studentDirectoryRow>;

export const studentDirectoryResponse = z.object({
  rows: z.array(studentDirectoryRow),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type StudentDirectory = z.infer<typeof studentDirectoryResponse>;

const waiverState = z.enum(['signed', 'needed', 'none']);
const bookingStatus = z.enum(['pending', 'confirmed', 'cancelled', 'expired', 'refund_due']);

/** GET /api/v1/admin/students/:id: one child's screen. */
export const studentProfileResponse = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string(),
  age: z.number(),
  /** Photo consent (the child's `consent`), 0/1. */
  consent: z.number(),
  medical_notes: z.string(),
  allergies: z.string(),
  emergency_contacts: z.array(z.object({ name: z.string(), relationship: z.string(), phone: z.string() })),
  school: z.string(),
  family: z.object({
    id: z.number(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    /** The family's Account page. */
    account_path: z.string(),
    siblings: z.array(z.object({ id: z.number(), name: z.string(), dob: z.string() })),
  }),
  classes: z.array(
    z.object({
      id: z.number(),
      class_id: z.number(),
      class_name: z.string(),
      term: z.string(),
      when: z.string(),
      kind: z.enum(['enrolled', 'trial', 'makeup', 'casual']),
      status: z.enum(['pending', 'active']),
      present: z.number(),
      absent: z.number(),
    }),
  ),
  bookings: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      event_name: z.string(),
      status: bookingStatus,
      booked_on: z.string(),
      waiver: waiverState,
    }),
  ),
  parties: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      date: z.string(),
      status: bookingStatus,
      waiver: waiverState,
    }),
  ),
  /** Each booking and party waiver: signed or still needed. */
  waivers: z.object({ signed: z.number(), needed: z.number() }),
  payments: z.object({
    currency: z.string(),
    owing: z.number(),
    overdue: z.number(),
    credit: z.number(),
    invoices: z.array(
      z.object({
        id: z.number(),
        code: z.string().nullable(),
        status: z.string(),
        issued_on: z.string().nullable(),
        total: z.number(),
        balance: z.number(),
      }),
    ),
  }),
  /** The child's own flags and its family's (features/students/flags.service.ts). */
  flags: z.array(appliedFlag),
  /** Tasks about the child (features/tasks). */
  tasks: z.array(task),
  /** The child's uniform orders (features/uniforms). */
  uniforms: z.array(uniformOrder),
});
export type StudentProfileScreen = z.infer<typeof studentProfileResponse>;

/** POST /api/v1/admin/students/:id: staff save the profile with the parent's child-form schema. */
export const staffChildProfileForm = childProfileForm;
