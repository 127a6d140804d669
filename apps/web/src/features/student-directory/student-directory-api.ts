import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormResponse } from '@tumble/contracts/http';
import {
  type StudentDirectoryQuery,
  studentDirectoryResponse,
  studentProfileResponse,
} from '@tumble/contracts/student-directory';
import type { ChildProfileForm } from '@tumble/contracts/students';
import { api } from '../../api/client';

export const studentDirectoryKeys = {
  all: ['admin-students'] as const,
  list: (query: StudentDirectoryQuery) => ['admin-students', 'list', query] as const,
  child: (id: number) => ['admin-students', 'child', id] as const,
};

/** GET /api/v1/admin/students: one page of the company's children. */
export function useStudentDirectory(query: StudentDirectoryQuery) {
  const params = new URLSearchParams({ sort: query.sort, dir: query.dir, page: String(query.page) });
  if (query.q) params.set('q', query.q);
  return useQuery({
    queryKey: studentDirectoryKeys.list(query),
    queryFn: ({ signal }) =>
      api.get(`/api/v1/admin/students?${params}`, { schema: studentDirectoryResponse, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/v1/admin/students/:id: the child's screen; another company's child answers 404. */
export function useStudentProfile(id: number | null) {
  return useQuery({
    queryKey: studentDirectoryKeys.child(id ?? 0),
    queryFn: ({ signal }) =>
      api.get(`/api/v1/admin/students/${id}`, { schema: studentProfileResponse, signal }),
    enabled: id !== null,
    retry: false,
  });
}

/** POST /api/v1/admin/students/:id → generated form response. */
export function saveStudentProfile(id: number, body: ChildProfileForm): Promise<FormResponse> {
  return api.postForm(`/api/v1/admin/students/${id}`, body);
}
