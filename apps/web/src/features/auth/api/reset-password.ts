import type { ResetPasswordRequest } from '@tumble/contracts/auth';
import type { FormResponse } from '@tumble/contracts/http';
import { api } from '../../../api/client';

/** POST /api/v1/auth/reset-password → generated form response. */
export function resetPassword(body: ResetPasswordRequest): Promise<FormResponse> {
  return api.postForm('/api/v1/auth/reset-password', body);
}
