import { z } from 'zod';
import { api } from '../../../api/client';

/**
 * GET /api/v1/events/wait-list/invitation/{check,accept,decline}?authhash&w&e&b (SPEC.md point 7).
 * The shape is not in @tumble/contracts yet.
 */
export const invitationResponse = z.object({
  valid: z.boolean(),
  message: z.string().optional(),
  redirect: z.string().optional(),
  /** An open invitation: the event, session and day the place is for, and its cell. */
  place: z
    .object({
      event_name: z.string(),
      session_name: z.string(),
      date: z.string(),
      places: z.number(),
      cell: z.string(),
    })
    .optional(),
});
export type InvitationResponse = z.infer<typeof invitationResponse>;

export interface InvitationParams {
  authhash: string;
  w: string;
  e: string;
  b: string;
}

export function invitationCall(
  action: 'check' | 'accept' | 'decline',
  params: InvitationParams,
  signal?: AbortSignal,
): Promise<InvitationResponse> {
  return api.get(`/api/v1/events/wait-list/invitation/${action}`, {
    query: { ...params },
    schema: invitationResponse,
    signal,
  });
}
