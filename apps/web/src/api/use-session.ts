import { useSyncExternalStore } from 'react';
import { api, type UserMeta } from './client';

/** The current token (null when signed out); re-renders when it changes. */
export function useAuthToken(): string | null {
  return useSyncExternalStore(api.subscribe, api.getToken, api.getToken);
}

/** Who is signed in (role and company), as the last GET /rest/acl said; null when unknown. */
export function useUserMeta(): UserMeta | null {
  return useSyncExternalStore(api.subscribe, api.getUserMeta, api.getUserMeta);
}

/** The remembered authhash of the parent's company, if any. */
export function useAuthHash(): string | null {
  return useSyncExternalStore(api.subscribe, api.getAuthHash, api.getAuthHash);
}
