import { Alert, Anchor, Badge, Button, Card, Center, Group, Select, Stack, Table, Text } from '@mantine/core';
import type { CoverItem } from '@tumble/contracts/coaches';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { Link } from 'react-router';
import { useResourceOptions } from '../../admin/api/get-options';
import { formatDate } from '../../admin/format';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useAssignSubstitute, useCover } from './coaches-api';

const weekday = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-AU', { weekday: 'short', timeZone: 'UTC' });

const when = (item: CoverItem) => `${weekday(item.date)} ${formatDate(item.date)} · ${item.start_time}`;

const leaveText = (item: CoverItem) =>
  `On leave ${formatDate(item.leave_start)}–${formatDate(item.leave_end)}${item.leave_reason ? ` (${item.leave_reason})` : ''}`;

/** Picks a substitute for one session and assigns them; the server's message shows on refusal. */
function AssignSubstitute({ item }: { item: CoverItem }) {
  const coaches = useResourceOptions({ resource: 'coaches', parent: null });
  const assign = useAssignSubstitute();
  const [coachId, setCoachId] = useState<string | null>(null);
  const response = assign.data;
  const error =
    response && !response.valid
      ? (response.error?.element.find((e) => e.name === 'coach_id')?.messages[0] ??
        response.error?.html_message)
      : assign.isError
        ? assign.error instanceof ApiError
          ? (assign.error.serverMessage ?? messages.communicationError)
          : messages.communicationError
        : undefined;
  const choices = (coaches.data ?? [])
    .filter((o) => Number(o.value) !== item.coach_id)
    .map((o) => ({ value: String(o.value), label: o.label }));
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Select
        aria-label={`Substitute for ${item.class_name} on ${formatDate(item.date)}`}
        placeholder="Choose a substitute"
        data={choices}
        value={coachId}
        onChange={setCoachId}
        searchable
        error={error}
        size="sm"
        style={{ flex: 1, minWidth: 0 }}
      />
      <Button
        size="sm"
        loading={assign.isPending}
        onClick={() =>
          assign.mutate({ sessionId: item.session_id, coachId: coachId === null ? null : Number(coachId) })
        }
      >
        Assign
      </Button>
    </Group>
  );
}

/** The session's own page, where staff can also move it (date, time, room) or cancel it. */
const sessionLink = (item: CoverItem) => (
  <Anchor
    component={Link}
    to={`/admin/term-classes/${item.term_class_id}/class-sessions/${item.session_id}`}
    size="sm"
    fw={600}
  >
    {item.class_name}
  </Anchor>
);

const coachLink = (item: CoverItem) => (
  <Anchor component={Link} to={`/admin/coaches/${item.coach_id}/leaves`} size="sm">
    {item.coach_name}
  </Anchor>
);

/** /admin/cover: sessions whose coach is on leave, each with a substitute to assign. */
export function CoverPage() {
  const narrow = useNarrowScreen();
  const cover = useCover();
  return (
    <Stack gap="md" maw={1200} w="100%" mx="auto">
      <PageTitle
        title="Cover"
        description="Class sessions from today whose coach is on leave. Each needs cover until you assign a substitute."
      />
      <Card p={{ base: 'sm', sm: 'md' }}>
        {cover.isError ? (
          <Alert color="red" role="alert">
            {cover.error instanceof ApiError
              ? (cover.error.serverMessage ?? messages.communicationError)
              : messages.communicationError}
          </Alert>
        ) : cover.isPending ? (
          <PageLoader />
        ) : cover.data.data.length === 0 ? (
          <Center py="xl">
            <Text c="dimmed">No sessions need cover.</Text>
          </Center>
        ) : narrow ? (
          <Stack
            component="ul"
            gap="xs"
            aria-label="Sessions needing cover"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
          >
            {cover.data.data.map((item) => (
              <Card component="li" key={item.session_id} withBorder p="sm">
                <Stack gap={6}>
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    {sessionLink(item)}
                    <Badge color="orange" variant="light" style={{ flexShrink: 0 }}>
                      Needs cover
                    </Badge>
                  </Group>
                  <Text size="sm">{when(item)}</Text>
                  <Text size="sm">
                    {coachLink(item)}{' '}
                    <Text span c="dimmed" size="xs">
                      · {leaveText(item)}
                    </Text>
                  </Text>
                  <AssignSubstitute item={item} />
                </Stack>
              </Card>
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={760} type="native">
            <Table verticalSpacing="sm" aria-label="Sessions needing cover">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Class</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Coach</Table.Th>
                  <Table.Th w={340}>Substitute</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {cover.data.data.map((item) => (
                  <Table.Tr key={item.session_id}>
                    <Table.Td>
                      <Stack gap={2}>
                        {sessionLink(item)}
                        <Badge color="orange" variant="light" size="sm">
                          Needs cover
                        </Badge>
                      </Stack>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text size="sm">{when(item)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        {coachLink(item)}
                        <Text c="dimmed" size="xs">
                          {leaveText(item)}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <AssignSubstitute item={item} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
