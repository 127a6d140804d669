import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Divider,
  Grid,
  Group,
  List,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import { partyStudentError } from '@tumble/contracts/party';
import { type ReactNode, useCallback, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAcl } from '../../api/acl';
import { type ParentChild, useParentChildren } from '../../api/children';
import { ApiError } from '../../api/client';
import { cancelStripeSession } from '../../api/stripe-session';
import { BookingHeader } from '../../components/booking-header';
import { leaveForUrl } from '../../components/browser-navigation';
import { CodeField } from '../../components/code-field';
import { DateOfBirthInput } from '../../components/date-of-birth-input';
import { PageLoader } from '../../components/page-loader';
import { ParentsOnly, scrollToTop } from '../../components/parents-only';
import { PriceLines } from '../../components/price-lines';
import { type CardPayment, StripeCheckoutModal } from '../../components/stripe-checkout-modal';
import { TermsCard } from '../../components/terms-card';
import { postPartyCheckout } from './api/checkout';
import { usePartyCharges } from './api/party-charges';
import { usePartyPaymentTerms } from './api/payment-terms';
import { PartySummary } from './components/party-summary';
import { formatPartyTime } from './party-calendar';
import {
  initialPartyChild,
  NEW_CHILD,
  type PartyChildForm,
  partyCheckoutBody,
  toPartyStudent,
} from './party-checkout-form';
import { clearPartyCheckout, loadPartyCheckout, type StoredPartyCheckout } from './party-checkout-storage';
import { partyBookingPath } from './party-links';

/**
 * /birthday-party/booking/checkout/?authhash (SPEC.md point 2): signed-in parents only; the party
 * chosen comes from browser storage (SPEC.md point 3). Like the event checkout, with one child.
 */
export function PartyCheckoutPage() {
  return <ParentsOnly>{(authhash) => <CheckoutLoader authhash={authhash} />}</ParentsOnly>;
}

function CheckoutLoader({ authhash }: { authhash: string }) {
  const [stored] = useState(loadPartyCheckout);
  useDocumentTitle('Party checkout');
  // Branding, and the signed-in parent's meta for the 403 rule.
  const acl = useAcl(authhash || undefined);
  const children = useParentChildren({ enabled: stored !== null });
  const company = acl.data ? { name: acl.data.meta.company_name ?? '', logo: acl.data.meta.logo } : undefined;

  if (!stored) {
    return (
      <Box>
        <BookingHeader company={company} loading={acl.isLoading} />
        <Card maw={560} mx="auto">
          <Stack>
            <Alert color="orange" role="alert">
              We could not find the party you chose. Please choose a date again.
            </Alert>
            <Button component={Link} to={partyBookingPath(authhash)}>
              Back to booking
            </Button>
          </Stack>
        </Card>
      </Box>
    );
  }
  if (children.isPending) return <PageLoader />;
  if (children.isError) {
    return (
      <Card maw={560} mx="auto">
        <Alert color="red" role="alert">
          {children.error instanceof ApiError
            ? (children.error.serverMessage ?? messages.formLoadFailed)
            : children.error.message}
        </Alert>
      </Card>
    );
  }
  return (
    <CheckoutForm
      authhash={authhash}
      stored={stored}
      existing={children.data}
      header={<BookingHeader company={company} loading={acl.isLoading} />}
    />
  );
}

interface CheckoutFormProps {
  authhash: string;
  stored: StoredPartyCheckout;
  existing: ParentChild[];
  header: ReactNode;
}

function CheckoutForm({ authhash, stored, existing, header }: CheckoutFormProps) {
  const navigate = useNavigate();
  const terms = usePartyPaymentTerms(authhash);
  const [child, setChild] = useState<PartyChildForm>(() => initialPartyChild(existing.map((c) => c.id)));
  const [coupon, setCoupon] = useState('');
  const [voucher, setVoucher] = useState('');
  const [applied, setApplied] = useState<{ coupon: string; voucher: string }>({ coupon: '', voucher: '' });
  const [accepted, setAccepted] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [payment, setPayment] = useState<CardPayment | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // SPEC.md point 4: priced again on load and on coupon apply; a newer calculation aborts the older.
  const charges = usePartyCharges({
    authhash,
    date: stored.date,
    quantity: stored.quantity,
    couponCode: applied.coupon || undefined,
    nswCouponCode: applied.voucher || undefined,
  });
  const pricing = charges.isPlaceholderData ? undefined : charges.data;
  const priced = pricing?.pricing_details.amount_due !== undefined;
  const couponError = pricing?.errors.invalid_coupon_code_message;
  const voucherError = pricing?.errors.invalid_nsw_coupon_code_message;

  function showErrors(list: string[]) {
    setErrors(list);
    scrollToTop();
  }

  const finish = useCallback(() => {
    clearPartyCheckout();
    navigate(partyBookingPath(authhash, true));
  }, [authhash, navigate]);

  async function confirm() {
    setNotice(null);
    const problems: string[] = [];
    const childProblem = partyStudentError(toPartyStudent(child));
    if (childProblem) problems.push(childProblem);
    if (!accepted) problems.push(messages.acceptTerms);
    if (problems.length > 0) {
      showErrors(problems);
      return;
    }
    if (!pricing) return;
    setErrors([]);
    setSubmitting(true);
    try {
      const answer = await postPartyCheckout(authhash, partyCheckoutBody(stored, child, pricing));
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
    setNotice('Payment cancelled. The date is no longer held for you; confirm again to pay.');
    // Expires the Checkout Session and releases the held slot; a failure leaves the hold to time out.
    cancelStripeSession(closing.sessionId).catch(() => undefined);
  }

  return (
    <Box>
      {header}
      <Group justify="space-between" align="flex-end" mb="md" gap="xs">
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          Party checkout
        </Title>
        <Anchor component={Link} to={partyBookingPath(authhash)} size="sm">
          Change date or guests
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
                  Birthday child
                </Title>
                <ChildField child={child} existing={existing} onChange={setChild} />
              </Stack>
            </Card>

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

            <TermsCard
              loading={terms.isPending}
              html={terms.data?.payment_terms}
              accepted={accepted}
              onAcceptedChange={setAccepted}
            />
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card pos={{ md: 'sticky' }} top={16} component="section" aria-label="Party summary">
            <Stack gap="md">
              <Title order={2} size="h4">
                Party summary
              </Title>
              <PartySummary date={stored.date} time={formatPartyTime(stored.time)} guests={stored.quantity} />
              <Divider />
              <PriceLines pricing={pricing ?? null} loading={charges.isFetching} highlight="amount_due" />
              {charges.isError || (pricing && !priced) ? (
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
                disabled={charges.isFetching || !priced}
              >
                Confirm Payment
              </Button>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>

      <StripeCheckoutModal payment={payment} onClose={closeCardPayment} onComplete={finish} />
    </Box>
  );
}

interface ChildFieldProps {
  child: PartyChildForm;
  existing: ParentChild[];
  onChange: (child: PartyChildForm) => void;
}

/** One birthday child: picked from the parent's children, or a new one with name and date of birth. */
function ChildField({ child, existing, onChange }: ChildFieldProps) {
  const options = [
    ...existing.map((c) => ({ value: String(c.id), label: `${c.first_name} ${c.last_name}` })),
    { value: NEW_CHILD, label: 'New child' },
  ];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Birthday child">
      <Stack gap="sm">
        <NativeSelect
          label="Child"
          data={options}
          value={child.choice}
          onChange={(event) => onChange({ ...child, choice: event.currentTarget.value })}
        />
        {child.choice === NEW_CHILD ? (
          <>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <TextInput
                label="First name"
                value={child.first_name}
                onChange={(event) => onChange({ ...child, first_name: event.currentTarget.value })}
                autoComplete="off"
                maxLength={80}
              />
              <TextInput
                label="Last name"
                value={child.last_name}
                onChange={(event) => onChange({ ...child, last_name: event.currentTarget.value })}
                autoComplete="off"
                maxLength={80}
              />
            </SimpleGrid>
            <DateOfBirthInput
              dob={child.dob}
              dobText={child.dobText}
              onChange={(value) => onChange({ ...child, ...value })}
            />
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
