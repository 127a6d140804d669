import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AclResponse, aclResponse } from '@tumble/contracts/auth';
import { api, VALIDATE_RESPONSES } from './client';

/**
 * GET /rest/acl: the user meta (name, role, company, navigation) of the signed-in user, or, with an
 * authhash, the public branding of that company. Shared by the layouts and the sign-in pages.
 */
export const aclKeys = {
  all: ['acl'] as const,
  byAuthHash: (authhash: string | undefined) => ['acl', authhash ?? null] as const,
};

export async function fetchAcl(authhash?: string, signal?: AbortSignal): Promise<AclResponse> {
  const acl = await api.get('/rest/acl', {
    query: { authhash },
    schema: VALIDATE_RESPONSES ? aclResponse : undefined,
    signal,
  });
  // The 403 rule needs the role and company of whoever is signed in.
  if (acl.meta.role) {
    api.setUserMeta({
      role: acl.meta.role,
      companyId: acl.meta.company_id,
      ...(acl.meta.currency ? { currency: acl.meta.currency } : {}),
    });
  }
  return acl;
}

export function aclQueryOptions(authhash?: string) {
  return queryOptions({
    queryKey: aclKeys.byAuthHash(authhash),
    queryFn: ({ signal }) => fetchAcl(authhash, signal),
    staleTime: 5 * 60_000,
  });
}

export function useAcl(authhash?: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...aclQueryOptions(authhash), enabled: options.enabled ?? true });
}
