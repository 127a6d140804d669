import {
  Alert,
  Box,
  Button,
  Card,
  Divider,
  Grid,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAcl } from '../../api/acl';
import { ApiError, api } from '../../api/client';
import { useAuthToken } from '../../api/use-session';
import { BookingHeader } from '../../components/booking-header';
import { PaymentCancelledNotice } from '../../components/payment-cancelled-notice';
import { PriceLines } from '../../components/price-lines';
import { bootstrappedCompany } from '../../components/server-shell';
import { studentLoginPath } from '../../components/student-login-link';
import { SuccessCard } from '../../components/success-card';
import { usePartyCalendar } from './api/calendar';
import { usePartyCharges } from './api/party-charges';
import { type PartySlot, useSlotCapacity } from './api/slot-capacity';
import { PartyCalendar } from './components/party-calendar';
import { PartySummary } from './components/party-summary';
import { formatPartyTime, guestOptions, monthOf, tomorrow } from './party-calendar';
import { clearPartyCheckout, savePartyCheckout } from './party-checkout-storage';
import { partyCheckoutPath } from './party-links';

/**
 * /birthday-party/booking/?authhash&status (SPEC.md point 2): the party calendar, slot, guests and
 * the reservation summary; status=true is the end of a paid checkout ('Booking Successful!').
 */
export function PartyBookingPage() {
  const [params] = useSearchParams();
  const authhash = params.get('authhash') ?? '';
  const acl = useAcl(authhash || undefined, { enabled: authhash !== '' });

  useEffect(() => {
    if (authhash) api.setAuthHash(authhash);
  }, [authhash]);

  // Until /rest/acl answers, the branding the server drew the page's first HTML with (no skeleton flash).
  const company = acl.data
    ? { name: acl.data.meta.company_name ?? '', logo: acl.data.meta.logo }
    : bootstrappedCompany(authhash);
  return (
    <Box>
      <BookingHeader company={company} loading={acl.isLoading && !company} />
      {params.get('status') === 'cancelled' ? <PaymentCancelledNotice /> : null}
      {params.get('status') === 'true' ? <PartySuccess /> : <PartyPicker authhash={authhash} />}
    </Box>
  );
}

function PartySuccess() {
  useDocumentTitle(messages.bookingSuccessful);
  useEffect(() => {
    // The party is booked; its checkout data must not be paid for twice.
    clearPartyCheckout();
  }, []);
  return (
    <SuccessCard title={messages.bookingSuccessful}>
      Thank you! Your party is booked and your confirmation is on its way by email. You can add your guests
      with the link in that email; each guest's parent then gets the invitation.
    </SuccessCard>
  );
}

function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? messages.somethingWrongCalendar;
  return error instanceof Error ? error.message : messages.somethingWrongCalendar;
}

function PartyPicker({ authhash }: { authhash: string }) {
  useDocumentTitle('Book a birthday party');
  const token = useAuthToken();
  const navigate = useNavigate();
  const [minDate] = useState(() => tomorrow());
  const [month, setMonth] = useState(() => monthOf(minDate));
  const [date, setDate] = useState<string | null>(null);
  // null: the first free slot of the date (SPEC.md point 4: choosing a date selects the first slot).
  const [slotId, setSlotId] = useState<number | null>(null);
  const [guests, setGuests] = useState(1);

  const calendar = usePartyCalendar(authhash, Number(month.slice(0, 4)));
  const capacity = useSlotCapacity(authhash, date);
  const slots = capacity.data?.slots ?? [];
  const slot: PartySlot | undefined = slots.find((s) => s.id === slotId) ?? slots[0];
  const most = slot ? capacity.data?.capacity[String(slot.id)] : undefined;
  const charges = usePartyCharges(
    date && slot && capacity.data ? { authhash, date, quantity: guests } : null,
  );
  const pricing = charges.data;
  const priced =
    pricing?.pricing_details.total !== undefined && pricing.pricing_details.amount_due !== undefined;
  const calendarEmpty =
    calendar.data !== undefined && !calendar.isPlaceholderData && Object.keys(calendar.data).length === 0;

  function chooseDate(next: string) {
    setDate(next);
    setSlotId(null);
    setGuests(1);
  }

  function chooseSlot(id: number) {
    setSlotId(id);
    // SPEC.md point 4: changing slot resets guests to 1.
    setGuests(1);
  }

  const guestChoices = useMemo(() => guestOptions(most), [most]);

  function proceed() {
    if (!date || !slot || !pricing) return;
    savePartyCheckout({
      slot_id: slot.id,
      time: slot.time,
      date,
      quantity: guests,
      pricing: {
        pricing_details: pricing.pricing_details,
        additional_information: pricing.additional_information,
      },
    });
    const target = partyCheckoutPath(authhash);
    navigate(token ? target : studentLoginPath(authhash, target));
  }

  return (
    <Stack gap="lg">
      <Box>
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          Book a birthday party
        </Title>
        <Text c="dimmed" size="sm">
          Choose a date, a time and how many guests are coming.
        </Text>
      </Box>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card>
            <Stack gap="sm">
              <Title order={2} size="h4">
                1. Date
              </Title>
              {calendar.isError ? (
                <Alert color="red" role="alert">
                  {failureText(calendar.error)}
                </Alert>
              ) : calendarEmpty ? (
                <Alert color="red" role="alert">
                  {messages.somethingWrongCalendar}
                </Alert>
              ) : null}
              <PartyCalendar
                days={calendar.isPlaceholderData ? undefined : calendar.data}
                loading={calendar.isFetching && (calendar.isPlaceholderData || calendar.isPending)}
                month={month}
                onMonthChange={setMonth}
                minDate={minDate}
                value={date}
                onChange={chooseDate}
              />
            </Stack>
          </Card>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            {date ? (
              <Card>
                <Stack gap="md">
                  <Title order={2} size="h4">
                    2. Time and guests
                  </Title>
                  {capacity.isPending ? (
                    <Text size="sm" c="dimmed">
                      Loading party times…
                    </Text>
                  ) : capacity.isError ? (
                    <Alert color="red" role="alert">
                      {failureText(capacity.error)}
                    </Alert>
                  ) : slots.length === 0 ? (
                    <Alert color="orange" role="status">
                      All party times on this date have just been booked. Please choose another date.
                    </Alert>
                  ) : (
                    <>
                      <Radio.Group
                        label="Party time"
                        value={slot ? String(slot.id) : null}
                        onChange={(value) => chooseSlot(Number(value))}
                      >
                        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" mt="xs">
                          {slots.map((s) => (
                            <Radio.Card key={s.id} value={String(s.id)} p="sm" radius="md">
                              <Group wrap="nowrap" align="flex-start" gap="sm">
                                <Radio.Indicator />
                                <Box>
                                  <Text fw={700} size="sm">
                                    {s.name}
                                  </Text>
                                  <Text size="sm">{formatPartyTime(s.time, s.duration_minutes)}</Text>
                                  <Text size="xs" c="dimmed">
                                    {`Up to ${capacity.data?.capacity[String(s.id)] ?? 1} guests`}
                                  </Text>
                                </Box>
                              </Group>
                            </Radio.Card>
                          ))}
                        </SimpleGrid>
                      </Radio.Group>
                      <NativeSelect
                        label="Guests"
                        description={most ? `1 to ${most} guests for this time` : undefined}
                        data={guestChoices}
                        value={String(guests)}
                        onChange={(event) => setGuests(Number(event.currentTarget.value))}
                        w={{ base: '100%', xs: 220 }}
                      />
                    </>
                  )}
                </Stack>
              </Card>
            ) : null}
            <Card component="section" aria-label="Reservation summary">
              <Stack gap="md">
                <Title order={2} size="h4">
                  Reservation summary
                </Title>
                {date && slot ? (
                  <>
                    <PartySummary
                      date={date}
                      time={formatPartyTime(slot.time, slot.duration_minutes)}
                      slotName={slot.name}
                      guests={guests}
                    />
                    <Divider />
                    <PriceLines
                      pricing={pricing ?? null}
                      loading={charges.isFetching}
                      highlight="amount_due"
                    />
                    {charges.isError || (pricing && !priced) ? (
                      <Text size="sm" c="red" role="alert">
                        {messages.somethingWrongCalendar}
                      </Text>
                    ) : null}
                  </>
                ) : (
                  <Text size="sm" c="dimmed">
                    {date ? 'Choose a party time.' : 'Choose a date on the calendar to see times and prices.'}
                  </Text>
                )}
                <Button
                  size="md"
                  fullWidth
                  onClick={proceed}
                  disabled={!date || !slot || !priced || charges.isFetching}
                >
                  Continue to checkout
                </Button>
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
