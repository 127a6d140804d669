import type { UserCreate } from '@tumble/contracts/admin-accounts';
import type { FormResponse } from '@tumble/contracts/http';
import { api } from '../../../api/client';

/** POST /api/v1/admin/users → generated form response; the new user gets an invitation mail. */
export function inviteUser(body: UserCreate): Promise<FormResponse> {
  return api.postForm('/api/v1/admin/users', body);
}
