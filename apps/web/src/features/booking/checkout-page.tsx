import { Alert, Anchor, Box, Button, Card, Grid, Group, List, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { type BookingPageResponse, childrenErrors, decodeEventCode } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { useCallback, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAcl } from '../../api/acl';
import { type ParentChild, useParentChildren } from '../../api/children';
import { ApiError } from '../../api/client';
import { cancelStripeSession } from '../../api/stripe-session';
import { BookingHeader } from '../../components/booking-header';
import { leaveForUrl } from '../../components/browser-navigation';
import { CodeField } from '../../components/code-field';
import { PageLoader } from '../../components/page-loader';
import { ParentsOnly, scrollToTop } from '../../components/parents-only';
import { PriceLines } from '../../components/price-lines';
import { type CardPayment, StripeCheckoutModal } from '../../components/stripe-checkout-modal';
import { TermsCard } from '../../components/terms-card';
import { useBookingPage } from './api/booking-page';
import { useChargesSummary } from './api/charges-summary';
import { postEventCheckout } from './api/checkout';
import { type EventInsurances, useEventInsurances } from './api/insurances';
import { usePaymentTerms } from './api/payment-terms';
import { bookingPath, successPath } from './booking-links';
import { type ChildForm, checkoutBody, initialChildren, toCheckoutChild } from './checkout-form';
import { clearCheckout, loadCheckout, type StoredCheckout } from './checkout-storage';
import { BookingSummary } from './components/booking-summary';
import { ChildFields } from './components/child-fields';

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
  const [coupon, setCoupon] = useState('');
  const [voucher, setVoucher] = useState('');
  const [applied, setApplied] = useState<{ coupon: string; voucher: string }>({ coupon: '', voucher: '' });
  const [accepted, setAccepted] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [payment, setPayment] = useState<CardPayment | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

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
  const couponError = pricing?.errors.invalid_coupon_code_message;
  const voucherError = pricing?.errors.invalid_nsw_coupon_code_message;

  function updateRow(index: number, row: ChildForm) {
    setRows((previous) => previous.map((current, i) => (i === index ? row : current)));
  }

  function showErrors(list: string[]) {
    setErrors(list);
    scrollToTop();
  }

  const finish = useCallback(() => {
    clearCheckout();
    navigate(successPath(authhash));
  }, [authhash, navigate]);

  async function confirm() {
    setNotice(null);
    const children = rows.map((row) => toCheckoutChild(row, hasBooked));
    const problems = childrenErrors(children, hasBooked);
    if (!accepted) problems.push(messages.acceptTerms);
    if (problems.length > 0) {
      showErrors(problems);
      return;
    }
    setErrors([]);
    setSubmitting(true);
    try {
      const answer = await postEventCheckout(
        authhash,
        checkoutBody({
          eventId: event.id,
          quantity: stored.quantity,
          booked: stored.booked,
          waiting: stored.waiting,
          children,
          pricing,
        }),
      );
      if (answer.client_secret && answer.public_key && answer.sessionId) {
        setPayment({
          publicKey: answer.public_key,
          clientSecret: answer.client_secret,
          sessionId: answer.sessionId,
        });
      } else if (answer.valid && answer.payment_link) {
        leaveForUrl(answer.payment_link);
      } else if (answer.valid) {
        finish();
      } else {
        showErrors([messages.checkoutInvalid]);
      }
    } catch (error) {
      showErrors([(error instanceof ApiError && error.serverMessage) || messages.checkoutFailed]);
    } finally {
      setSubmitting(false);
    }
  }

  function closeCardPayment(closing: CardPayment) {
    setPayment(null);
    setNotice('Payment cancelled. Your places are no longer held; confirm again to pay.');
    // Expires the Checkout Session and releases the held places; a failure leaves the hold to time out.
    cancelStripeSession(closing.sessionId).catch(() => undefined);
  }

  return (
    <Box>
      <BookingHeader company={company} />
      <Group justify="space-between" align="flex-end" mb="md" gap="xs">
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          Checkout
        </Title>
        <Anchor component={Link} to={bookingPath(authhash, b)} size="sm">
          Change sessions
        </Anchor>
      </Group>

      {errors.length > 0 ? (
        <Alert color="red" role="alert" mb="md">
          {errors.length === 1 ? (
            errors[0]
          ) : (
            <List size="sm" spacing={2}>
              {errors.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      ) : null}
      {notice ? (
        <Alert color="orange" role="status" mb="md" withCloseButton onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Card>
              <Stack gap="md">
                <Title order={2} size="h4">
                  Children
                </Title>
                {rows.map((row, index) => (
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
              </Stack>
            </Card>

            {hasBooked ? (
              <Card>
                <Stack gap="md">
                  <Title order={2} size="h4">
                    Discounts
                  </Title>
                  <CodeField
                    label="Coupon code"
                    applyLabel="Apply coupon"
                    value={coupon}
                    onChange={setCoupon}
                    disabled={voucher.trim() !== ''}
                    error={applied.coupon ? couponError : undefined}
                    onApply={() => setApplied({ coupon: coupon.trim(), voucher: '' })}
                  />
                  <CodeField
                    label="NSW voucher"
                    applyLabel="Apply voucher"
                    value={voucher}
                    onChange={setVoucher}
                    disabled={coupon.trim() !== ''}
                    error={applied.voucher ? voucherError : undefined}
                    onApply={() => setApplied({ coupon: '', voucher: voucher.trim() })}
                  />
                </Stack>
              </Card>
            ) : null}

            <TermsCard
              loading={terms.isPending}
              html={terms.data?.content}
              accepted={accepted}
              onAcceptedChange={setAccepted}
            />
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card pos={{ md: 'sticky' }} top={16}>
            <Stack gap="md">
              <Title order={2} size="h4">
                Booking summary
              </Title>
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
              {charges.error ? (
                <Text size="sm" c="red" role="alert">
                  {(charges.error instanceof ApiError && charges.error.serverMessage) ||
                    messages.somethingWrongCalendar}
                </Text>
              ) : null}
              <Button
                size="md"
                fullWidth
                onClick={() => void confirm()}
                loading={submitting}
                disabled={charges.loading || (hasBooked && !pricing)}
              >
                {/* Only waitlisted days: nothing is paid, so the button says what happens. */}
                {hasBooked ? 'Confirm Payment' : 'Join the waitlist'}
              </Button>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>

      <StripeCheckoutModal payment={payment} onClose={closeCardPayment} onComplete={finish} />
    </Box>
  );
}
