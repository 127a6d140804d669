import { useQuery } from '@tanstack/react-query';
import { outboxMail } from '@tumble/contracts/admin-accounts';
import type { z } from 'zod';
import { api } from '../../../api/client';
import { accountKeys } from './keys';

export type OutboxMail = z.infer<typeof outboxMail>;

/** GET /api/v1/admin/mail/:id: one mail with its text (and html, which the SPA never injects). */
export function fetchMailMessage(id: number, signal?: AbortSignal): Promise<OutboxMail> {
  return api.get(`/api/v1/admin/mail/${id}`, { schema: outboxMail, signal });
}

export function useMailMessage(id: number | null) {
  return useQuery({
    queryKey: accountKeys.mailMessage(id ?? 0),
    queryFn: ({ signal }) => fetchMailMessage(id!, signal),
    enabled: id !== null,
  });
}
