import {
  Alert,
  Box,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Stepper,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { BookingPageResponse } from '@tumble/contracts/booking';
import { decodeEventCode, QUANTITY_MAX, QUANTITY_MIN } from '@tumble/contracts/booking-codes';
import { messages } from '@tumble/contracts/messages';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAcl } from '../../api/acl';
import { ApiError, api } from '../../api/client';
import { useAuthToken } from '../../api/use-session';
import { BookingHeader } from '../../components/booking-header';
import { PageLoader } from '../../components/page-loader';
import { PaymentCancelledNotice } from '../../components/payment-cancelled-notice';
import { studentLoginPath } from '../../components/student-login-link';
import { SuccessCard } from '../../components/success-card';
import { useBookingPage } from './api/booking-page';
import { useChargesSummary } from './api/charges-summary';
import { useSessions } from './api/sessions';
import { checkoutPath, type HeldPlace, heldPlace } from './booking-links';
import { clearCheckout, saveCheckout } from './checkout-storage';
import { EventDetails } from './components/event-details';
import { SessionCalendar } from './components/session-calendar';
import { splitSelection } from './session-selection';

/** Three short steps fit one line on a 390px phone when the separators may shrink. */
const STEPPER_STYLES = { separator: { marginInline: 8, minWidth: 8 } };

const QUANTITIES = Array.from({ length: QUANTITY_MAX - QUANTITY_MIN + 1 }, (_, i) =>
  String(QUANTITY_MIN + i),
);

/**
 * /booking?e&b&authhash&status (SPEC.md point 2): event details, session choice, success. `e` is
 * the hex of `<company id>|<event id>`. `b` (the waitlist entry of an accepted invitation) needs
 * nothing here: the server finds the parent's invited places itself at checkout.
 */
export function BookingPage() {
  const [params] = useSearchParams();
  const authhash = params.get('authhash') ?? '';
  const e = params.get('e') ?? '';

  useEffect(() => {
    if (authhash) api.setAuthHash(authhash);
  }, [authhash]);

  if (params.get('status') === 'true') return <BookingSuccess authhash={authhash} />;
  return (
    <BookingSteps
      e={e}
      authhash={authhash}
      cancelled={params.get('status') === 'cancelled'}
      held={heldPlace(params)}
    />
  );
}

function NoEventData() {
  return (
    <Card maw={560} mx="auto">
      <Alert color="red" role="alert" title="Sorry!">
        {messages.noEventData}
      </Alert>
    </Card>
  );
}

interface BookingStepsProps {
  e: string;
  authhash: string;
  cancelled: boolean;
  /** The place an accepted invitation holds: straight to the sessions, that day chosen. */
  held: HeldPlace | undefined;
}

function BookingSteps({ e, authhash, cancelled, held }: BookingStepsProps) {
  const validCode = decodeEventCode(e) !== null && authhash !== '';
  const page = useBookingPage(e, authhash, { enabled: validCode });
  const [step, setStep] = useState(held ? 1 : 0);
  useDocumentTitle(page.data ? `${page.data.event.name} · Booking` : 'Booking');

  if (!validCode) return <NoEventData />;
  if (page.isPending) return <PageLoader />;
  if (page.isError) {
    if (page.error instanceof ApiError) return <NoEventData />;
    return (
      <Card maw={560} mx="auto">
        <Stack>
          <Alert color="red" role="alert">
            {page.error.message}
          </Alert>
          <Button variant="default" onClick={() => void page.refetch()}>
            Try again
          </Button>
        </Stack>
      </Card>
    );
  }

  const data = page.data;
  return (
    <Box>
      <BookingHeader company={data.company} />
      {cancelled ? <PaymentCancelledNotice /> : null}
      <Stepper
        active={step}
        onStepClick={(index) => index < step && setStep(index)}
        size="sm"
        wrap={false}
        styles={STEPPER_STYLES}
        mb="lg"
      >
        <Stepper.Step label="Event">
          <EventDetails event={data.event} bookable={data.bookable} onBookNow={() => setStep(1)} />
        </Stepper.Step>
        <Stepper.Step label="Sessions">
          <SessionPicker data={data} e={e} authhash={authhash} held={held} />
        </Stepper.Step>
        <Stepper.Step label="Done" />
      </Stepper>
    </Box>
  );
}

interface SessionPickerProps {
  data: BookingPageResponse;
  e: string;
  authhash: string;
  held?: HeldPlace | undefined;
}

/** Step 2: how many children, which session-days, the running total and Checkout. */
function SessionPicker({ data, e, authhash, held }: SessionPickerProps) {
  const { event, settings } = data;
  const sessions = useSessions(e, authhash);
  const token = useAuthToken();
  const navigate = useNavigate();
  const [quantity, setQuantity] = useState(() =>
    held ? Math.min(Math.max(held.places, QUANTITY_MIN), QUANTITY_MAX) : QUANTITY_MIN,
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(held ? [held.cell] : []));

  const days = sessions.data?.days ?? {};
  const { booked, waiting } = useMemo(
    () => splitSelection([...selected], sessions.data?.days ?? {}, quantity),
    [selected, sessions.data, quantity],
  );
  const charges = useChargesSummary(
    booked.length > 0 ? { authhash, eventId: event.id, quantity, booked } : null,
  );
  const chosen = booked.length + waiting.length;
  const total = charges.data?.pricing_details.total;

  function toggle(cell: string) {
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(cell)) next.delete(cell);
      else next.add(cell);
      return next;
    });
  }

  function changeQuantity(value: string) {
    setQuantity(Number(value));
    // SPEC.md point 2: changing the quantity clears the selected sessions.
    setSelected(new Set());
  }

  function checkout() {
    saveCheckout({
      event_id: event.id,
      event_name: event.name,
      quantity,
      booked,
      waiting,
      bookingFee: settings.booking_fee,
      pricing: charges.data
        ? {
            pricing_details: charges.data.pricing_details,
            additional_information: charges.data.additional_information,
          }
        : null,
      errors: charges.data?.errors ?? {},
    });
    const target = checkoutPath(authhash, e);
    navigate(token ? target : studentLoginPath(authhash, target));
  }

  if (sessions.isPending) return <PageLoader />;
  if (sessions.isError) {
    return (
      <Alert color="red" role="alert">
        {sessions.error instanceof ApiError ? messages.somethingWrongCalendar : sessions.error.message}
      </Alert>
    );
  }

  return (
    <Stack gap="md">
      <Card>
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
            <Box>
              <Title order={2} size="h3">
                {event.name}
              </Title>
              <Text size="sm" c="dimmed">
                Choose the days for your children. Full days can be waitlisted.
              </Text>
            </Box>
            <NativeSelect
              label="Number of children"
              data={QUANTITIES}
              value={String(quantity)}
              onChange={(event) => changeQuantity(event.currentTarget.value)}
              w={{ base: '100%', xs: 200 }}
            />
          </Group>
          <Group gap="md">
            <Legend color="teal" label="Bookable" />
            <Legend color="orange" label="Waitlist" />
            <Legend color="gray" label="Closed" />
          </Group>
        </Stack>
      </Card>

      {Object.keys(days).length === 0 ? (
        <Alert color="orange" role="status">
          {messages.noSessions}
        </Alert>
      ) : (
        <SessionCalendar
          eventId={event.id}
          startDate={event.start_date}
          endDate={event.end_date}
          days={days}
          quantity={quantity}
          currency={settings.currency}
          selected={selected}
          onToggle={toggle}
        />
      )}

      <Paper
        withBorder
        shadow="md"
        p="md"
        radius="md"
        pos="sticky"
        bottom={8}
        style={{ zIndex: 5 }}
        aria-label="Your selection"
        component="section"
      >
        <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
          <Box miw={0}>
            <Text size="sm" fw={600} data-testid="selection-summary">
              {chosen === 0
                ? 'No sessions selected yet.'
                : [
                    booked.length > 0 ? `${booked.length} to book` : null,
                    waiting.length > 0 ? `${waiting.length} on the waitlist` : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
            </Text>
            {charges.loading ? (
              <Group gap={6}>
                <Loader size="xs" />
                <Text size="sm" c="dimmed">
                  Calculating…
                </Text>
              </Group>
            ) : charges.error ? (
              <Text size="sm" c="red" role="alert">
                {charges.error instanceof ApiError
                  ? (charges.error.serverMessage ?? messages.somethingWrongCalendar)
                  : messages.somethingWrongCalendar}
              </Text>
            ) : total && booked.length > 0 ? (
              <Text size="lg" fw={700} data-testid="running-total">
                {`Total ${total.formatted}`}
              </Text>
            ) : null}
          </Box>
          {chosen > 0 && !charges.loading ? (
            <Button size="md" onClick={checkout} style={{ flexShrink: 0 }}>
              Checkout
            </Button>
          ) : null}
        </Group>
      </Paper>
    </Stack>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6}>
      <Box w={12} h={12} bg={`${color}.5`} style={{ borderRadius: 3 }} />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}

/** Step 3: 'Booking Successful!' (also where a paid checkout comes back with status=true). */
function BookingSuccess({ authhash }: { authhash: string }) {
  const acl = useAcl(authhash || undefined, { enabled: authhash !== '' });
  useDocumentTitle(messages.bookingSuccessful);

  useEffect(() => {
    // The booking is placed; its checkout data must not be paid for twice.
    clearCheckout();
  }, []);

  return (
    <Box>
      <BookingHeader
        company={acl.data ? { name: acl.data.meta.company_name ?? '', logo: acl.data.meta.logo } : undefined}
        loading={acl.isLoading}
      />
      <Stepper active={3} size="sm" wrap={false} styles={STEPPER_STYLES} mb="lg">
        <Stepper.Step label="Event" />
        <Stepper.Step label="Sessions" />
        <Stepper.Step label="Done" />
        <Stepper.Completed>
          <SuccessCard title={messages.bookingSuccessful}>
            Thank you! We have emailed your confirmation with the sessions booked. Waitlisted sessions are
            offered to you by email when a place frees up.
          </SuccessCard>
        </Stepper.Completed>
      </Stepper>
    </Box>
  );
}
