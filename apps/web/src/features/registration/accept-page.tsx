import { Alert, Badge, Button, Card, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { HeldPlacesResponse } from '@tumble/contracts/class-waitlist';
import { messages } from '@tumble/contracts/messages';
import type { RegistrationFormResponse } from '@tumble/contracts/registration';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAcl } from '../../api/acl';
import { ApiError } from '../../api/client';
import { BookingHeader } from '../../components/booking-header';
import { PageLoader } from '../../components/page-loader';
import { ParentsOnly } from '../../components/parents-only';
import { PriceLines } from '../../components/price-lines';
import { CheckoutLayout } from '../checkout/checkout-layout';
import { type AppliedCodes, NO_CODES } from '../checkout/discount-codes';
import { useCardPayment } from '../checkout/use-card-payment';
import {
  heldSelection,
  postHoldCheckout,
  releaseHeldPlaces,
  useHeldPlaces,
  useHoldQuote,
  useRegistrationForm,
} from './accept-api';
import { RegistrationConfirmation } from './registration-confirmation';

/**
 * /registration/accept/?token=<hold token>&authhash (issue 14): a signed-in parent takes up the
 * places held for them (a waitlist offer, a trial's "Enrol" link, a rollover confirmation) and pays
 * through the one enrolment checkout with the hold's token, or says "No thanks" (`&decline=1`, the
 * mail's decline link) and the places go to the next family.
 */
export function AcceptPage() {
  return (
    <ParentsOnly>
      {(authhash, params) =>
        // Back from a card page: paid (the enrolment's confirmation), or cancelled (the place is
        // still held: the link shows it again with a notice).
        params.get('status') === 'true' ? (
          <RegistrationConfirmation f={params.get('f') ?? ''} authhash={authhash} />
        ) : (
          <AcceptLoader
            authhash={authhash}
            token={params.get('token') ?? ''}
            decline={params.get('decline') === '1'}
            cancelled={params.get('status') === 'cancelled'}
          />
        )
      }
    </ParentsOnly>
  );
}

const HELD_FOR: Record<string, string> = {
  offer: 'A place has come up',
  trial_conversion: 'Enrol after your trial',
  rollover: 'Confirm your place for next term',
};

/** The heading of a link that cannot be paid through now. */
const CLOSED_TITLE = {
  open: 'This place is no longer held',
  taken: 'Already yours',
  paying: 'Payment in progress',
  closed: 'This place is no longer held',
} as const;

export function acceptPath(authhash: string, token: string, decline = false) {
  const query = new URLSearchParams({ token, authhash });
  if (decline) query.set('decline', '1');
  return `/registration/accept/?${query}`;
}

/** Said when a payment for the held places was cancelled: they stay held until their own deadline. */
export function stillHeldNotice(hold: HeldPlacesResponse) {
  const until = hold.expires_display ?? 'the time shown';
  return `Payment cancelled. Your ${hold.places.length > 1 ? 'places are' : 'place is'} still held for you until ${until}; confirm again to pay.`;
}

function AcceptLoader({
  authhash,
  token,
  decline,
  cancelled,
}: {
  authhash: string;
  token: string;
  decline: boolean;
  cancelled: boolean;
}) {
  const hold = useHeldPlaces(authhash, token);
  const form = useRegistrationForm(authhash, hold.data?.form_key ?? null);
  useDocumentTitle(decline ? 'No thanks' : 'Take up your place');
  // Branding (also when the link is closed), and the signed-in parent's meta for the 403 rule.
  const acl = useAcl(authhash || undefined);
  const company = acl.data ? { name: acl.data.meta.company_name ?? '', logo: acl.data.meta.logo } : undefined;
  const header = <BookingHeader company={company} loading={acl.isLoading} />;

  if (hold.isPending || (hold.data?.form_key && form.isPending)) return <PageLoader />;
  if (hold.isError || !hold.data || hold.data.status !== 'open') {
    const message =
      hold.data?.message ??
      (hold.error instanceof ApiError ? hold.error.serverMessage : null) ??
      messages.formLoadFailed;
    return (
      <Closed header={header} title={CLOSED_TITLE[hold.data?.status ?? 'closed']}>
        {message}
      </Closed>
    );
  }
  if (decline) return <Decline authhash={authhash} token={token} hold={hold.data} header={header} />;
  if (!hold.data.form_key || !form.data) {
    return (
      <Closed header={header} title="Please contact us">
        We could not find the registration form to pay for this place through. Please contact us to enrol.
      </Closed>
    );
  }
  return (
    <Accept
      authhash={authhash}
      token={token}
      hold={hold.data}
      form={form.data}
      header={header}
      cancelled={cancelled}
    />
  );
}

function Closed({
  header,
  title,
  children,
  color = 'orange',
}: {
  header: ReactNode;
  title: string;
  children: ReactNode;
  /** Orange: the link cannot be used; teal: done as asked. */
  color?: 'orange' | 'teal';
}) {
  return (
    <>
      {header}
      <Card maw={560} mx="auto">
        <Stack>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {title}
          </Title>
          <Alert color={color} role={color === 'orange' ? 'alert' : 'status'}>
            {children}
          </Alert>
        </Stack>
      </Card>
    </>
  );
}

/** The held places: child, class, day and time, first session; and until when they are held. */
function HeldPlaces({ hold }: { hold: HeldPlacesResponse }) {
  return (
    <Stack gap="sm">
      {hold.places.map((place) => (
        <Paper
          key={place.enrolment_id}
          withBorder
          p="sm"
          radius="md"
          component="article"
          aria-label={place.child_name}
        >
          <Stack gap={2}>
            <Group justify="space-between" gap="xs">
              <Text fw={600}>{place.child_name}</Text>
              <Badge variant="light">Held</Badge>
            </Group>
            <Text size="sm">{place.class_name}</Text>
            <Text size="sm" c="dimmed">
              {place.when}
            </Text>
            <Text size="sm">First session: {place.first_session}</Text>
          </Stack>
        </Paper>
      ))}
      {hold.expires_display ? (
        <Text size="sm" data-testid="hold-expiry">
          Held for you until <strong>{hold.expires_display}</strong>.
        </Text>
      ) : null}
    </Stack>
  );
}

interface AcceptProps {
  authhash: string;
  token: string;
  hold: HeldPlacesResponse;
  form: RegistrationFormResponse;
  header: ReactNode;
  /** Back from a card page whose payment was cancelled. */
  cancelled: boolean;
}

function Accept({ authhash, token, hold, form, header, cancelled }: AcceptProps) {
  const navigate = useNavigate();
  const [applied, setApplied] = useState<AppliedCodes>(NO_CODES);
  const [accepted, setAccepted] = useState(false);
  const childIds = useMemo(() => [...new Set(hold.places.map((p) => p.child_id))], [hold]);
  const [answers, setAnswers] = useState<Record<string, string>[]>(() => childIds.map(() => ({})));
  // Priced on load and when a code is applied. Answers do not change the price and are checked at
  // checkout, so the quote stands in for the ones still to be given.
  const priceSelection = useMemo(() => {
    const given = Object.fromEntries(form.form.questions.map((q) => [q.key, '-']));
    return heldSelection(
      hold,
      childIds.map(() => given),
      applied,
      token,
    );
  }, [hold, childIds, form.form.questions, applied, token]);
  const quote = useHoldQuote(authhash, priceSelection);
  const pricing = quote.isPlaceholderData ? undefined : quote.data;
  const priced = pricing?.pricing_details.total !== undefined;

  const finish = useCallback(() => {
    navigate(`/registration/?${new URLSearchParams({ f: form.form.key, authhash, status: 'true' })}`);
  }, [authhash, form.form.key, navigate]);

  const problems: string[] = [];
  for (const [i, id] of childIds.entries()) {
    const name = hold.places.find((p) => p.child_id === id)?.child_name ?? '';
    for (const q of form.form.questions)
      if (q.required && !answers[i]?.[q.key]?.trim())
        problems.push(`Please answer "${q.label}" for ${name}.`);
  }
  if (!accepted) problems.push(messages.acceptTerms);
  const step = useCardPayment({
    problems,
    finish,
    cancelledNotice: stillHeldNotice(hold),
    send: () =>
      pricing
        ? postHoldCheckout(authhash, {
            ...heldSelection(hold, answers, applied, token),
            accept_terms: true,
            amount: pricing.amount_due,
          })
        : null,
  });

  return (
    <CheckoutLayout
      header={header}
      title={HELD_FOR[hold.held_for ?? ''] ?? 'Take up your place'}
      change={{ to: acceptPath(authhash, token, true), label: 'No thanks' }}
      step={step}
      onComplete={finish}
      childrenTitle={hold.places.length > 1 ? 'Your held places' : 'Your held place'}
      childrenForm={
        <Stack gap="md">
          {cancelled && !step.notice ? (
            <Alert color="blue" role="status" data-testid="payment-cancelled">
              {stillHeldNotice(hold)}
            </Alert>
          ) : null}
          <HeldPlaces hold={hold} />
          {form.form.questions.length > 0
            ? childIds.map((id, i) => (
                <Questions
                  key={id}
                  name={hold.places.find((p) => p.child_id === id)?.child_name ?? ''}
                  questions={form.form.questions}
                  value={answers[i] ?? {}}
                  onChange={(value) => setAnswers((all) => all.map((a, j) => (j === i ? value : a)))}
                />
              ))
            : null}
        </Stack>
      }
      discounts={{ applied, onApply: setApplied, pricing }}
      terms={{
        loading: false,
        html: form.form.payment_terms,
        accepted,
        onAcceptedChange: setAccepted,
      }}
      summaryTitle="Price"
      summary={<PriceLines pricing={pricing ?? null} loading={quote.isFetching} highlight="total" />}
      priceError={
        quote.isError || (pricing && !priced)
          ? (quote.error instanceof ApiError && quote.error.serverMessage) || messages.checkoutFailed
          : null
      }
      confirmLabel="Pay and enrol"
      confirmDisabled={quote.isFetching || !priced}
    />
  );
}

function Questions(props: {
  name: string;
  questions: RegistrationFormResponse['form']['questions'];
  value: Record<string, string>;
  onChange: (value: Record<string, string>) => void;
}) {
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label={`Questions about ${props.name}`}>
      <Stack gap="xs">
        <Text fw={600}>About {props.name}</Text>
        {props.questions.map((q) => (
          <TextInput
            key={q.key}
            label={q.label}
            required={q.required}
            value={props.value[q.key] ?? ''}
            onChange={(event) => props.onChange({ ...props.value, [q.key]: event.currentTarget.value })}
          />
        ))}
      </Stack>
    </Paper>
  );
}

function Decline(props: { authhash: string; token: string; hold: HeldPlacesResponse; header: ReactNode }) {
  const [state, setState] = useState<'asking' | 'sending' | 'done'>('asking');
  const [error, setError] = useState<string | null>(null);

  async function release() {
    setState('sending');
    setError(null);
    try {
      await releaseHeldPlaces(props.authhash, props.token);
      setState('done');
    } catch (caught) {
      setError((caught instanceof ApiError && caught.serverMessage) || messages.checkoutFailed);
      setState('asking');
    }
  }

  if (state === 'done') {
    return (
      <Closed header={props.header} title="Place released" color="teal">
        Thank you for letting us know: the place goes to the next family waiting.
      </Closed>
    );
  }
  return (
    <>
      {props.header}
      <Card maw={560} mx="auto">
        <Stack>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            Release this place?
          </Title>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <HeldPlaces hold={props.hold} />
          <Text size="sm">
            If you no longer need it, the next family waiting is offered it straight away.
          </Text>
          <Stack gap="sm">
            <Button color="red" fullWidth onClick={release} loading={state === 'sending'}>
              No thanks, release it
            </Button>
            <Button variant="default" fullWidth component={Link} to={acceptPath(props.authhash, props.token)}>
              Keep the place
            </Button>
          </Stack>
        </Stack>
      </Card>
    </>
  );
}
