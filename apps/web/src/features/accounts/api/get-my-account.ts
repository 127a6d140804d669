import { useQuery } from '@tanstack/react-query';
import { type MyAccount, myAccount } from '@tumble/contracts/admin-accounts';
import { api } from '../../../api/client';
import { accountKeys } from './keys';

/** GET /api/v1/admin/my-account: the signed-in user's profile. */
export function fetchMyAccount(signal?: AbortSignal): Promise<MyAccount> {
  return api.get('/api/v1/admin/my-account', { schema: myAccount, signal });
}

export function useMyAccount() {
  return useQuery({ queryKey: accountKeys.myAccount, queryFn: ({ signal }) => fetchMyAccount(signal) });
}
