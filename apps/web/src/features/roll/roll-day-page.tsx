import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { RollSession } from '@tumble/contracts/roll';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useRollDay } from './roll-api';

const longDay = new Intl.DateTimeFormat('en-AU', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
/** Dates are calendar days (YYYY-MM-DD): read them at UTC midnight so no zone shifts the day. */
export const dayText = (date: string) => longDay.format(new Date(`${date}T00:00:00Z`));
const shiftDay = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function SessionCard({ session }: { session: RollSession }) {
  const cancelled = session.status === 'cancelled';
  const done = session.expected > 0 && session.marked === session.expected;
  return (
    <Card
      withBorder
      component={Link}
      to={`/admin/roll/${session.id}`}
      padding="md"
      style={{ textDecoration: 'none', color: 'inherit', opacity: cancelled ? 0.65 : 1 }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={700} size="lg" td={cancelled ? 'line-through' : undefined}>
            {session.start_time}–{session.end_time} {session.class_name}
          </Text>
          <Text size="sm" c="dimmed">
            {[session.room, session.coach].filter(Boolean).join(' · ') || 'No room or coach yet'}
          </Text>
          {cancelled ? (
            <Text size="sm" c="red">
              Cancelled{session.cancel_reason ? `: ${session.cancel_reason}` : ''}
            </Text>
          ) : null}
        </Stack>
        {cancelled ? (
          <Badge color="gray">Cancelled</Badge>
        ) : (
          <Badge
            color={done ? 'teal' : session.marked > 0 ? 'yellow' : 'gray'}
            size="lg"
            variant="light"
            style={{ flexShrink: 0 }}
          >
            {session.marked}/{session.expected} marked
          </Badge>
        )}
      </Group>
    </Card>
  );
}

/** /admin/roll: the day's class sessions to take the roll of (a coach sees their own); ?date= moves days. */
export function RollDayPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('date') ?? '';
  const day = useRollDay(asked);
  const date = day.data?.date ?? asked;
  const go = (next: string) => setParams(next ? { date: next } : {}, { replace: true });

  return (
    <Stack maw={900} w="100%" mx="auto" gap="md">
      <PageTitle title="Roll" description={date ? dayText(date) : undefined} />
      <Group gap="xs" wrap="wrap">
        <Button
          variant="default"
          size="md"
          aria-label="Previous day"
          disabled={!date}
          onClick={() => go(shiftDay(date, -1))}
        >
          ‹ Previous day
        </Button>
        <Button variant="default" size="md" onClick={() => go('')}>
          Today
        </Button>
        <Button
          variant="default"
          size="md"
          aria-label="Next day"
          disabled={!date}
          onClick={() => go(shiftDay(date, 1))}
        >
          Next day ›
        </Button>
        <TextInput
          type="date"
          aria-label="Date"
          size="md"
          value={date}
          onChange={(e) => {
            if (e.currentTarget.value) go(e.currentTarget.value);
          }}
        />
      </Group>
      {day.isPending ? <PageLoader /> : null}
      {day.isError ? <Alert color="red">{messages.formLoadFailed}</Alert> : null}
      {day.data && day.data.sessions.length === 0 ? (
        <Text c="dimmed">No class sessions on this day.</Text>
      ) : null}
      {day.data?.sessions.map((session) => (
        <SessionCard key={session.id} session={session} />
      ))}
    </Stack>
  );
}
