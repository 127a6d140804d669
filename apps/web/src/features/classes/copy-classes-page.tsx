import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Table, Text } from '@mantine/core';
import type { ClassCopy } from '@tumble/contracts/class-sessions';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { Link } from 'react-router';
import { useResourceOptions } from '../../admin/api/get-options';
import { ResourceHeader } from '../../admin/resource-header';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { useApplyCopy, useCopyPreview } from './class-sessions-api';
import { TermSelect } from './term-select';

type Row = ClassCopy['classes'][number];

const DAYS = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const failure = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;

function Outcome({ row }: { row: Row }) {
  return row.outcome === 'exists' ? (
    <Badge color="gray" variant="light">
      Already in this term
    </Badge>
  ) : (
    <Badge color="teal" variant="light">
      {row.new_id ? 'Copied' : 'To copy'}
    </Badge>
  );
}

/** The classes as cards on a phone, as a table on a desktop. */
function CopyList({ rows }: { rows: Row[] }) {
  const narrow = useNarrowScreen();
  if (narrow)
    return (
      <Stack gap="xs">
        {rows.map((row) => (
          <Card key={row.source_id} p="sm" withBorder aria-label={row.name}>
            <Stack gap={4}>
              <Group justify="space-between" gap="xs">
                <Text fw={600}>{row.name}</Text>
                <Outcome row={row} />
              </Group>
              <Text size="sm">
                {DAYS[row.weekday]} {row.start_time}
                {row.room ? ` · ${row.room}` : ''}
              </Text>
              <Text size="sm" c="dimmed">
                {row.coach ?? 'No lead coach'} · {row.capacity} places
              </Text>
              {row.note ? (
                <Text size="sm" c="orange.8">
                  {row.note}
                </Text>
              ) : null}
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table striped aria-label="Classes to copy">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Class</Table.Th>
          <Table.Th>Day</Table.Th>
          <Table.Th>Time</Table.Th>
          <Table.Th>Room</Table.Th>
          <Table.Th>Lead coach</Table.Th>
          <Table.Th>Capacity</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.source_id}>
            <Table.Td>
              {row.name}
              {row.note ? (
                <Text size="xs" c="orange.8">
                  {row.note}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>{DAYS[row.weekday]}</Table.Td>
            <Table.Td>{row.start_time}</Table.Td>
            <Table.Td>{row.room ?? ''}</Table.Td>
            <Table.Td>{row.coach ?? ''}</Table.Td>
            <Table.Td>{row.capacity}</Table.Td>
            <Table.Td>
              <Outcome row={row} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * "Copy the classes of the previous term" (a custom screen of term-classes): choose the new term,
 * see the previous term's classes as they will be copied, and create them in one step.
 */
export function CopyClassesPage() {
  const terms = useResourceOptions({ resource: 'terms', parent: null });
  const [termId, setTermId] = useState<string | null>(null);
  const id = termId === null ? null : Number(termId);
  const preview = useCopyPreview(id);
  const apply = useApplyCopy(id);
  const title = 'Copy the classes of the previous term';
  const toCopy = preview.data?.classes.filter((c) => c.outcome === 'copy').length ?? 0;

  return (
    <Stack maw={1100} w="100%">
      <ResourceHeader
        title={title}
        crumbs={[{ label: 'Classes', to: '/admin/term-classes' }, { label: title }]}
      />
      <TermSelect
        label="Copy into"
        placeholder="Choose the new term"
        options={terms.data}
        value={termId}
        onChange={(value) => {
          apply.reset();
          setTermId(value);
        }}
      />
      {apply.isSuccess ? (
        <Alert color="teal" role="status">
          {apply.data.classes.filter((c) => c.new_id !== null).length} classes copied into{' '}
          {apply.data.to.name}.{' '}
          <Anchor component={Link} to="/admin/term-classes/generate-term-sessions">
            Generate their sessions
          </Anchor>
        </Alert>
      ) : null}
      {apply.isError ? (
        <Alert color="red" role="alert">
          {failure(apply.error)}
        </Alert>
      ) : null}
      {id === null ? null : preview.isPending ? (
        <Loader aria-label="Loading" />
      ) : preview.isError ? (
        <Alert color="red" role="alert">
          {failure(preview.error)}
        </Alert>
      ) : preview.data.from === null ? (
        <Text c="dimmed">{preview.data.to.name} has no earlier term to copy from.</Text>
      ) : (
        <Card p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <Text>
              From <strong>{preview.data.from.name}</strong> into <strong>{preview.data.to.name}</strong>:{' '}
              {preview.data.classes.length} {preview.data.classes.length === 1 ? 'class' : 'classes'}
            </Text>
            <CopyList rows={apply.data?.to.id === id ? apply.data.classes : preview.data.classes} />
            <Group justify="flex-end">
              <Button onClick={() => apply.mutate()} loading={apply.isPending} disabled={toCopy === 0}>
                {toCopy === 0 ? 'Nothing to copy' : `Copy ${toCopy} ${toCopy === 1 ? 'class' : 'classes'}`}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
