import { Group, Stack, Text } from '@mantine/core';
import { formatPartyDate } from '../party-calendar';

interface PartySummaryProps {
  date: string;
  /** Already formatted: '10:00am–12:00pm' or '10:00am'. */
  time: string;
  slotName?: string;
  guests: number;
}

/** Date, time and guests of the party being booked (booking page and checkout). */
export function PartySummary({ date, time, slotName, guests }: PartySummaryProps) {
  const rows: [string, string][] = [
    ['Date', formatPartyDate(date)],
    ['Time', slotName ? `${time} (${slotName})` : time],
    ['Guests', String(guests)],
  ];
  return (
    <Stack gap={6} data-testid="party-summary">
      {rows.map(([label, value]) => (
        <Group key={label} justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          <Text size="sm" fw={600} ta="right">
            {value}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
