import { Alert, Box, Center, Loader, Modal } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

/**
 * Stripe.js is always loaded from js.stripe.com, never bundled (Stripe's rule). `/v3/` is the
 * versionless release train, whose Embedded Checkout call is `initEmbeddedCheckout`; the versioned
 * trains from 2026-03-25.dahlia on renamed it `createEmbeddedCheckoutPage` (same options, same
 * instance). We call whichever the loaded script has, so moving this URL to a versioned train that
 * matches the server's pinned Stripe API version needs no other change.
 */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

interface EmbeddedCheckout {
  mount(target: HTMLElement | string): void;
  destroy(): void;
}
interface EmbeddedCheckoutOptions {
  fetchClientSecret: () => Promise<string>;
  onComplete?: () => void;
}
interface StripeClient {
  initEmbeddedCheckout?: (options: EmbeddedCheckoutOptions) => Promise<EmbeddedCheckout>;
  createEmbeddedCheckoutPage?: (options: EmbeddedCheckoutOptions) => Promise<EmbeddedCheckout>;
}
type StripeFactory = (publishableKey: string, options?: { stripeAccount?: string }) => StripeClient;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

let stripeJs: Promise<StripeFactory> | null = null;

/** Adds the Stripe.js script tag once and resolves with `window.Stripe`. */
export function loadStripeJs(): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  stripeJs ??= new Promise<StripeFactory>((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[src="${STRIPE_JS_URL}"]`);
    const script = existing ?? document.createElement('script');
    script.addEventListener('load', () => {
      if (window.Stripe) resolve(window.Stripe);
      else reject(new Error('Stripe.js did not load.'));
    });
    script.addEventListener('error', () => {
      stripeJs = null;
      reject(new Error('Stripe.js could not be loaded.'));
    });
    if (!existing) {
      script.src = STRIPE_JS_URL;
      script.async = true;
      document.head.appendChild(script);
    }
  });
  return stripeJs;
}

async function createEmbeddedCheckout(stripe: StripeClient, options: EmbeddedCheckoutOptions) {
  if (stripe.createEmbeddedCheckoutPage) return stripe.createEmbeddedCheckoutPage(options);
  if (stripe.initEmbeddedCheckout) return stripe.initEmbeddedCheckout(options);
  throw new Error('This version of Stripe.js has no Embedded Checkout.');
}

export interface CardPayment {
  publicKey: string;
  clientSecret: string;
  sessionId: string;
  /** A company's connected Stripe account (Stripe Connect): its sessions are only found through it. */
  stripeAccount?: string;
}

interface StripeCheckoutModalProps {
  /** The Checkout Session to show; null keeps the modal closed. */
  payment: CardPayment | null;
  /** The parent closed the card form (the caller expires the session). */
  onClose: (payment: CardPayment) => void;
  /** Stripe reports the payment complete (sessions created with redirect_on_completion: if_required). */
  onComplete: () => void;
}

/** Stripe Embedded Checkout in a modal: mounted when opened, destroyed when closed. */
export function StripeCheckoutModal({ payment, onClose, onComplete }: StripeCheckoutModalProps) {
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  // The latest callback, without re-creating the card form when the parent re-renders.
  const onCompleteRef = useRef(onComplete);
  onCompleteRef.current = onComplete;

  useEffect(() => {
    if (!container || !payment) return;
    let closed = false;
    let checkout: EmbeddedCheckout | null = null;
    setStatus('loading');
    (async () => {
      const Stripe = await loadStripeJs();
      const stripe = payment.stripeAccount
        ? Stripe(payment.publicKey, { stripeAccount: payment.stripeAccount })
        : Stripe(payment.publicKey);
      const created = await createEmbeddedCheckout(stripe, {
        fetchClientSecret: async () => payment.clientSecret,
        onComplete: () => onCompleteRef.current(),
      });
      // Stripe allows one embedded Checkout per page: one that arrives after closing goes at once.
      if (closed) {
        created.destroy();
        return;
      }
      checkout = created;
      created.mount(container);
      setStatus('ready');
    })().catch(() => {
      if (!closed) setStatus('failed');
    });
    return () => {
      closed = true;
      checkout?.destroy();
    };
  }, [container, payment]);

  return (
    <Modal
      opened={payment !== null}
      onClose={() => payment && onClose(payment)}
      title="Card payment"
      size="lg"
      fullScreen={false}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close card payment' }}
    >
      {status === 'loading' ? (
        <Center py="xl">
          <Loader aria-label="Loading card form" />
        </Center>
      ) : null}
      {status === 'failed' ? (
        <Alert color="red" role="alert">
          The card form could not be loaded. Please close this window and try again.
        </Alert>
      ) : null}
      <Box ref={setContainer} data-testid="stripe-checkout" mih={status === 'ready' ? 400 : 0} />
    </Modal>
  );
}
