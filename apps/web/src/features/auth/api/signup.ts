import type { CompanySignupRequest, StudentSignupRequest } from '@tumble/contracts/auth';
import type { FormResponse } from '@tumble/contracts/http';
import { api } from '../../../api/client';

/** POST /api/v1/companies/signup → generated form response (info says to check the email). */
export function signUpCompany(body: CompanySignupRequest): Promise<FormResponse> {
  return api.postForm('/api/v1/companies/signup', body);
}

/** POST /api/v1/students/signup → generated form response. */
export function signUpStudent(body: StudentSignupRequest): Promise<FormResponse> {
  return api.postForm('/api/v1/students/signup', body);
}
