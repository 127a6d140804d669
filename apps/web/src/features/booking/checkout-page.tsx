import { Alert, Button, Card, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { type BookingPageResponse, childrenErrors, decodeEventCode } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { useCallback, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAcl } from '../../api/acl';
import { type ParentChild, useParentChildren } from '../../api/children';
import { ApiError } from '../../api/client';
import { BookingHeader } from '../../components/booking-header';
import { PageLoader } from '../../components/page-loader';
import { ParentsOnly } from '../../components/parents-only';
import { PriceLines } from '../../components/price-lines';
import { CheckoutLayout } from '../checkout/checkout-layout';
import { type AppliedCodes, NO_CODES } from '../checkout/discount-codes';
import { useCardPayment } from '../checkout/use-card-payment';
import { useBookingPage } from './api/booking-page';
import { useChargesSummary } from './api/charges-summary';
import { postEventCheckout } from './api/checkout';
import { type EventInsurances, useEventInsurances } from './api/insurances';
import { usePaymentTerms } from './api/payment-terms';
import { bookingPath, successPath } from './booking-links';
import {
  type ChildForm,
  checkoutBody,
  initialChildren,
  insuranceRule,
  toCheckoutChild,
} from './checkout-form';
import { clearCheckout, type StoredCheckout } from './checkout-storage';
import { BookingSummary } from './components/booking-summary';
import { ChildFields } from './components/child-fields';
import { loadCheckout } from './stored-checkout';

/**
 * /booking/checkout?authhash&b (SPEC.md point 2): signed-in parents only; `b` is the event's `e`
 * code, the selection comes from browser storage (SPEC.md point 3).
 */
export function CheckoutPage() {
  return (
    <ParentsOnly>
      {(authhash, params) => <CheckoutLoader authhash={authhash} b={params.get('b') ?? ''} />}
    </ParentsOnly>
  );
}

function CheckoutLoader({ authhash, b }: { authhash: string; b: string }) {
  const [stored] = useState(loadCheckout);
  const code = decodeEventCode(b);
  const matches = stored !== null && code !== null && code.eventId === stored.event_id;
  useDocumentTitle('Checkout');
  // The signed-in user's meta lets the 403 rule send an expired parent back to their sign-in page.
  useAcl();
  const page = useBookingPage(b, authhash, { enabled: matches });
  const children = useParentChildren({ enabled: matches });
  const insurances = useEventInsurances(matches && stored.booked.length > 0 ? stored.event_id : undefined);

  if (!matches) {
    return (
      <Card maw={560} mx="auto">
        <Stack>
          <Alert color="orange" role="alert">
            We could not find the sessions you chose. Please choose them again.
          </Alert>
          {code ? (
            <Button component={Link} to={bookingPath(authhash, b)}>
              Back to booking
            </Button>
          ) : null}
        </Stack>
      </Card>
    );
  }
  const needsInsurance = stored.booked.length > 0;
  if (page.isPending || children.isPending || (needsInsurance && insurances.isPending)) return <PageLoader />;
  const failure = page.error ?? children.error ?? (needsInsurance ? insurances.error : null);
  if (failure || !page.data || !children.data) {
    return (
      <Card maw={560} mx="auto">
        <Alert color="red" role="alert">
          {failure instanceof ApiError
            ? (failure.serverMessage ?? messages.formLoadFailed)
            : (failure?.message ?? messages.formLoadFailed)}
        </Alert>
      </Card>
    );
  }
  return (
    <CheckoutForm
      authhash={authhash}
      b={b}
      stored={stored}
      page={page.data}
      existing={children.data}
      insurances={needsInsurance ? (insurances.data ?? null) : null}
    />
  );
}

interface CheckoutFormProps {
  authhash: string;
  b: string;
  stored: StoredCheckout;
  page: BookingPageResponse;
  existing: ParentChild[];
  /** Null when only waitlisted days are chosen (no insurance to pick). */
  insurances: EventInsurances | null;
}

function CheckoutForm({ authhash, b, stored, page, existing, insurances }: CheckoutFormProps) {
  const navigate = useNavigate();
  const { event, settings, company } = page;
  const hasBooked = stored.booked.length > 0;
  const terms = usePaymentTerms(event.id, authhash);

  const [rows, setRows] = useState<ChildForm[]>(() => initialChildren(stored.quantity, existing, insurances));
  const [applied, setApplied] = useState<AppliedCodes>(NO_CODES);
  const [accepted, setAccepted] = useState(false);

  // SPEC.md point 4: recalculated on load, on coupon apply, and when a child or insurance choice
  // changes; the hook aborts the calculation in flight when a newer one starts.
  const charges = useChargesSummary(
    hasBooked
      ? {
          authhash,
          eventId: event.id,
          quantity: stored.quantity,
          booked: stored.booked,
          couponCode: applied.coupon || undefined,
          nswCouponCode: applied.voucher || undefined,
          students: rows.map((row) => ({
            insurance_type: row.insurance_type || undefined,
            insurance_ids: row.insurance_type === 'full_insurance' ? row.insurance_ids : [],
          })),
        }
      : null,
    rows.map((row) => row.choice).join(','),
  );
  const pricing = charges.data;

  function updateRow(index: number, row: ChildForm) {
    setRows((previous) => previous.map((current, i) => (i === index ? row : current)));
  }

  const finish = useCallback(() => {
    clearCheckout();
    navigate(successPath(authhash));
  }, [authhash, navigate]);

  const children = rows.map((row) => toCheckoutChild(row, hasBooked));
  const problems = childrenErrors(children, hasBooked, insuranceRule(insurances));
  if (!accepted) problems.push(messages.acceptTerms);
  const step = useCardPayment({
    problems,
    finish,
    cancelledNotice: 'Payment cancelled. Your places are no longer held; confirm again to pay.',
    send: () =>
      postEventCheckout(
        authhash,
        checkoutBody({
          eventId: event.id,
          quantity: stored.quantity,
          booked: stored.booked,
          waiting: stored.waiting,
          children,
          pricing,
        }),
      ),
  });

  return (
    <CheckoutLayout
      header={<BookingHeader company={company} />}
      title="Checkout"
      change={{ to: bookingPath(authhash, b), label: 'Change sessions' }}
      step={step}
      onComplete={finish}
      childrenTitle="Children"
      childrenForm={rows.map((row, index) => (
        <ChildFields
          // Rows are positions (child 1, child 2…); they are never reordered.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          index={index}
          row={row}
          existing={existing}
          insurances={insurances}
          currency={settings.currency}
          onChange={(next) => updateRow(index, next)}
        />
      ))}
      discounts={hasBooked ? { applied, onApply: setApplied, pricing } : null}
      terms={{ loading: terms.isPending, html: terms.data?.content, accepted, onAcceptedChange: setAccepted }}
      summaryTitle="Booking summary"
      summary={
        <>
          <BookingSummary
            event={event}
            quantity={stored.quantity}
            booked={stored.booked}
            waiting={stored.waiting}
          />
          {hasBooked ? (
            <PriceLines pricing={pricing} loading={charges.loading} />
          ) : (
            <Text size="sm" c="dimmed">
              Only waitlisted sessions: nothing to pay now. We will email you when a place frees up.
            </Text>
          )}
        </>
      }
      priceError={
        charges.error
          ? (charges.error instanceof ApiError && charges.error.serverMessage) ||
            messages.somethingWrongCalendar
          : null
      }
      // Only waitlisted days: nothing is paid, so the button says what happens.
      confirmLabel={hasBooked ? 'Confirm Payment' : 'Join the waitlist'}
      confirmDisabled={charges.loading || (hasBooked && !pricing)}
    />
  );
}
