import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FormResponse } from '@tumble/contracts/http';
import {
  type WaiverCheckResponse,
  type WaiverChildInfo,
  type WaiverKind,
  type WaiverMarkResponse,
  type WaiverPageResponse,
  type WaiverSubmitRequest,
  waiverCheckResponse,
  waiverChildInfo,
  waiverMarkResponse,
  waiverPageResponse,
  waiverPaths,
} from '@tumble/contracts/waiver';
import { ApiError, api } from '../../../api/client';

/** The calls of the public waiver pages (packages/contracts/src/waiver.ts describes the flow). */

export const waiverKeys = {
  page: (kind: WaiverKind, id: string, authhash: string) => ['waiver', kind, 'page', id, authhash] as const,
  check: (kind: WaiverKind, id: string, authhash: string, personId: number) =>
    ['waiver', kind, 'check', id, authhash, personId] as const,
  mark: (kind: WaiverKind, query: WaiverMarkParams) => ['waiver', kind, 'mark', query] as const,
  childInfo: (kind: WaiverKind, id: string, authhash: string, personId: number) =>
    ['waiver', kind, 'child-info', id, authhash, personId] as const,
};

/** GET …/waiver?id&authhash: the waiver, and who on the booking still has to sign it. */
export function waiverPageQuery(kind: WaiverKind, id: string, authhash: string) {
  return queryOptions({
    queryKey: waiverKeys.page(kind, id, authhash),
    queryFn: ({ signal }): Promise<WaiverPageResponse> =>
      api.get(waiverPaths[kind].api, { query: { id, authhash }, schema: waiverPageResponse, signal }),
    // Who has signed changes as the parent signs: never show an older list.
    staleTime: 0,
  });
}

export function useWaiverPage(kind: WaiverKind, id: string, authhash: string) {
  return useQuery(waiverPageQuery(kind, id, authhash));
}

/** POST …/waiver/check?authhash: has this person signed this waiver version before (for another booking)? */
export function waiverCheckQuery(kind: WaiverKind, id: string, authhash: string, personId: number) {
  return queryOptions({
    queryKey: waiverKeys.check(kind, id, authhash, personId),
    queryFn: ({ signal }): Promise<WaiverCheckResponse> =>
      api.post(
        `${waiverPaths[kind].api}/check`,
        { id, child_id: personId },
        { query: { authhash }, schema: waiverCheckResponse, signal },
      ),
    // Asked once per person and visit: the answer decides between the mark call and the form.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useWaiverCheck(kind: WaiverKind, id: string, authhash: string, personId: number) {
  return useQuery(waiverCheckQuery(kind, id, authhash, personId));
}

export interface WaiverMarkParams {
  authhash: string;
  /** The person the earlier waiver covers (a child's or a party guest's id). */
  guest_id: number;
  /** The page load's `hash`. */
  hash: string;
  /** The earlier waiver the check found. */
  waiver_id: number;
}

/** GET …/waiver/mark: the earlier waiver now covers this booking too. */
export function waiverMarkQuery(kind: WaiverKind, params: WaiverMarkParams) {
  return queryOptions({
    queryKey: waiverKeys.mark(kind, params),
    queryFn: ({ signal }): Promise<WaiverMarkResponse> =>
      api.get(`${waiverPaths[kind].api}/mark`, { query: { ...params }, schema: waiverMarkResponse, signal }),
    // It records something: once is enough, even if the page re-renders or regains focus.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Marks the earlier waiver used once `params` is known (the check found one). */
export function useWaiverMark(kind: WaiverKind, params: WaiverMarkParams | null) {
  return useQuery({
    ...waiverMarkQuery(kind, params ?? { authhash: '', guest_id: 0, hash: '', waiver_id: 0 }), // disabled below
    enabled: params !== null,
  });
}

/** GET …/waiver/child-info?id&authhash&child_id: what the form starts with. */
export function waiverChildInfoQuery(kind: WaiverKind, id: string, authhash: string, personId: number) {
  return queryOptions({
    queryKey: waiverKeys.childInfo(kind, id, authhash, personId),
    queryFn: ({ signal }): Promise<WaiverChildInfo> =>
      api.get(`${waiverPaths[kind].api}/child-info`, {
        query: { id, authhash, child_id: personId },
        schema: waiverChildInfo,
        signal,
      }),
  });
}

export function useWaiverChildInfo(kind: WaiverKind, id: string, authhash: string, personId: number) {
  return useQuery(waiverChildInfoQuery(kind, id, authhash, personId));
}

/**
 * POST …/waiver?authhash: one person's signed waiver; answers the generated form response. A 4xx
 * answered as `{ message }` (the server's own check of the request, an unknown booking) comes back as
 * a rejected form carrying that message, so the parent reads why; 5xx and network failures throw.
 */
export async function submitWaiver(
  kind: WaiverKind,
  authhash: string,
  body: WaiverSubmitRequest,
): Promise<FormResponse> {
  try {
    return await api.postForm(waiverPaths[kind].api, body, { query: { authhash } });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500 && error.serverMessage) {
      return { valid: false, error: { html_message: error.serverMessage, element: [] } };
    }
    throw error;
  }
}
