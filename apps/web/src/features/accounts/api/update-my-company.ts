import type { CompanySettingsUpdate } from '@tumble/contracts/admin-accounts';
import type { FormResponse } from '@tumble/contracts/http';
import { api } from '../../../api/client';

/** POST /api/v1/admin/my-company → generated form response. */
export function updateMyCompany(body: CompanySettingsUpdate): Promise<FormResponse> {
  return api.postForm('/api/v1/admin/my-company', body);
}
