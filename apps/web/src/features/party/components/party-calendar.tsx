import '@mantine/dates/styles.css';
import { Box, Group, LoadingOverlay, Text } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import type { CalendarDays } from '@tumble/contracts/party';
import type { CSSProperties } from 'react';
import { type PartyDayState, partyDayLabel, partyDayState } from '../party-calendar';

interface PartyCalendarProps {
  /** The days of the displayed month's year; undefined while they load. */
  days: CalendarDays | undefined;
  loading: boolean;
  /** The first day of the displayed month (YYYY-MM-DD). */
  month: string;
  onMonthChange: (month: string) => void;
  /** The first date that may be shown or picked (tomorrow). */
  minDate: string;
  value: string | null;
  onChange: (date: string) => void;
}

const DAY_STYLE: Record<PartyDayState, CSSProperties | undefined> = {
  available: {
    backgroundColor: 'var(--mantine-color-teal-0)',
    color: 'var(--mantine-color-teal-9)',
    fontWeight: 700,
  },
  // Shown so parents see the day exists but is taken; never pickable.
  reserved: {
    backgroundColor: 'var(--mantine-color-red-0)',
    color: 'var(--mantine-color-red-4)',
    textDecoration: 'line-through',
    opacity: 1,
  },
  locked: undefined,
};

/**
 * The party month calendar (SPEC.md point 5): weeks start on Monday, one date, no month before
 * `minDate`; days absent from the calendar are locked, days with 0 available are reserved.
 */
export function PartyCalendar({
  days,
  loading,
  month,
  onMonthChange,
  minDate,
  value,
  onChange,
}: PartyCalendarProps) {
  return (
    <Box>
      <Box pos="relative" data-testid="party-calendar">
        <LoadingOverlay
          visible={loading}
          zIndex={2}
          overlayProps={{ blur: 1 }}
          loaderProps={{ size: 'sm' }}
        />
        <DatePicker
          type="default"
          value={value}
          onChange={(date) => {
            if (date) onChange(date);
          }}
          allowDeselect={false}
          date={month}
          onDateChange={onMonthChange}
          firstDayOfWeek={1}
          minDate={minDate}
          maxLevel="month"
          hideOutsideDates
          highlightToday={false}
          size="md"
          fullWidth
          // Full-width days are square by default: too tall for a 7-column calendar on a laptop.
          styles={{ day: { aspectRatio: 'auto', height: 48 } }}
          excludeDate={(date) => partyDayState(date, days) !== 'available'}
          getDayAriaLabel={(date) => partyDayLabel(date, partyDayState(date, days))}
          getDayProps={(date) => {
            const state = partyDayState(date, days);
            return {
              'data-party-day': state,
              style: date === value ? undefined : DAY_STYLE[state],
            };
          }}
          ariaLabels={{ previousMonth: 'Previous month', nextMonth: 'Next month' }}
        />
      </Box>
      <Group gap="md" mt="sm" justify="center">
        <Legend label="Available" style={DAY_STYLE.available} />
        <Legend label="Fully booked" style={DAY_STYLE.reserved} />
        <Legend label="No parties" style={DAY_STYLE.locked} />
      </Group>
    </Box>
  );
}

function Legend({ label, style }: { label: string; style: CSSProperties | undefined }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Box
        w={14}
        h={14}
        style={{ ...style, borderRadius: 4, border: '1px solid var(--mantine-color-gray-3)' }}
      />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}
