import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { outboxList } from '@tumble/contracts/admin-accounts';
import type { z } from 'zod';
import { api } from '../../../api/client';
import { accountKeys } from './keys';

export const MAIL_PER_PAGE = 25;

/** GET /api/v1/admin/mail?page&q → { data, total }: the outbox, newest first. */
export function fetchMail(
  query: { page: number; q: string },
  signal?: AbortSignal,
): Promise<z.infer<typeof outboxList>> {
  return api.get('/api/v1/admin/mail', {
    query: { page: query.page, perPage: MAIL_PER_PAGE, q: query.q || undefined },
    schema: outboxList,
    signal,
  });
}

export function useMail(query: { page: number; q: string }) {
  return useQuery({
    queryKey: accountKeys.mailList(query),
    queryFn: ({ signal }) => fetchMail(query, signal),
    placeholderData: keepPreviousData,
  });
}
