import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormResponse, formResponse } from '@tumble/contracts/http';
import {
  type MakeupOptionsResponse,
  type MyClassesResponse,
  makeupOptionsResponse,
  myClassesResponse,
} from '@tumble/contracts/makeups';
import { api } from '../../api/client';

/** Query keys of the parent's classes page. */
export const myClassesKeys = {
  all: ['students', 'classes'] as const,
  page: ['students', 'classes', 'page'] as const,
  options: (childId: number) => ['students', 'classes', 'makeup-options', childId] as const,
};

/** GET /api/v1/students/classes: per child, classes, upcoming sessions and the credit wallet. */
export function useMyClasses() {
  return useQuery({
    queryKey: myClassesKeys.page,
    queryFn: ({ signal }): Promise<MyClassesResponse> =>
      api.get('/api/v1/students/classes', { schema: myClassesResponse, signal }),
  });
}

/** GET /api/v1/students/classes/makeup-options: the sessions a child's credits can book. */
export function useMakeupOptions(childId: number | null) {
  return useQuery({
    queryKey: myClassesKeys.options(childId ?? 0),
    enabled: childId !== null,
    queryFn: ({ signal }): Promise<MakeupOptionsResponse> =>
      api.get('/api/v1/students/classes/makeup-options', {
        query: { child_id: childId },
        schema: makeupOptionsResponse,
        signal,
      }),
  });
}

/** One of the page's changes: an absence, its undo, a makeup booked or cancelled. */
export type ClassChange =
  | { kind: 'absent' | 'undo'; sessionId: number; childId: number }
  | { kind: 'book'; sessionId: number; childId: number }
  | { kind: 'cancel'; enrolmentId: number };

function post(change: ClassChange): Promise<FormResponse> {
  const options = { schema: formResponse };
  switch (change.kind) {
    case 'absent':
      return api.post(
        `/api/v1/students/classes/sessions/${change.sessionId}/absence`,
        { child_id: change.childId },
        options,
      );
    case 'undo':
      return api.post(
        `/api/v1/students/classes/sessions/${change.sessionId}/absence/undo`,
        { child_id: change.childId },
        options,
      );
    case 'book':
      return api.post(
        '/api/v1/students/classes/makeups',
        { child_id: change.childId, session_id: change.sessionId },
        options,
      );
    case 'cancel':
      return api.post(`/api/v1/students/classes/makeups/${change.enrolmentId}/cancel`, {}, options);
  }
}

/** Posts a change; the page and the makeup choices load again whatever the answer. */
export function useClassChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: post,
    onSettled: () => client.invalidateQueries({ queryKey: myClassesKeys.all }),
  });
}
