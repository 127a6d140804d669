import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  childSearchResponse,
  classStudentsChange,
  classStudentsResponse,
  type EnrolRequest,
  type OfferRequest,
  type TransferRequest,
  type WithdrawRequest,
} from '@tumble/contracts/class-students';
import { api } from '../../api/client';

const base = (termClassId: number) => `/api/v1/admin/term-classes/${termClassId}/class-students`;
export const classStudentKeys = {
  list: (termClassId: number) => ['admin', 'class-students', termClassId] as const,
  children: (q: string) => ['admin', 'class-students', 'children', q] as const,
};

/** GET …/class-students: the class's children, places left and next session. */
export function useClassStudents(termClassId: number) {
  return useQuery({
    queryKey: classStudentKeys.list(termClassId),
    queryFn: ({ signal }) => api.get(base(termClassId), { schema: classStudentsResponse, signal }),
  });
}

/** GET /api/v1/admin/class-students/children?q=: the company's children by name. */
export function useChildSearch(q: string) {
  return useQuery({
    queryKey: classStudentKeys.children(q.trim()),
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/class-students/children', {
        schema: childSearchResponse,
        query: { q: q.trim() },
        signal,
      }),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}

type Change =
  | { kind: 'enrol'; body: EnrolRequest }
  | { kind: 'transfer'; body: TransferRequest }
  | { kind: 'withdraw'; body: WithdrawRequest }
  | { kind: 'offer'; body: OfferRequest };

/** One of the staff changes; every class's list (and the credits list) is read again afterwards. */
export function useClassStudentChange(termClassId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Change) =>
      api.post(
        change.kind === 'enrol' ? base(termClassId) : `${base(termClassId)}/${change.kind}`,
        change.body,
        {
          schema: classStudentsChange,
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
