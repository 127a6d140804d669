import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formResponse } from '@tumble/contracts/http';
import {
  type RollMarkRequest,
  type RollResponse,
  type RollStatus,
  rollDayResponse,
  rollResponse,
} from '@tumble/contracts/roll';
import { api } from '../../api/client';

export const rollKeys = {
  day: (date: string) => ['admin', 'roll', 'day', date] as const,
  session: (id: number) => ['admin', 'roll', 'session', id] as const,
};

/** Another device may be marking the same roll: look again now and then so both screens converge. */
const REFRESH_MS = 20_000;

/** GET /api/v1/admin/roll?date=: the day's sessions (empty date: the company's today). */
export function useRollDay(date: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: rollKeys.day(date),
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/roll', { schema: rollDayResponse, query: date ? { date } : {}, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

/** GET /api/v1/admin/roll/:id: the session and every child expected with their marks. */
export function useRoll(sessionId: number) {
  return useQuery({
    queryKey: rollKeys.session(sessionId),
    queryFn: ({ signal }) => api.get(`/api/v1/admin/roll/${sessionId}`, { schema: rollResponse, signal }),
    refetchInterval: REFRESH_MS,
  });
}

export type MarkInput = { child_id: number; status: RollStatus; note?: string | null };

/** The roll with one child's mark changed, as the screen shows it before the server answers. */
function withMark(roll: RollResponse, input: MarkInput): RollResponse {
  const children = roll.children.map((child) =>
    child.id === input.child_id
      ? {
          ...child,
          mark: {
            status: input.status,
            note: input.note === undefined ? (child.mark?.note ?? null) : input.note || null,
            marked_at: new Date().toISOString(),
          },
        }
      : child,
  );
  return { ...roll, children, session: { ...roll.session, marked: children.filter((c) => c.mark).length } };
}

/** A form response that was not accepted, as an error the screen can show. */
export class MarkRefused extends Error {}

/**
 * POST /api/v1/admin/roll/:id/marks, optimistic: the tap shows at once, is undone if the server
 * refuses it or cannot be reached, and the roll is read again afterwards (the last tap wins).
 */
export function useMarkChild(sessionId: number) {
  const queryClient = useQueryClient();
  const key = rollKeys.session(sessionId);
  return useMutation({
    mutationFn: async (input: MarkInput) => {
      const body: RollMarkRequest = input;
      const response = await api.post(`/api/v1/admin/roll/${sessionId}/marks`, body, {
        schema: formResponse,
      });
      if (!response.valid)
        throw new MarkRefused(
          response.error?.element[0]?.messages[0] ?? response.error?.html_message ?? 'Not saved.',
        );
      return response;
    },
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<RollResponse>(key);
      if (before) queryClient.setQueryData(key, withMark(before, input));
      return { before };
    },
    onError: (_error, _input, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSettled: () => {
      // Only once the last tap in flight has landed, so a refetch never undoes a newer tap on screen.
      if (queryClient.isMutating({ mutationKey: ['roll-mark', sessionId] }) <= 1)
        void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'roll', 'day'] });
    },
    mutationKey: ['roll-mark', sessionId],
  });
}
