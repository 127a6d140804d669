import type { ForgottenPasswordRequest } from '@tumble/contracts/auth';
import { errorResponse } from '@tumble/contracts/http';
import { api } from '../../../api/client';

/** POST /api/v1/auth/forgotten-password → { message } to show as is. */
export async function requestPasswordReset(body: ForgottenPasswordRequest): Promise<string> {
  const answer = await api.post('/api/v1/auth/forgotten-password', body, { schema: errorResponse });
  return answer.message;
}
