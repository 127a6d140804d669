import { Alert, Box, Button, Card, Divider, NativeSelect, Paper, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import { partyStudentError } from '@tumble/contracts/party';
import { type ReactNode, useCallback, useState } from 'react';
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
import { NewChildFields } from '../checkout/new-child-fields';
import { useCardPayment } from '../checkout/use-card-payment';
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
  const [applied, setApplied] = useState<AppliedCodes>(NO_CODES);
  const [accepted, setAccepted] = useState(false);

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

  const finish = useCallback(() => {
    clearPartyCheckout();
    navigate(partyBookingPath(authhash, true));
  }, [authhash, navigate]);

  const problems: string[] = [];
  const childProblem = partyStudentError(toPartyStudent(child));
  if (childProblem) problems.push(childProblem);
  if (!accepted) problems.push(messages.acceptTerms);
  const step = useCardPayment({
    problems,
    finish,
    cancelledNotice: 'Payment cancelled. The date is no longer held for you; confirm again to pay.',
    send: () => (pricing ? postPartyCheckout(authhash, partyCheckoutBody(stored, child, pricing)) : null),
  });

  return (
    <CheckoutLayout
      header={header}
      title="Party checkout"
      change={{ to: partyBookingPath(authhash), label: 'Change date or guests' }}
      step={step}
      onComplete={finish}
      childrenTitle="Birthday child"
      childrenForm={<ChildField child={child} existing={existing} onChange={setChild} />}
      discounts={{ applied, onApply: setApplied, pricing }}
      terms={{
        loading: terms.isPending,
        html: terms.data?.payment_terms,
        accepted,
        onAcceptedChange: setAccepted,
      }}
      summaryTitle="Party summary"
      summary={
        <>
          <PartySummary date={stored.date} time={formatPartyTime(stored.time)} guests={stored.quantity} />
          <Divider />
          <PriceLines pricing={pricing ?? null} loading={charges.isFetching} highlight="amount_due" />
        </>
      }
      priceError={
        charges.isError || (pricing && !priced)
          ? (charges.error instanceof ApiError && charges.error.serverMessage) ||
            messages.somethingWrongCalendar
          : null
      }
      confirmLabel="Confirm Payment"
      confirmDisabled={charges.isFetching || !priced}
    />
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
          <NewChildFields value={child} onChange={(change) => onChange({ ...child, ...change })} />
        ) : null}
      </Stack>
    </Paper>
  );
}
