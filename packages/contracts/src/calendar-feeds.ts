import { z } from 'zod';

/**
 * Calendar feeds (SPEC integrations/google): secret iCalendar URLs a calendar subscribes to. The
 * server keeps only each URL's SHA-256, so a URL is shown once, when it is made; making it again
 * revokes the old one.
 */

/** A live feed as lists show it (never its URL). */
export const feedState = z.object({
  id: z.number(),
  created_at: z.string(),
  /** When a calendar last fetched it; null: nobody has subscribed yet. */
  last_fetched_at: z.string().nullable(),
});
export type FeedState = z.infer<typeof feedState>;

/** GET /api/v1/admin/integrations/google/feeds: the company's feed and each coach's. */
export const staffFeedsResponse = z.object({
  company: feedState.nullable(),
  coaches: z.array(z.object({ coach_id: z.number(), name: z.string(), feed: feedState.nullable() })),
});
export type StaffFeedsResponse = z.infer<typeof staffFeedsResponse>;

/** POST /api/v1/admin/integrations/google/feeds: make (or remake) the company's feed or one coach's. */
export const createFeedRequest = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('company') }).strict(),
    z.object({ kind: z.literal('coach'), coach_id: z.number().int().positive() }).strict(),
  ],
  { error: 'Choose the company or a coach.' },
);
export type CreateFeedRequest = z.infer<typeof createFeedRequest>;

/** A feed just made: its URL (shown this once) and Google Calendar's subscribe link for it. */
export const createdFeedResponse = z.object({
  feed: feedState,
  url: z.string(),
  webcal_url: z.string(),
  google_url: z.string(),
});
export type CreatedFeedResponse = z.infer<typeof createdFeedResponse>;

/** GET /api/v1/students/calendar-feed: the family's own feed, if made. */
export const familyFeedResponse = z.object({ feed: feedState.nullable() });
export type FamilyFeedResponse = z.infer<typeof familyFeedResponse>;
