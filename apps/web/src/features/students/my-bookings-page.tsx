import { Button, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { MyBookings } from '@tumble/contracts/students';
import type { ReactNode } from 'react';
import { formatDate, formatMoney } from '../../admin/format';
import { PageTitle } from '../../components/page-title';
import { CancelButton } from '../cancellation/cancel-button';
import { useMyBookings } from './api/bookings';
import { ListContent } from './components/list-content';
import { BookingStatusBadge, PaymentStatusBadge, WaiverBadge } from './components/status-badges';
import { WaitlistSection } from './components/waitlist-section';
import { formatDayWithWeekday } from './student-format';

type Booking = MyBookings[number];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

function BookingCard({ booking }: { booking: Booking }) {
  const { payment } = booking;
  return (
    <Card component="article" aria-label={`${booking.event_name} ${booking.code}`} padding="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={2} fz="lg">
              {booking.event_name}
            </Title>
            <Text size="sm" c="dimmed">
              Ref {booking.code} · Booked {formatDate(booking.booked_on)}
            </Text>
          </Stack>
          <BookingStatusBadge status={booking.status} />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Section title="Sessions">
            <List size="sm" spacing={2} listStyleType="none">
              {booking.sessions.map((session) => (
                <List.Item key={`${session.session_id}|${session.date}`}>
                  <Group gap="xs" wrap="nowrap">
                    <span>
                      {session.name} · {formatDayWithWeekday(session.date)}
                    </span>
                    {booking.status === 'confirmed' ? (
                      <CancelButton
                        target={{
                          kind: 'event_day',
                          booking_id: booking.id,
                          session_id: session.session_id,
                          date: session.date,
                        }}
                        label="Cancel day"
                        title="Cancel this day?"
                        keepLabel="Keep this day"
                        confirmLabel="Cancel this day"
                      />
                    ) : null}
                  </Group>
                </List.Item>
              ))}
            </List>
          </Section>
          <Section title="Children">
            <Stack gap={6}>
              {booking.children.map((child) => (
                <Group key={child.id} gap="xs" wrap="wrap">
                  <Text size="sm">
                    {child.first_name} {child.last_name}
                  </Text>
                  <WaiverBadge waiver={child.waiver} />
                </Group>
              ))}
            </Stack>
          </Section>
          <Section title="Payment">
            {payment ? (
              <Group gap="xs">
                <Text size="sm" fw={600}>
                  {formatMoney(payment.amount)}
                </Text>
                <PaymentStatusBadge status={payment.status} />
              </Group>
            ) : (
              <Text size="sm">{formatMoney(booking.total)} · not paid</Text>
            )}
          </Section>
        </SimpleGrid>
        {booking.waiver_link ? (
          <Group justify="flex-end">
            <Button component="a" href={booking.waiver_link} size="sm">
              Sign waivers
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/** /admin/students/my-booking: the parent's event bookings, newest first. */
export function MyBookingsPage() {
  const bookings = useMyBookings();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle title="My Bookings" description="Your event bookings, newest first." />
      <WaitlistSection />
      <ListContent query={bookings} empty="You have no bookings yet.">
        {(rows) => (
          <Stack gap="md">
            {rows.map((booking) => (
              <BookingCard key={booking.reference} booking={booking} />
            ))}
          </Stack>
        )}
      </ListContent>
    </Stack>
  );
}
