import { useSyncExternalStore } from 'react';
import { api } from './client';

/** The current token (null when signed out); re-renders when it changes. */
export function useAuthToken(): string | null {
  return useSyncExternalStore(api.subscribe, api.getToken, api.getToken);
}

/** The remembered authhash of the parent's company, if any. */
export function useAuthHash(): string | null {
  return useSyncExternalStore(api.subscribe, api.getAuthHash, api.getAuthHash);
}
