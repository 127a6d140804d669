import { queryOptions, useQuery } from '@tanstack/react-query';
import { GUEST_ROWS } from '@tumble/contracts/party';
import { type FormDefinition, formDefinition } from '@tumble/contracts/resources';
import { api } from '../../../api/client';

/**
 * The guest list of a party booking. SPEC.md point 7 names GET /birthday-party/update-guest; the
 * server serves it under /api/v1 because the path without it is this SPA page.
 */
const GUEST_PATH = '/api/v1/birthday-party/update-guest';

export function guestFormQuery(id: string, authhash: string) {
  return queryOptions({
    queryKey: ['party', 'update-guest', id, authhash],
    queryFn: ({ signal }): Promise<FormDefinition> =>
      api.get(GUEST_PATH, { query: { id, count: GUEST_ROWS, authhash }, schema: formDefinition, signal }),
    // The saved list is what the form must show; never an older copy.
    staleTime: 0,
  });
}

export function useGuestForm(id: string, authhash: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...guestFormQuery(id, authhash), enabled: options.enabled ?? true });
}

/** POST the guest rows; answers the generated form response (valid, info, or error per field). */
export function postGuests(id: string, authhash: string, values: Record<string, string>) {
  return api.postForm(GUEST_PATH, values, { query: { id, authhash } });
}
