import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type CheckoutResponse, checkoutResponse } from '@tumble/contracts/booking';
import {
  type HeldPlacesResponse,
  heldPlacesResponse,
  type ReleaseHoldResponse,
  releaseHoldResponse,
} from '@tumble/contracts/class-waitlist';
import {
  type enrolmentCheckoutRequest,
  type enrolmentQuoteRequest,
  enrolmentQuoteResponse,
  registrationFormResponse,
} from '@tumble/contracts/registration';
import type { z } from 'zod';
import { api } from '../../api/client';
import { rememberPurchase } from './registration-api';

/** What is sent (defaults filled in by the server). */
type EnrolmentQuoteRequest = z.input<typeof enrolmentQuoteRequest>;
type EnrolmentCheckoutRequest = z.input<typeof enrolmentCheckoutRequest>;

/** GET /api/v1/registration/holds: the places the link holds for the signed-in parent. */
export function useHeldPlaces(authhash: string, token: string) {
  return useQuery({
    queryKey: ['registration', 'holds', authhash, token],
    queryFn: ({ signal }) =>
      api.get('/api/v1/registration/holds', {
        query: { authhash, token },
        schema: heldPlacesResponse,
        signal,
      }),
    retry: false,
  });
}

/** GET /api/v1/registration/form: the form the held places are paid through (terms, questions, brand). */
export function useRegistrationForm(authhash: string, form: string | null) {
  return useQuery({
    queryKey: ['registration', 'form', authhash, form],
    queryFn: ({ signal }) =>
      api.get('/api/v1/registration/form', {
        query: { authhash, f: form ?? '' },
        schema: registrationFormResponse,
        signal,
      }),
    enabled: Boolean(form),
    staleTime: 5 * 60_000,
  });
}

/** The selection that takes up every held place: each child in their held class, with the hold token. */
export function heldSelection(
  hold: HeldPlacesResponse,
  answers: Record<string, string>[],
  codes: { coupon: string; voucher: string },
  token: string,
): EnrolmentQuoteRequest {
  const childIds = [...new Set(hold.places.map((p) => p.child_id))];
  return {
    f: hold.form_key ?? '',
    children: childIds.map((id) => ({ id })),
    choices: hold.places.map((p) => ({
      child: childIds.indexOf(p.child_id),
      term_class_id: p.term_class_id,
      kind: 'enrolled' as const,
    })),
    answers: childIds.map((_, i) => answers[i] ?? {}),
    coupon_code: codes.coupon,
    nsw_coupon_code: codes.voucher,
    hold_token: token,
  };
}

/** POST /api/v1/registration/quote: the server's price of taking up the held places. */
export function useHoldQuote(authhash: string, selection: EnrolmentQuoteRequest | null) {
  return useQuery({
    queryKey: ['registration', 'quote', authhash, selection],
    queryFn: ({ signal }) =>
      api.post('/api/v1/registration/quote', selection, {
        query: { authhash },
        schema: enrolmentQuoteResponse,
        signal,
      }),
    enabled: selection !== null && selection.f !== '',
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** POST /api/v1/registration/checkout: the one enrolment checkout, with the hold token. */
export async function postHoldCheckout(
  authhash: string,
  body: EnrolmentCheckoutRequest,
): Promise<CheckoutResponse> {
  const answer = await api.post('/api/v1/registration/checkout', body, {
    query: { authhash },
    schema: checkoutResponse,
  });
  // The confirmation after the card form names it.
  if (answer.booking_hash) rememberPurchase(answer.booking_hash);
  return answer;
}

/** POST /api/v1/registration/holds/release: "No thanks". */
export function releaseHeldPlaces(authhash: string, token: string): Promise<ReleaseHoldResponse> {
  return api.post(
    '/api/v1/registration/holds/release',
    { token },
    { query: { authhash }, schema: releaseHoldResponse },
  );
}
