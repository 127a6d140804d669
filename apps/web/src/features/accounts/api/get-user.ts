import { useQuery } from '@tanstack/react-query';
import { type UserSummary, userSummary } from '@tumble/contracts/admin-accounts';
import { api } from '../../../api/client';
import { accountKeys } from './keys';

/** GET /api/v1/admin/users/:id. */
export function fetchUser(id: number, signal?: AbortSignal): Promise<UserSummary> {
  return api.get(`/api/v1/admin/users/${id}`, { schema: userSummary, signal });
}

export function useUser(id: number | null) {
  return useQuery({
    queryKey: accountKeys.user(id ?? 0),
    queryFn: ({ signal }) => fetchUser(id!, signal),
    enabled: id !== null,
    gcTime: 0,
  });
}
