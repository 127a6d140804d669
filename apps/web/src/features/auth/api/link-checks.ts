import { queryOptions } from '@tanstack/react-query';
import { type LinkCheckResult, linkCheckResponse } from '@tumble/contracts/auth';
import { api } from '../../../api/client';

/** SPEC.md point 4: GET with check=result answers 0 (invalid), 1 (valid) or 2 (timed out). */
async function checkLink(path: string, hashcode: string, signal: AbortSignal): Promise<LinkCheckResult> {
  const answer = await api.get(path, {
    query: { hashcode, check: 'result' },
    schema: linkCheckResponse,
    signal,
  });
  return answer.result;
}

export function resetLinkCheckQuery(hashcode: string) {
  return queryOptions({
    queryKey: ['auth', 'reset-password-link', hashcode],
    queryFn: ({ signal }) => checkLink('/api/v1/auth/reset-password', hashcode, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** A result of 1 means the server has confirmed the email address. */
export function activationLinkCheckQuery(hashcode: string) {
  return queryOptions({
    queryKey: ['auth', 'activation-link', hashcode],
    queryFn: ({ signal }) => checkLink('/api/v1/auth/activate', hashcode, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
