import { useQuery } from '@tanstack/react-query';
import { enabledModulesResponse } from '@tumble/contracts/platform';
import { api } from '../../api/client';

export const modulesKeys = { enabled: ['modules', 'enabled'] as const, admin: ['admin', 'modules'] as const };

/** The signed-in user's company's modules and the pages of the ones it does not have. */
export function useEnabledModules(enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: modulesKeys.enabled,
    queryFn: ({ signal }) => api.get('/api/v1/modules', { schema: enabledModulesResponse, signal }),
    staleTime: 60_000,
  });
}

/** A page of a module the company does not have: shown as not found, as its API answers 404. */
export function isHiddenPage(pathname: string, hidden: readonly string[]): boolean {
  return hidden.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}
