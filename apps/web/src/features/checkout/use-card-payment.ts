import type { CheckoutResponse } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { cancelStripeSession } from '../../api/stripe-session';
import { leaveForUrl } from '../../components/browser-navigation';
import { isFramed, leaveFrameFor } from '../../components/embedded-page';
import { scrollToTop } from '../../components/parents-only';
import type { CardPayment } from '../../components/stripe-checkout-modal';

interface CardPaymentOptions {
  /**
   * What is wrong with the form as it is now (SPEC.md's messages). Shown when the parent confirms;
   * after that each one disappears as soon as its cause is fixed (issue 21 point 5).
   */
  problems: string[];
  /** Posts the checkout; null when there is nothing to send yet (e.g. no price). */
  send: () => Promise<CheckoutResponse> | null;
  /** The purchase is done (nothing to pay, or the card form reported success). */
  finish: () => void;
  /** Shown when the parent closes the card form: what the cancelled payment released. */
  cancelledNotice: string;
}

/**
 * The payment step every checkout page takes (issue 20): check the form, post it, then follow the
 * server's answer: a client secret opens the embedded card form, a payment link leaves for the
 * provider's page, `valid` alone finishes, and closing the card form shows the cancel notice.
 * Inside a provider's website (a frame) the provider's page cannot show in place: it opens in the
 * whole window or a new tab (leaveFrameFor), and `paysElsewhere` holds its address for the
 * page to say where to finish paying.
 */
export function useCardPayment({ problems, send, finish, cancelledNotice }: CardPaymentOptions) {
  // The problems listed at the last Confirm; only those still present are shown.
  const [listed, setListed] = useState<string[]>([]);
  // The server's refusal of the last Confirm: it has no cause the page can watch, so it stays.
  const [refusal, setRefusal] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [payment, setPayment] = useState<CardPayment | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The payment page opened outside the frame (a new tab, or blocked): the parent finishes there.
  const [paysElsewhere, setPaysElsewhere] = useState<string | null>(null);

  const errors = [...listed.filter((problem) => problems.includes(problem)), ...(refusal ? [refusal] : [])];

  function refuse(message: string) {
    setRefusal(message);
    scrollToTop();
  }

  async function confirm() {
    setNotice(null);
    setRefusal(null);
    setPaysElsewhere(null);
    setListed(problems);
    if (problems.length > 0) {
      scrollToTop();
      return;
    }
    const sending = send();
    if (!sending) return;
    setSubmitting(true);
    try {
      const answer = await sending;
      if (answer.client_secret && answer.public_key && answer.sessionId) {
        setPayment({
          publicKey: answer.public_key,
          clientSecret: answer.client_secret,
          sessionId: answer.sessionId,
          ...(answer.stripe_account ? { stripeAccount: answer.stripe_account } : {}),
        });
      } else if (answer.valid && answer.payment_link) {
        if (!isFramed()) leaveForUrl(answer.payment_link);
        else if (leaveFrameFor(answer.payment_link) !== 'top') setPaysElsewhere(answer.payment_link);
      } else if (answer.valid) {
        finish();
      } else {
        refuse(messages.checkoutInvalid);
      }
    } catch (error) {
      refuse((error instanceof ApiError && error.serverMessage) || messages.checkoutFailed);
    } finally {
      setSubmitting(false);
    }
  }

  function closeCardPayment(closing: CardPayment) {
    setPayment(null);
    setNotice(cancelledNotice);
    // Expires the Checkout Session and releases what it held; a failure leaves the hold to time out.
    cancelStripeSession(closing.sessionId).catch(() => undefined);
  }

  return {
    errors,
    notice,
    dismissNotice: () => setNotice(null),
    paysElsewhere,
    submitting,
    confirm: () => void confirm(),
    payment,
    closeCardPayment,
  };
}

export type CardPaymentStep = ReturnType<typeof useCardPayment>;
