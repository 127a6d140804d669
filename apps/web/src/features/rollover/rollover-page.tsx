import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { messages } from '@tumble/contracts/messages';
import {
  type RolloverItemState,
  type RolloverOutcome,
  type RolloverPlan,
  type RolloverRequest,
  type RolloverRun,
  rolloverConflictLabels,
} from '@tumble/contracts/rollover';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { DateField } from '../../admin/fields/date-field';
import { formatDate } from '../../admin/format';
import { ResourceHeader } from '../../admin/resource-header';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import {
  useCommitRollover,
  useRolloverPreview,
  useRolloverRun,
  useTermRollovers,
  useUndoRollover,
} from './rollover-api';

const DAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const failure = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;

type ClassRef = { name: string; weekday: number; start_time: string };
const classText = (c: ClassRef | null) => (c ? `${c.name} · ${DAYS[c.weekday]} ${c.start_time}` : '—');

function OutcomeBadge({ outcome }: { outcome: RolloverOutcome }) {
  if (outcome === 'hold')
    return (
      <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>
        To hold
      </Badge>
    );
  if (outcome === 'already_held')
    return (
      <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
        Already held
      </Badge>
    );
  return (
    <Badge color="red" variant="filled" style={{ flexShrink: 0 }}>
      {rolloverConflictLabels[outcome]}
    </Badge>
  );
}

const stateColours: Record<RolloverItemState, string> = {
  held: 'blue',
  confirmed: 'teal',
  released: 'gray',
  undone: 'gray',
};
const stateLabels: Record<RolloverItemState, string> = {
  held: 'Held',
  confirmed: 'Confirmed',
  released: 'Released',
  undone: 'Undone',
};

const isConflict = (o: RolloverOutcome) => o !== 'hold' && o !== 'already_held';

/** The dry run: each enrolment of the term, where it goes and any conflict (highlighted). */
function PlanList({ plan }: { plan: RolloverPlan }) {
  const narrow = useNarrowScreen();
  if (narrow)
    return (
      <Stack gap="xs">
        {plan.items.map((item) => (
          <Card
            key={item.enrolment_id}
            p="sm"
            withBorder
            aria-label={item.child.name}
            bg={isConflict(item.outcome) ? 'red.0' : undefined}
          >
            <Stack gap={4}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text fw={600}>{item.child.name}</Text>
                <OutcomeBadge outcome={item.outcome} />
              </Group>
              <Text size="sm">From {classText(item.from_class)}</Text>
              <Text size="sm" c="dimmed">
                To {classText(item.to_class)}
              </Text>
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table aria-label="Dry run">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Child</Table.Th>
          <Table.Th>From</Table.Th>
          <Table.Th>To</Table.Th>
          <Table.Th>Outcome</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {plan.items.map((item) => (
          <Table.Tr key={item.enrolment_id} bg={isConflict(item.outcome) ? 'red.0' : undefined}>
            <Table.Td>{item.child.name}</Table.Td>
            <Table.Td>{classText(item.from_class)}</Table.Td>
            <Table.Td>{classText(item.to_class)}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              <OutcomeBadge outcome={item.outcome} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Totals({ plan }: { plan: RolloverPlan }) {
  const stat = (label: string, value: number, colour?: string) => (
    <Card p="sm" withBorder>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700} c={colour}>
        {value}
      </Text>
    </Card>
  );
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" aria-label="Totals">
      {stat('Enrolments', plan.totals.enrolments)}
      {stat('To hold', plan.totals.hold, 'teal.8')}
      {stat('Already held', plan.totals.already_held)}
      {stat('Conflicts', plan.totals.conflicts, plan.totals.conflicts > 0 ? 'red.8' : undefined)}
    </SimpleGrid>
  );
}

/** A run: progress while it runs, then its places with their state, and Undo before the deadline. */
function RunView({ run }: { run: RolloverRun }) {
  const narrow = useNarrowScreen();
  const undo = useUndoRollover(run.id);
  const [asking, setAsking] = useState(false);
  const percent = run.total === 0 ? 100 : Math.round((run.done / run.total) * 100);
  return (
    <Card p={{ base: 'sm', sm: 'md' }} aria-label="Rollover">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text>
            <strong>{run.from.name}</strong> into <strong>{run.to.name}</strong> · held until{' '}
            {run.deadline_display}
          </Text>
          {run.status === 'undone' ? (
            <Badge color="gray">Undone</Badge>
          ) : run.status === 'running' ? (
            <Badge color="blue">Running</Badge>
          ) : (
            <Badge color="teal">Done</Badge>
          )}
        </Group>
        {run.status === 'running' ? (
          <Stack gap={4}>
            <Progress value={percent} size="lg" animated aria-label="Progress" />
            <Text size="sm" c="dimmed">
              {run.done} of {run.total} enrolments
            </Text>
          </Stack>
        ) : (
          <Group gap="xs">
            <Badge variant="light" color="blue">
              {run.counts.held} held
            </Badge>
            <Badge variant="light" color="teal">
              {run.counts.confirmed} confirmed
            </Badge>
            <Badge variant="light" color="gray">
              {run.counts.released} released
            </Badge>
            {run.counts.undone > 0 ? (
              <Badge variant="light" color="gray">
                {run.counts.undone} undone
              </Badge>
            ) : null}
          </Group>
        )}
        {undo.isError ? (
          <Alert color="red" role="alert">
            {failure(undo.error)}
          </Alert>
        ) : null}
        {run.can_undo ? (
          asking ? (
            <Alert color="orange" title="Are you sure to undo this rollover?">
              <Stack gap="xs">
                <Text size="sm">Places not yet confirmed are released; confirmed places stay.</Text>
                <Group gap="xs">
                  <Button color="red" loading={undo.isPending} onClick={() => undo.mutate()}>
                    Undo rollover
                  </Button>
                  <Button variant="default" onClick={() => setAsking(false)}>
                    Cancel
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : (
            <Group justify="flex-end">
              <Button variant="default" color="red" onClick={() => setAsking(true)}>
                Undo
              </Button>
            </Group>
          )
        ) : null}
        {run.items.length === 0 ? null : narrow ? (
          <Stack gap="xs">
            {run.items.map((item) => (
              <Card key={item.id} p="sm" withBorder aria-label={item.child.name}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Stack gap={2}>
                    <Text fw={600}>{item.child.name}</Text>
                    <Text size="sm" c="dimmed">
                      {classText(item.to_class)}
                    </Text>
                  </Stack>
                  <Badge color={stateColours[item.state]} variant="light" style={{ flexShrink: 0 }}>
                    {stateLabels[item.state]}
                  </Badge>
                </Group>
              </Card>
            ))}
          </Stack>
        ) : (
          <Table striped aria-label="Held places">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Child</Table.Th>
                <Table.Th>Class</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {run.items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>{item.child.name}</Table.Td>
                  <Table.Td>{classText(item.to_class)}</Table.Td>
                  <Table.Td>
                    <Badge color={stateColours[item.state]} variant="light">
                      {stateLabels[item.state]}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

/**
 * Terms › a term › "Roll over" (SPEC students/re-enroll): pick the next term and the deadline of the
 * priority window, see the dry run, commit with a progress bar, then follow the held places.
 */
export function RolloverPage() {
  const termId = Number(useParams().id);
  const overview = useTermRollovers(termId);
  const preview = useRolloverPreview(termId);
  const commit = useCommitRollover(termId);
  const [toTermId, setToTermId] = useState<string | null>(null);
  const [deadlineDate, setDeadlineDate] = useState<string | null>(null);
  const [deadlineTime, setDeadlineTime] = useState('18:00');
  const [runId, setRunId] = useState<number | null>(null);
  const run = useRolloverRun(runId);

  // Opening the screen shows the latest run that is not undone, if any.
  const latest = overview.data?.runs.find((r) => r.status !== 'undone');
  useEffect(() => {
    if (runId === null && latest) setRunId(latest.id);
  }, [latest, runId]);

  const request: RolloverRequest | null =
    toTermId && deadlineDate
      ? { to_term_id: Number(toTermId), deadline_date: deadlineDate, deadline_time: deadlineTime }
      : null;
  const termName = overview.data?.term.name ?? 'Term';
  const title = `Roll over ${termName}`;
  const plan = preview.data;

  return (
    <Stack maw={1100} w="100%">
      <ResourceHeader
        title={title}
        crumbs={[
          { label: 'Terms', to: '/admin/terms' },
          { label: termName, to: `/admin/terms/${termId}` },
          { label: 'Roll over' },
        ]}
      />
      {overview.isPending ? (
        <Loader aria-label="Loading" />
      ) : overview.isError ? (
        <Alert color="red" role="alert">
          {failure(overview.error)}
        </Alert>
      ) : (
        <>
          <Card p={{ base: 'sm', sm: 'md' }}>
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                Every enrolled child of {termName} gets a held place in the same class of the next term (same
                class type, day and time). Families confirm and pay, or release, before the deadline; places
                not confirmed by then are released and go to the waitlist.
              </Text>
              <Group align="flex-end" gap="sm" wrap="wrap">
                <Select
                  label="Roll into"
                  placeholder="Choose the next term"
                  data={overview.data.next_terms.map((t) => ({
                    value: String(t.id),
                    label: `${t.name} (from ${formatDate(t.start_date)})`,
                  }))}
                  value={toTermId}
                  onChange={(value) => {
                    preview.reset();
                    setToTermId(value);
                  }}
                  w={{ base: '100%', sm: 300 }}
                />
                <DateField
                  label="Deadline"
                  value={deadlineDate}
                  onChange={(value) => {
                    preview.reset();
                    setDeadlineDate(value);
                  }}
                  w={{ base: '100%', sm: 180 }}
                />
                <TimeInput
                  label="Time"
                  value={deadlineTime}
                  onChange={(event) => {
                    preview.reset();
                    setDeadlineTime(event.currentTarget.value);
                  }}
                  w={{ base: '100%', sm: 120 }}
                />
                <Button
                  onClick={() => request && preview.mutate(request)}
                  disabled={request === null}
                  loading={preview.isPending}
                >
                  Dry run
                </Button>
              </Group>
              {overview.data.runs.length > 1 ? (
                <Group gap="xs" aria-label="Rollovers of this term">
                  <Text size="sm" c="dimmed">
                    Rollovers:
                  </Text>
                  {overview.data.runs.map((r) => (
                    <Button
                      key={r.id}
                      size="compact-sm"
                      variant={r.id === runId ? 'light' : 'subtle'}
                      onClick={() => {
                        preview.reset();
                        setRunId(r.id);
                      }}
                    >
                      {r.to.name}
                      {r.status === 'undone' ? ' (undone)' : ''}
                    </Button>
                  ))}
                </Group>
              ) : null}
              {overview.data.next_terms.length === 0 ? (
                <Text size="sm" c="orange.8">
                  There is no later term yet.{' '}
                  <Anchor component={Link} to="/admin/terms/add">
                    Add the next term
                  </Anchor>
                </Text>
              ) : null}
            </Stack>
          </Card>
          {preview.isError ? (
            <Alert color="red" role="alert">
              {failure(preview.error)}
            </Alert>
          ) : null}
          {commit.isError ? (
            <Alert color="red" role="alert">
              {failure(commit.error)}
            </Alert>
          ) : null}
          {plan ? (
            <Card p={{ base: 'sm', sm: 'md' }} aria-label="Dry run result">
              <Stack gap="sm">
                <Text>
                  Dry run: <strong>{plan.from.name}</strong> into <strong>{plan.to.name}</strong>, held until{' '}
                  {plan.deadline_display}
                </Text>
                <Totals plan={plan} />
                <PlanList plan={plan} />
                <Group justify="flex-end">
                  <Button
                    disabled={plan.totals.hold === 0 || request === null}
                    loading={commit.isPending}
                    onClick={() =>
                      request &&
                      commit.mutate(request, {
                        onSuccess: (started) => {
                          preview.reset();
                          setRunId(started.id);
                        },
                      })
                    }
                  >
                    {plan.totals.hold === 0
                      ? 'Nothing to hold'
                      : `Commit: hold ${plan.totals.hold} ${plan.totals.hold === 1 ? 'place' : 'places'}`}
                  </Button>
                </Group>
              </Stack>
            </Card>
          ) : null}
          {/* While a dry run is on screen, it is what staff are deciding on: the run shows once committed. */}
          {run.data && !plan ? <RunView run={run.data} /> : null}
        </>
      )}
    </Stack>
  );
}
