import { type ChargesResponse, chargesResponse } from '@tumble/contracts/booking';
import { useEffect, useRef, useState } from 'react';
import { api, type Query, VALIDATE_RESPONSES } from '../../../api/client';

export interface StudentInsurance {
  insurance_type?: 'daily_insurance' | 'full_insurance';
  insurance_ids?: number[];
}

/** The event form of GET /api/v1/calculate-charges-summary (SPEC.md point 7). */
export interface ChargesParams {
  authhash: string;
  eventId: number;
  quantity: number;
  /** Booked cells only; waitlisted cells are not charged. */
  booked: string[];
  couponCode?: string;
  nswCouponCode?: string;
  students?: StudentInsurance[];
}

/** The query string of SPEC.md point 7, with the `students[n][…]` keys its parser expects. */
export function chargesQuery(params: ChargesParams): Query {
  const query: Query = {
    authhash: params.authhash,
    event_id: params.eventId,
    quantity: params.quantity,
    booked: params.booked,
    type_of_registration: 'event',
  };
  // The two codes are mutually exclusive (SPEC.md point 5); a coupon wins if both slip through.
  if (params.couponCode) query.coupon_code = params.couponCode;
  else if (params.nswCouponCode) query.nsw_coupon_code = params.nswCouponCode;
  params.students?.forEach((student, index) => {
    if (student.insurance_type) query[`students[${index}][insurance_type]`] = student.insurance_type;
    if (student.insurance_ids?.length) query[`students[${index}][insurance_ids][]`] = student.insurance_ids;
  });
  return query;
}

export function fetchChargesSummary(params: ChargesParams, signal?: AbortSignal): Promise<ChargesResponse> {
  return api.get('/api/v1/calculate-charges-summary', {
    query: chargesQuery(params),
    schema: VALIDATE_RESPONSES ? chargesResponse : undefined,
    signal,
  });
}

export interface ChargesState {
  data: ChargesResponse | null;
  error: unknown;
  /** True while a calculation is in flight: checkout and payment wait for it. */
  loading: boolean;
}

/**
 * Recalculates whenever `params` (or `trigger`, for changes the query does not show) changes. A new
 * calculation aborts the one in flight (SPEC.md point 4), so a slow old answer never overwrites a
 * newer one. `params` null means there is nothing to price.
 */
export function useChargesSummary(params: ChargesParams | null, trigger = ''): ChargesState {
  const key = params ? `${JSON.stringify(chargesQuery(params))}#${trigger}` : null;
  const paramsRef = useRef(params);
  paramsRef.current = params;
  const [state, setState] = useState<ChargesState>({ data: null, error: null, loading: key !== null });

  useEffect(() => {
    const current = paramsRef.current;
    if (key === null || current === null) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ data: previous.data, error: null, loading: true }));
    fetchChargesSummary(current, controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ data: null, error, loading: false });
      },
    );
    return () => controller.abort();
  }, [key]);

  return state;
}
