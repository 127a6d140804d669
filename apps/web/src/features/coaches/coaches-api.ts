import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { coverList } from '@tumble/contracts/coaches';
import { formResponse } from '@tumble/contracts/http';
import { api } from '../../api/client';

export const coachKeys = {
  cover: ['admin', 'cover'] as const,
};

/** GET /api/v1/admin/cover: scheduled sessions from today whose coach is on leave that day. */
export function useCover(enabled = true) {
  return useQuery({
    queryKey: coachKeys.cover,
    queryFn: ({ signal }) => api.get('/api/v1/admin/cover', { schema: coverList, signal }),
    enabled,
  });
}

/** POST /api/v1/admin/cover/:sessionId { coach_id }: the generated form response. */
export function assignSubstitute(sessionId: number, coachId: number | null) {
  return api.post(`/api/v1/admin/cover/${sessionId}`, { coach_id: coachId ?? '' }, { schema: formResponse });
}

/** Assigns and, when accepted, says so and reloads the cover list (the session leaves it). */
export function useAssignSubstitute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId, coachId }: { sessionId: number; coachId: number | null }) =>
      assignSubstitute(sessionId, coachId),
    onSuccess: (response) => {
      if (!response.valid) return;
      if (response.info)
        notifications.show({ title: response.info.title, message: response.info.message, color: 'teal' });
      void queryClient.invalidateQueries({ queryKey: coachKeys.cover });
    },
  });
}
