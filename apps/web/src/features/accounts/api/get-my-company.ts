import { useQuery } from '@tanstack/react-query';
import { type CompanySettings, companySettings } from '@tumble/contracts/admin-accounts';
import { api } from '../../../api/client';
import { accountKeys } from './keys';

/** GET /api/v1/admin/my-company: the company's settings, authhash and logo. */
export function fetchMyCompany(signal?: AbortSignal): Promise<CompanySettings> {
  return api.get('/api/v1/admin/my-company', { schema: companySettings, signal });
}

export function useMyCompany() {
  return useQuery({ queryKey: accountKeys.myCompany, queryFn: ({ signal }) => fetchMyCompany(signal) });
}
