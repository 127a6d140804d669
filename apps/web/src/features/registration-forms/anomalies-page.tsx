import {
  Alert,
  Button,
  Card,
  Center,
  Group,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import {
  type AnomalyKind,
  type AnomalyRow,
  anomalyKindLabels,
  anomalyKinds,
} from '@tumble/contracts/registration-forms';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../admin/format';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useAnomalies, useResolveAnomaly } from './anomalies-api';

const PER_PAGE = 25;
type Status = 'open' | 'resolved' | 'all';
const statuses: { value: Status; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' },
];

const errorText = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;

/** Merging two children's records belongs to the students' pages, which do not exist yet. */
const DUPLICATE_NOTE = 'Merging the two records is not available yet: it comes with the students pages.';

/** The anomaly's one action, or who resolved it and when. */
function Outcome({ row }: { row: AnomalyRow }) {
  const resolve = useResolveAnomaly();
  if (!row.action) {
    return (
      <Text size="xs" c="dimmed">
        Resolved{row.resolved_by ? ` by ${row.resolved_by}` : ''}
        {row.resolved_at ? ` · ${formatDateTime(row.resolved_at)}` : ''}
      </Text>
    );
  }
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="light"
        loading={resolve.isPending}
        onClick={() => resolve.mutate(row.id)}
        aria-label={`${row.action.label}: ${row.kind_label}, ${row.child ?? row.family}`}
      >
        {row.action.label}
      </Button>
      {resolve.isError ? (
        <Text size="xs" c="red" role="alert">
          {errorText(resolve.error)}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The kind, in words (a badge would cut "Possible duplicate child" short in the table). */
function KindBadge({ row }: { row: AnomalyRow }) {
  return (
    <Text size="sm" fw={600} c={row.status === 'open' ? 'orange.8' : 'dimmed'}>
      {row.kind_label}
    </Text>
  );
}

function Detail({ row }: { row: AnomalyRow }) {
  return (
    <Stack gap={2}>
      <Text size="sm">{row.detail}</Text>
      {row.kind === 'possible_duplicate_child' && row.status === 'open' ? (
        <Text size="xs" c="dimmed">
          {DUPLICATE_NOTE}
        </Text>
      ) : null}
    </Stack>
  );
}

const who = (row: AnomalyRow) => [row.family, row.child].filter(Boolean).join(' · ');

/**
 * /admin/registration-anomalies (SPEC registration-forms anomalies): submissions that need a staff
 * decision, open ones first, each with its one action.
 */
export function AnomaliesPage() {
  const narrow = useNarrowScreen();
  const [params, setParams] = useSearchParams();
  const status = (statuses.find((s) => s.value === params.get('status'))?.value ?? 'open') as Status;
  const kindParam = params.get('kind');
  const kind = anomalyKinds.includes(kindParam as AnomalyKind) ? (kindParam as AnomalyKind) : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useAnomalies({ status, kind, page, perPage: PER_PAGE });
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  const rows = list.data?.data ?? [];
  return (
    <Stack gap="md" maw={1200} w="100%" mx="auto">
      <PageTitle
        title="Registration anomalies"
        description="Registrations that need your decision. Each has one action; taking it resolves the anomaly and records who did it."
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Status"
          data={statuses}
          value={status}
          onChange={(value) => set({ status: value === 'open' ? null : value, page: null })}
        />
        <Select
          aria-label="Kind"
          placeholder="Every kind"
          clearable
          data={anomalyKinds.map((k) => ({ value: k, label: anomalyKindLabels[k] }))}
          value={kind ?? null}
          onChange={(value) => set({ kind: value, page: null })}
          w={{ base: '100%', xs: 280 }}
        />
        {list.data ? (
          <Text size="sm" c="dimmed" ml={{ xs: 'auto' }}>
            {list.data.open} open
          </Text>
        ) : null}
      </Group>
      <Card p={{ base: 'sm', sm: 'md' }}>
        {list.isError ? (
          <Alert color="red" role="alert">
            {errorText(list.error)}
          </Alert>
        ) : list.isPending ? (
          <PageLoader />
        ) : rows.length === 0 ? (
          <Center py="xl">
            <Text c="dimmed">{status === 'open' ? 'No anomalies need a decision.' : 'No anomalies.'}</Text>
          </Center>
        ) : narrow ? (
          <Stack component="ul" gap="xs" aria-label="Anomalies" p={0} m={0} style={{ listStyle: 'none' }}>
            {rows.map((row) => (
              <Card component="li" key={row.id} withBorder p="sm" data-anomaly={row.id}>
                <Stack gap={6}>
                  <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                    <KindBadge row={row} />
                    <Text size="xs" c="dimmed">
                      {formatDateTime(row.created_at)}
                    </Text>
                  </Group>
                  <Text size="sm" fw={600}>
                    {who(row)}
                  </Text>
                  {row.class_name ? <Text size="sm">{row.class_name}</Text> : null}
                  <Detail row={row} />
                  <Outcome row={row} />
                </Stack>
              </Card>
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={900} type="native" tabIndex={0}>
            <Table verticalSpacing="sm" aria-label="Anomalies">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Anomaly</Table.Th>
                  <Table.Th>Family</Table.Th>
                  <Table.Th>Child</Table.Th>
                  <Table.Th>Class</Table.Th>
                  <Table.Th>Detail</Table.Th>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Action</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id} data-anomaly={row.id}>
                    <Table.Td>
                      <KindBadge row={row} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{row.family}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{row.child ?? '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{row.class_name ?? '—'}</Text>
                    </Table.Td>
                    <Table.Td maw={320}>
                      <Detail row={row} />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text size="sm">{formatDateTime(row.created_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Outcome row={row} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {list.data && list.data.total > PER_PAGE ? (
        <Pagination
          total={Math.ceil(list.data.total / PER_PAGE)}
          value={page}
          onChange={(value) => set({ page: String(value) })}
        />
      ) : null}
    </Stack>
  );
}
