import { Badge, Group, Stack, Text } from '@mantine/core';
import type { BookingEvent } from '@tumble/contracts/booking';
import { decodeCell } from '@tumble/contracts/booking-codes';
import { formatDayLong, formatTimeRange } from '../booking-format';

interface BookingSummaryProps {
  event: BookingEvent;
  quantity: number;
  booked: string[];
  waiting: string[];
}

interface SummaryItem {
  cell: string;
  sessionName: string;
  time: string;
  waitlist: boolean;
}

/** The chosen session-days by date, booked or waitlisted. */
export function BookingSummary({ event, quantity, booked, waiting }: BookingSummaryProps) {
  const byDate = new Map<string, SummaryItem[]>();
  for (const [cells, waitlist] of [
    [booked, false],
    [waiting, true],
  ] as const) {
    for (const cell of cells) {
      const decoded = decodeCell(cell);
      if (!decoded) continue;
      const session = event.Sessions.find((s) => s.id === decoded.sessionId);
      const items = byDate.get(decoded.date) ?? [];
      items.push({
        cell,
        sessionName: session?.name ?? 'Session',
        time: session ? formatTimeRange(session.start_time, session.end_time) : '',
        waitlist,
      });
      byDate.set(decoded.date, items);
    }
  }
  const dates = [...byDate.keys()].sort();

  return (
    <Stack gap="sm" data-testid="booking-summary">
      <Text size="sm" c="dimmed">
        {`${event.name} · ${quantity} ${quantity === 1 ? 'child' : 'children'}`}
      </Text>
      {dates.map((date) => (
        <Stack key={date} gap={4}>
          <Text size="sm" fw={700}>
            {formatDayLong(date)}
          </Text>
          {byDate.get(date)?.map((item) => (
            <Group key={item.cell} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm">
                {item.sessionName}
                {item.time ? (
                  <Text span size="xs" c="dimmed">
                    {` ${item.time}`}
                  </Text>
                ) : null}
              </Text>
              <Badge size="sm" variant="light" color={item.waitlist ? 'orange' : 'teal'}>
                {item.waitlist ? 'Waitlist' : 'Booked'}
              </Badge>
            </Group>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
