import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { MyPartyBookings } from '@tumble/contracts/students';
import { formatMoney } from '../../admin/format';
import { PageTitle } from '../../components/page-title';
import { CancelButton } from '../cancellation/cancel-button';
import { useMyPartyBookings } from './api/bookings';
import { ListContent } from './components/list-content';
import { BookingStatusBadge, WaiverBadge } from './components/status-badges';
import { formatDayWithWeekday } from './student-format';

type PartyBooking = MyPartyBookings[number];

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </Stack>
  );
}

function PartyCard({ party }: { party: PartyBooking }) {
  return (
    <Card component="article" aria-label={`${party.child_name} ${party.code}`} padding="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={2} fz="lg">
              {party.child_name}&apos;s party
            </Title>
            <Text size="sm">
              {formatDayWithWeekday(party.date)} · {party.slot_name} · {party.time}
            </Text>
            <Text size="sm" c="dimmed">
              Ref {party.code}
            </Text>
          </Stack>
          <Group gap="xs">
            <BookingStatusBadge status={party.status} />
            <WaiverBadge waiver={party.waiver} />
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Figure label="Guests named" value={`${party.guests_named}/${party.guests}`} />
          <Figure label="Total" value={formatMoney(party.total)} />
          <Figure label="Deposit paid" value={formatMoney(party.deposit)} />
          <Figure label="Balance due" value={formatMoney(party.balance)} />
        </SimpleGrid>
        {party.waiver_link || party.update_guests_link || party.status === 'confirmed' ? (
          <Group justify="flex-end" gap="sm">
            {party.status === 'confirmed' ? (
              <CancelButton
                target={{ kind: 'party', party_booking_id: party.id }}
                label="Cancel party"
                title="Cancel this party?"
                keepLabel="Keep the party"
                confirmLabel="Cancel the party"
              />
            ) : null}
            {party.update_guests_link ? (
              <Button component="a" href={party.update_guests_link} variant="default" size="sm">
                Update guests
              </Button>
            ) : null}
            {party.waiver_link ? (
              <Button component="a" href={party.waiver_link} size="sm">
                Sign waiver
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/** /admin/students/my-party-booking: the parent's birthday party bookings, newest first. */
export function MyPartyBookingsPage() {
  const parties = useMyPartyBookings();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle title="My Party Bookings" description="Your birthday party bookings, newest first." />
      <ListContent query={parties} empty="You have no party bookings yet.">
        {(rows) => (
          <Stack gap="md">
            {rows.map((party) => (
              <PartyCard key={party.reference} party={party} />
            ))}
          </Stack>
        )}
      </ListContent>
    </Stack>
  );
}
