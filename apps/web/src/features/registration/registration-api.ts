import { queryOptions, useQuery } from '@tanstack/react-query';
import { type CheckoutResponse, checkoutResponse } from '@tumble/contracts/booking';
import {
  CHILDREN_MAX,
  CHOICES_MAX,
  classFinderResponse,
  type EnrolmentCheckoutRequest,
  type EnrolmentQuoteRequest,
  type EnrolmentQuoteResponse,
  enrolmentPurchaseResponse,
  enrolmentQuoteResponse,
  myEnrolmentsResponse,
  registrationFormResponse,
} from '@tumble/contracts/registration';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { api } from '../../api/client';
import { bootstrappedRegistrationForm } from '../../components/server-shell';

/** GET /api/v1/registration/form: the form, its terms and the company. */
export function useRegistrationForm(f: string, authhash: string) {
  return useQuery(
    queryOptions({
      queryKey: ['registration', 'form', f, authhash],
      queryFn: ({ signal }) =>
        api.get('/api/v1/registration/form', {
          query: { f, authhash },
          schema: registrationFormResponse,
          signal,
        }),
      staleTime: 60_000,
      retry: false,
      // The answer the server drew the page's first HTML with (no second fetch on arrival).
      initialData: () => bootstrappedRegistrationForm(f, authhash),
    }),
  );
}

/** GET /api/v1/registration/classes: the class finder for one child's date of birth (live places). */
export function useClassFinder(f: string, authhash: string, dob: string | null) {
  return useQuery({
    queryKey: ['registration', 'classes', f, authhash, dob],
    queryFn: ({ signal }) =>
      api.get('/api/v1/registration/classes', {
        query: { f, authhash, dob: dob ?? '' },
        schema: classFinderResponse,
        signal,
      }),
    enabled: dob !== null,
    staleTime: 15_000,
  });
}

export interface QuoteState {
  data: EnrolmentQuoteResponse | null;
  error: unknown;
  loading: boolean;
}

/**
 * POST /api/v1/registration/quote whenever the selection changes; a newer one aborts the one in
 * flight so an old answer never overwrites a newer one. Null: nothing to price yet.
 */
export function useQuote(authhash: string, selection: EnrolmentQuoteRequest | null): QuoteState {
  const key = selection ? JSON.stringify(selection) : null;
  const ref = useRef(selection);
  ref.current = selection;
  const [state, setState] = useState<QuoteState>({ data: null, error: null, loading: key !== null });
  useEffect(() => {
    const current = ref.current;
    if (key === null || current === null) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ data: previous.data, error: null, loading: true }));
    api
      .post('/api/v1/registration/quote', current, {
        query: { authhash },
        schema: enrolmentQuoteResponse,
        signal: controller.signal,
      })
      .then(
        (data) => {
          if (!controller.signal.aborted) setState({ data, error: null, loading: false });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setState({ data: null, error, loading: false });
        },
      );
    return () => controller.abort();
  }, [key, authhash]);
  return state;
}

const REFERENCE_KEY = 'tumble.registration.reference';

/** The purchase in this page's memory too, when the browser refuses a frame storage (see below). */
let purchaseInMemory: string | null = null;

/** Remembers the purchase being paid, for the confirmation after the card page brings the parent back. */
export function rememberPurchase(reference: string) {
  purchaseInMemory = reference;
  try {
    sessionStorage.setItem(REFERENCE_KEY, reference);
  } catch {
    // Storage blocked: memory keeps it for a confirmation on this page (nothing to pay).
  }
}

export function rememberedPurchase(): string | null {
  try {
    return sessionStorage.getItem(REFERENCE_KEY) ?? purchaseInMemory;
  } catch {
    return purchaseInMemory;
  }
}

/** POST /api/v1/registration/checkout?authhash: holds the places and starts the payment. */
export async function postEnrolmentCheckout(
  authhash: string,
  body: EnrolmentCheckoutRequest,
): Promise<CheckoutResponse> {
  const answer = await api.post('/api/v1/registration/checkout', body, {
    query: { authhash },
    schema: checkoutResponse,
  });
  if (answer.booking_hash) rememberPurchase(answer.booking_hash);
  return answer;
}

/** GET /api/v1/registration/purchase: what a purchase bought (the confirmation). */
export function useEnrolmentPurchase(reference: string | null, authhash: string) {
  return useQuery({
    queryKey: ['registration', 'purchase', reference, authhash],
    queryFn: ({ signal }) =>
      api.get('/api/v1/registration/purchase', {
        query: { id: reference ?? '', authhash },
        schema: enrolmentPurchaseResponse,
        signal,
      }),
    enabled: reference !== null,
    retry: false,
  });
}

/** GET /api/v1/students/enrolments: the family's enrolment purchases. */
export function useMyEnrolments() {
  return useQuery({
    queryKey: ['students', 'enrolments'],
    queryFn: ({ signal }) => api.get('/api/v1/students/enrolments', { schema: myEnrolmentsResponse, signal }),
  });
}

const VISITOR_KEY = 'tumble.registration.visitor';

/** A class chosen on the page (for the quote, the checkout and the summary). */
export const chosenClass = z.object({
  termClassId: z.number().int().positive(),
  kind: z.enum(['enrolled', 'trial']),
  sessionId: z.number().int().positive().optional(),
  /** For the summary. */
  label: z.string().max(300),
  /** The finder's price in cents (a visitor's summary; the server quotes once signed in). */
  price: z.number().int().min(0),
});
export type ChosenClass = z.infer<typeof chosenClass>;

/** What a visitor chose before signing in: each child's date of birth and classes. */
const visitorChoices = z.object({
  f: z.string(),
  authhash: z.string(),
  children: z
    .array(z.object({ dob: z.string(), dobText: z.string(), picks: z.array(chosenClass).max(CHOICES_MAX) }))
    .max(CHILDREN_MAX),
});
export type VisitorChild = z.infer<typeof visitorChoices>['children'][number];

/**
 * The choices also kept in this page's memory: inside a provider's website the browser may refuse
 * the frame any storage (third-party storage blocked), and signing in inside the frame does not
 * reload the page, so memory carries them there (a reload in this tab still needs sessionStorage).
 */
let choicesInMemory: string | null = null;

/** Keeps a visitor's choices for the page they come back to after signing in (this tab only). */
export function saveVisitorChoices(f: string, authhash: string, children: VisitorChild[]) {
  choicesInMemory = JSON.stringify({ f, authhash, children });
  try {
    sessionStorage.setItem(VISITOR_KEY, choicesInMemory);
  } catch {
    // Storage blocked: memory alone keeps them.
  }
}

function storedChoices(): string | null {
  try {
    return sessionStorage.getItem(VISITOR_KEY) ?? choicesInMemory;
  } catch {
    return choicesInMemory;
  }
}

/** The choices kept for this form, or null. */
export function loadVisitorChoices(f: string, authhash: string): VisitorChild[] | null {
  try {
    const raw = storedChoices();
    const parsed = raw ? visitorChoices.safeParse(JSON.parse(raw)) : null;
    if (!parsed?.success || parsed.data.f !== f || parsed.data.authhash !== authhash) return null;
    return parsed.data.children;
  } catch {
    return null;
  }
}

export function clearVisitorChoices() {
  choicesInMemory = null;
  try {
    sessionStorage.removeItem(VISITOR_KEY);
  } catch {
    // Nothing kept when storage is blocked.
  }
}
