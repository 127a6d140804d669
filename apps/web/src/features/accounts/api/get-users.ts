import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { userList } from '@tumble/contracts/admin-accounts';
import type { z } from 'zod';
import { api } from '../../../api/client';
import { accountKeys } from './keys';

export const USERS_PER_PAGE = 25;

/** GET /api/v1/admin/users?page&perPage&q → { data, total }: the company's staff. */
export function fetchUsers(
  query: { page: number; q: string },
  signal?: AbortSignal,
): Promise<z.infer<typeof userList>> {
  return api.get('/api/v1/admin/users', {
    query: { page: query.page, perPage: USERS_PER_PAGE, q: query.q || undefined },
    schema: userList,
    signal,
  });
}

export function useUsers(query: { page: number; q: string }) {
  return useQuery({
    queryKey: accountKeys.userList(query),
    queryFn: ({ signal }) => fetchUsers(query, signal),
    placeholderData: keepPreviousData,
  });
}
