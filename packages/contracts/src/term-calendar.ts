import { z } from 'zod';

/**
 * The built-in school calendar (GET /api/v1/admin/term-calendar): every school term of each
 * Australian state and territory the server knows, with the public holidays that become its closures.
 */
export const calendarTermSchema = z.object({
  region: z.string(),
  region_name: z.string(),
  year: z.number(),
  term: z.number(),
  name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  /** false: the dates follow the department's usual pattern but were not checked against its page. */
  confirmed: z.boolean(),
  closures: z.array(z.object({ start_date: z.string(), end_date: z.string(), reason: z.string() })),
});
export type CalendarTermOffer = z.infer<typeof calendarTermSchema>;

export const termCalendarResponse = z.object({ terms: z.array(calendarTermSchema) });
export type TermCalendarResponse = z.infer<typeof termCalendarResponse>;

/** POST /api/v1/admin/term-calendar/create: which term to create (answered with the form response). */
export const termCalendarCreate = z.object({
  region: z.string().optional(),
  year: z.union([z.number(), z.string()]).optional(),
  term: z.union([z.number(), z.string()]).optional(),
});
export type TermCalendarCreate = z.infer<typeof termCalendarCreate>;
