import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { MyWaitlist } from '@tumble/contracts/students';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { useLeaveWaitlist, useMyWaitlist } from '../api/bookings';
import { formatDayWithWeekday } from '../student-format';

type Entry = MyWaitlist[number];

function queueText(entry: Entry): string {
  if (entry.status === 'invited') return 'A place is free for you: see the invitation we emailed you.';
  return entry.position === null ? 'Waiting' : `Waiting · number ${entry.position} in the queue`;
}

/**
 * The days the parent waits for (issue 21 point 2): each with its place in the queue, or the open
 * invitation, and a button to leave. Nothing shows when the parent waits for nothing.
 */
export function WaitlistSection() {
  const waitlist = useMyWaitlist();
  const leave = useLeaveWaitlist();
  const [failure, setFailure] = useState<string | null>(null);
  if (!waitlist.data || waitlist.data.length === 0) return null;

  function leaveDay(entry: Entry) {
    setFailure(null);
    leave.mutate(entry.id, {
      onError: (error) =>
        setFailure(
          (error instanceof ApiError && error.serverMessage) ||
            'The waitlist could not be left. Please try again.',
        ),
    });
  }

  return (
    <Card component="section" aria-label="Waitlisted days" padding="md">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Waitlisted days
        </Title>
        <Text size="sm" c="dimmed">
          We email you when a place frees up, in the order families joined.
        </Text>
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        {waitlist.data.map((entry) => (
          <Group
            key={entry.id}
            justify="space-between"
            gap="xs"
            wrap="wrap"
            component="article"
            aria-label={`${entry.event_name} ${entry.session_name} ${entry.date}`}
          >
            <Stack gap={0} style={{ minWidth: 0, flex: '1 1 240px' }}>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {entry.event_name} · {entry.session_name} · {formatDayWithWeekday(entry.date)}
              </Text>
              <Text size="sm" c="dimmed">
                {entry.places === 1 ? '1 place' : `${entry.places} places`} · {queueText(entry)}
              </Text>
            </Stack>
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => leaveDay(entry)}
              loading={leave.isPending && leave.variables === entry.id}
              aria-label={`Leave waitlist for ${entry.session_name} on ${formatDayWithWeekday(entry.date)}`}
            >
              Leave waitlist
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
