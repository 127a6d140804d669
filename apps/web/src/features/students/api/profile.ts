import { useQuery } from '@tanstack/react-query';
import type { FormResponse } from '@tumble/contracts/http';
import { type StudentProfile, studentProfile } from '@tumble/contracts/students';
import { api } from '../../../api/client';
import { studentKeys } from './keys';

const PROFILE_PATH = '/api/v1/students/profile';

/** GET /api/v1/students/profile: the signed-in parent's name, email and phone. */
export function fetchStudentProfile(signal?: AbortSignal): Promise<StudentProfile> {
  return api.get(PROFILE_PATH, { schema: studentProfile, signal });
}

export function useStudentProfile() {
  return useQuery({ queryKey: studentKeys.profile, queryFn: ({ signal }) => fetchStudentProfile(signal) });
}

/** POST /api/v1/students/profile → generated form response. */
export function updateStudentProfile(body: StudentProfile): Promise<FormResponse> {
  return api.postForm(PROFILE_PATH, body);
}
