import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type TimetableResponse, timetableResponse } from '@tumble/contracts/timetable';
import { api } from '../../api/client';

export type TimetableBy = TimetableResponse['by'];

/** GET /api/v1/admin/timetable: the week holding `week` (empty: this week) by room or by coach. */
export function useTimetable(week: string, by: TimetableBy) {
  return useQuery({
    queryKey: ['timetable', week, by],
    queryFn: ({ signal }): Promise<TimetableResponse> =>
      api.get('/api/v1/admin/timetable', {
        schema: timetableResponse,
        query: week ? { week, by } : { by },
        signal,
      }),
    // The old week stays on screen while the next loads, so the buttons do not jump.
    placeholderData: keepPreviousData,
  });
}
