import { useQuery } from '@tanstack/react-query';
import type { FormResponse } from '@tumble/contracts/http';
import { type StudentChild, type StudentChildForm, studentChild } from '@tumble/contracts/students';
import { z } from 'zod';
import { api } from '../../../api/client';
import { studentKeys } from './keys';

const CHILDREN_PATH = '/api/v1/students/children';

/** GET /api/v1/students/children: every child of the signed-in parent, with consent and insurance. */
export function fetchStudentChildren(signal?: AbortSignal): Promise<StudentChild[]> {
  return api.get(CHILDREN_PATH, { schema: z.array(studentChild), signal });
}

export function useStudentChildren() {
  return useQuery({ queryKey: studentKeys.childList, queryFn: ({ signal }) => fetchStudentChildren(signal) });
}

/** GET /api/v1/students/children/:id; another parent's child answers 404. */
export function fetchStudentChild(id: number, signal?: AbortSignal): Promise<StudentChild> {
  return api.get(`${CHILDREN_PATH}/${id}`, { schema: studentChild, signal });
}

export function useStudentChild(id: number | null) {
  return useQuery({
    queryKey: studentKeys.child(id ?? 0),
    queryFn: ({ signal }) => fetchStudentChild(id!, signal),
    enabled: id !== null,
    // The form must start from the saved child, never an older copy.
    gcTime: 0,
  });
}

/** POST /api/v1/students/children (add, `id` null) or /children/:id (edit) → generated form response. */
export function saveStudentChild(id: number | null, body: StudentChildForm): Promise<FormResponse> {
  return api.postForm(id === null ? CHILDREN_PATH : `${CHILDREN_PATH}/${id}`, body);
}
