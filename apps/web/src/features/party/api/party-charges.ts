import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ChargesResponse, chargesResponse } from '@tumble/contracts/booking';
import { api, type Query } from '../../../api/client';

/** The party form of GET /api/v1/calculate-charges-summary (SPEC.md point 7). */
export interface PartyChargesParams {
  authhash: string;
  date: string;
  /** Guests. */
  quantity: number;
  couponCode?: string;
  nswCouponCode?: string;
}

export function partyChargesQueryString(params: PartyChargesParams): Query {
  const query: Query = {
    authhash: params.authhash,
    type_of_registration: 'party',
    date: params.date,
    quantity: params.quantity,
  };
  // The two codes are mutually exclusive (SPEC.md point 5); a coupon wins if both slip through.
  if (params.couponCode) query.coupon_code = params.couponCode;
  else if (params.nswCouponCode) query.nsw_coupon_code = params.nswCouponCode;
  return query;
}

export function partyChargesQuery(params: PartyChargesParams) {
  const query = partyChargesQueryString(params);
  return queryOptions({
    queryKey: ['party', 'charges', query],
    // The signal is handed to fetch, so TanStack Query aborts a calculation whose inputs changed
    // before it answered (SPEC.md point 4: an earlier in-flight calculation is aborted).
    queryFn: ({ signal }): Promise<ChargesResponse> =>
      api.get('/api/v1/calculate-charges-summary', { query, schema: chargesResponse, signal }),
    staleTime: 0,
  });
}

/** The price of a party; `params` null means there is nothing to price yet. */
export function usePartyCharges(params: PartyChargesParams | null) {
  return useQuery({
    ...partyChargesQuery(
      params ?? { authhash: '', date: '', quantity: 0 }, // never fetched: disabled below
    ),
    enabled: params !== null,
    // The last price stays visible (dimmed) while a new guest count is priced.
    placeholderData: keepPreviousData,
  });
}
