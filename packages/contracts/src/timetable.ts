import { z } from 'zod';

/** GET /api/v1/admin/timetable: any day of the wanted week (default: this week), grouped by room or coach. */
export const timetableQuery = z.object({
  week: z.iso.date({ error: 'Choose a valid date.' }).optional(),
  by: z.enum(['room', 'coach'], { error: 'Group the timetable by room or by coach.' }).default('room'),
});
export type TimetableQuery = z.infer<typeof timetableQuery>;

/**
 * Dates in answers: a plain pattern (the response serializer cannot compile `z.iso.date()`, which
 * answers 500).
 */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One block on the timetable: a class session, an event session's day or a booked party. */
export const timetableItem = z.object({
  kind: z.enum(['class', 'event', 'party']),
  /** The class session's, the event session's or the party booking's id. */
  id: z.number(),
  title: z.string(),
  /** Class type, event name or party slot: the line under the title. */
  detail: z.string(),
  date: day,
  /** Wall-clock times in the company's time zone, HH:MM. */
  start_time: z.string(),
  end_time: z.string(),
  duration_minutes: z.number(),
  /** The instant the block starts (ISO, UTC): correct across daylight-saving changes. */
  starts_at: z.string(),
  /** #rrggbb of the class type; null for events and parties. */
  colour: z.string().nullable(),
  room: z.string().nullable(),
  coach: z.string().nullable(),
  status: z.enum(['scheduled', 'cancelled']),
  /** The session's coach is on leave that day and no substitute is assigned. */
  needs_cover: z.boolean(),
  /** Where clicking the block goes in the SPA. */
  link: z.string(),
});
export type TimetableItem = z.infer<typeof timetableItem>;

export const timetableResponse = z.object({
  by: z.enum(['room', 'coach']),
  /** Monday and Sunday of the week, and the Mondays before and after it. */
  week: z.object({ start: day, end: day, previous: day, next: day }),
  /** Today in the company's time zone (the SPA marks it). */
  today: day,
  /** Monday … Sunday. */
  days: z.array(day),
  /** A room (or coach) each, in name order, with its blocks in time order; unassigned blocks last. */
  groups: z.array(z.object({ key: z.string(), label: z.string(), items: z.array(timetableItem) })),
});
export type TimetableResponse = z.infer<typeof timetableResponse>;
