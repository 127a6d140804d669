import { z } from 'zod';

export { TOKEN_HEADER } from './wire.ts';

/**
 * Why a 403 was answered: the session is gone (sign in again) or the signed-in user's role may not
 * do this (another account is needed; the session stays). Decision 004. company_closed: the 410 of
 * a suspended company's public page (the SPA shows "bookings are closed", decision 018).
 */
export const errorReasons = ['session_expired', 'wrong_role', 'company_closed'] as const;
export type ErrorReason = (typeof errorReasons)[number];

/** Error body of every non-form call (CONVENTIONS.md point 5); a 403 also says its `reason`. */
export const errorResponse = z.object({ message: z.string(), reason: z.enum(errorReasons).optional() });
export type ErrorResponse = z.infer<typeof errorResponse>;

/** The generated form response of SPEC.md point 3, answered by every form post. */
export const formResponse = z.object({
  valid: z.boolean(),
  redirect: z.string().optional(),
  info: z.object({ title: z.string(), message: z.string() }).optional(),
  error: z
    .object({
      html_message: z.string().optional(),
      element: z.array(z.object({ name: z.string(), messages: z.array(z.string()) })),
    })
    .optional(),
});
export type FormResponse = z.infer<typeof formResponse>;

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
});
export type HealthResponse = z.infer<typeof healthResponse>;

/** GET /api/ready: ready to serve (the database answers, every migration applied), or why not. */
export const readyResponse = z.object({
  status: z.enum(['ready', 'unready']),
  reason: z.string().optional(),
});
