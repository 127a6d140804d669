import type { MyAccountUpdate } from '@tumble/contracts/admin-accounts';
import type { FormResponse } from '@tumble/contracts/http';
import { api } from '../../../api/client';

/** POST /api/v1/admin/my-account → generated form response. A new password needs the current one. */
export function updateMyAccount(body: MyAccountUpdate): Promise<FormResponse> {
  return api.postForm('/api/v1/admin/my-account', body);
}
