import { Box, Checkbox, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { SessionsResponse } from '@tumble/contracts/booking';
import { encodeCell } from '@tumble/contracts/booking-codes';
import {
  calendarWeeks,
  formatDate,
  formatDayLong,
  formatDayShort,
  formatMoney,
  formatTimeRange,
  WEEKDAYS,
} from '../booking-format';
import { cellKind, type DaySession } from '../session-selection';

interface SessionCalendarProps {
  eventId: number;
  startDate: string;
  endDate: string;
  days: SessionsResponse['days'];
  quantity: number;
  currency: string;
  selected: ReadonlySet<string>;
  onToggle: (cell: string) => void;
}

const KIND_COLOR = { book: 'teal', waitlist: 'orange', closed: 'gray' } as const;

function statusText(session: DaySession, quantity: number, currency: string): string {
  const kind = cellKind(session, quantity);
  if (kind === 'closed') return 'Bookings closed';
  if (session.status === 'full') return 'Full · Waitlist';
  if (kind === 'waitlist') return `Only ${session.available} left · Waitlist`;
  const price = session.price === null ? '' : ` · ${formatMoney(session.price, currency)}`;
  return `${session.available} left${price}`;
}

interface SessionOptionProps {
  date: string;
  session: DaySession;
  cell: string;
  quantity: number;
  currency: string;
  checked: boolean;
  onToggle: (cell: string) => void;
}

function SessionOption({ date, session, cell, quantity, currency, checked, onToggle }: SessionOptionProps) {
  const kind = cellKind(session, quantity);
  const status = statusText(session, quantity, currency);
  const color = KIND_COLOR[kind];
  return (
    <Checkbox.Card
      checked={checked}
      onChange={() => onToggle(cell)}
      disabled={kind === 'closed'}
      aria-label={`${formatDayLong(date)}, ${session.name}, ${formatTimeRange(session.start_time, session.end_time)}, ${status}`}
      data-kind={kind}
      radius="md"
      p={8}
      style={{
        cursor: kind === 'closed' ? 'not-allowed' : 'pointer',
        opacity: kind === 'closed' ? 0.55 : 1,
        borderColor: checked ? `var(--mantine-color-${color}-6)` : undefined,
        background: checked ? `var(--mantine-color-${color}-0)` : undefined,
      }}
    >
      <Group wrap="nowrap" align="flex-start" gap={8}>
        <Checkbox.Indicator size="sm" color={color} disabled={kind === 'closed'} mt={2} />
        <Box miw={0}>
          <Text size="sm" fw={600} lh={1.25}>
            {session.name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatTimeRange(session.start_time, session.end_time)}
          </Text>
          <Text
            size="xs"
            fw={500}
            c={kind === 'book' ? 'teal.8' : kind === 'waitlist' ? 'orange.9' : 'dimmed'}
          >
            {status}
          </Text>
        </Box>
      </Group>
    </Checkbox.Card>
  );
}

/**
 * Step 2's calendar: weeks Monday to Sunday (SPEC.md point 9) covering the event. Seven columns
 * from 769px up; on a phone each week becomes a list of the days that have sessions, so every
 * session stays readable and tappable at 390px.
 */
export function SessionCalendar(props: SessionCalendarProps) {
  const { eventId, startDate, endDate, days, quantity, currency, selected, onToggle } = props;
  const weeks = calendarWeeks([startDate, endDate, ...Object.keys(days)]);

  return (
    <Stack gap="md" data-testid="session-calendar">
      <SimpleGrid cols={7} spacing={6} visibleFrom="sm" aria-hidden="true">
        {WEEKDAYS.map((day) => (
          <Text
            key={day}
            size="xs"
            fw={700}
            tt="uppercase"
            c="dimmed"
            ta="center"
            data-testid="weekday-header"
          >
            {day}
          </Text>
        ))}
      </SimpleGrid>
      {weeks.map((week) => {
        const weekHasSessions = week.some((date) => (days[date]?.length ?? 0) > 0);
        return (
          <Stack key={week[0]} gap={6} data-testid="calendar-week" data-week-start={week[0]}>
            <Text size="sm" fw={700} hiddenFrom="sm">
              {`Week of ${formatDate(week[0] ?? '')}`}
            </Text>
            {weekHasSessions ? null : (
              <Text size="sm" c="dimmed" hiddenFrom="sm">
                No sessions this week.
              </Text>
            )}
            <SimpleGrid cols={{ base: 1, sm: 7 }} spacing={6}>
              {week.map((date) => {
                const sessions = days[date] ?? [];
                const inEvent = date >= startDate && date <= endDate;
                return (
                  <Paper
                    key={date}
                    withBorder
                    p={6}
                    radius="md"
                    bg={inEvent ? 'white' : 'gray.0'}
                    mih={{ sm: 96 }}
                    data-testid="calendar-day"
                    data-date={date}
                    // An empty day is only a gap in the desktop grid; the phone list skips it.
                    visibleFrom={sessions.length === 0 ? 'sm' : undefined}
                  >
                    <Stack gap={6}>
                      <Text size="xs" fw={700} c={inEvent ? undefined : 'dimmed'}>
                        {formatDayShort(date)}
                      </Text>
                      {sessions.map((session) => {
                        const cell = encodeCell(eventId, session.session_id, date);
                        return (
                          <SessionOption
                            key={cell}
                            date={date}
                            session={session}
                            cell={cell}
                            quantity={quantity}
                            currency={currency}
                            checked={selected.has(cell)}
                            onToggle={onToggle}
                          />
                        );
                      })}
                    </Stack>
                  </Paper>
                );
              })}
            </SimpleGrid>
          </Stack>
        );
      })}
    </Stack>
  );
}
