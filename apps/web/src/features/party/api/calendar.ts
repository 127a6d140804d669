import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type CalendarDays, calendarResponse } from '@tumble/contracts/party';
import { z } from 'zod';
import { api, CommunicationError } from '../../../api/client';

const calendarDays = z.record(z.string(), z.object({ available: z.number() }));

/**
 * GET /api/v1/birthday-party/booking/load-calendar?authhash&year: `calendar` is a JSON string keyed
 * by date (SPEC.md point 3). Dates absent are locked; `available` 0 means every slot is taken.
 */
export async function fetchPartyCalendar(
  authhash: string,
  year: number,
  signal?: AbortSignal,
): Promise<CalendarDays> {
  const answer = await api.get('/api/v1/birthday-party/booking/load-calendar', {
    query: { authhash, year },
    schema: calendarResponse,
    signal,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.calendar);
  } catch (error) {
    throw new CommunicationError(error);
  }
  const days = calendarDays.safeParse(parsed);
  if (!days.success) throw new CommunicationError(days.error);
  return days.data;
}

/** SPEC.md point 7: the calendar is cached per year; moving between months of a year asks once. */
export function partyCalendarQuery(authhash: string, year: number) {
  return queryOptions({
    queryKey: ['party', 'calendar', authhash, year],
    queryFn: ({ signal }) => fetchPartyCalendar(authhash, year, signal),
    staleTime: 5 * 60_000,
  });
}

export function usePartyCalendar(authhash: string, year: number) {
  // The previous year's days stay on screen (all locked) while the next year loads.
  return useQuery({ ...partyCalendarQuery(authhash, year), placeholderData: keepPreviousData });
}
