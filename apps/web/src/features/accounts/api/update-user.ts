import type { UserUpdate } from '@tumble/contracts/admin-accounts';
import type { FormResponse } from '@tumble/contracts/http';
import { api } from '../../../api/client';

/** POST /api/v1/admin/users/:id → generated form response. */
export function updateUser(id: number, body: UserUpdate): Promise<FormResponse> {
  return api.postForm(`/api/v1/admin/users/${id}`, body);
}
