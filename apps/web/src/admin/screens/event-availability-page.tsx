import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Card,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type AdminAvailabilityResponse, adminAvailabilityResponse } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { formatDate } from '../format';

type Cell = AdminAvailabilityResponse['cells'][number];

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const weekday = (date: string) => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7];

/** GET /api/v1/admin/events/:id/availability. */
export function fetchEventAvailability(
  eventId: number,
  signal?: AbortSignal,
): Promise<AdminAvailabilityResponse> {
  return api.get(`/api/v1/admin/events/${eventId}/availability`, {
    schema: adminAvailabilityResponse,
    signal,
  });
}

function CellView({ cell }: { cell: Cell | undefined }) {
  if (!cell) return <Text c="dimmed">–</Text>;
  const taken = cell.booked + cell.held + cell.invited;
  const color =
    cell.status === 'expired'
      ? 'gray'
      : taken >= cell.capacity
        ? 'red'
        : taken >= cell.capacity * 0.8
          ? 'orange'
          : 'teal';
  return (
    <Stack
      gap={2}
      aria-label={`${cell.booked} booked, ${cell.held} held, ${cell.invited} invited, ${cell.waiting} waiting, capacity ${cell.capacity}`}
    >
      <Badge color={color} variant="light" size="lg">
        {cell.booked}/{cell.capacity}
      </Badge>
      {cell.held > 0 ? <Text size="xs">{cell.held} held</Text> : null}
      {cell.invited > 0 ? <Text size="xs">{cell.invited} invited</Text> : null}
      {cell.waiting > 0 ? (
        <Text size="xs" c="orange.8">
          {cell.waiting} waiting
        </Text>
      ) : null}
      {cell.status === 'expired' ? (
        <Text size="xs" c="dimmed">
          closed
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The staff availability calendar of an event (a custom screen of the events resource): one row
 * per day, one column per session, with booked/capacity and what is held, invited or waiting.
 */
export function EventAvailabilityPage() {
  const id = Number(useParams().id);
  const query = useQuery({
    queryKey: ['admin', 'events', id, 'availability'],
    queryFn: ({ signal }) => fetchEventAvailability(id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (query.isPending) return <Loader role="status" aria-label="Loading" />;
  if (query.isError) return <Alert color="red">{messages.formLoadFailed}</Alert>;
  const { event, sessions, cells } = query.data;
  const byKey = new Map(cells.map((c) => [`${c.session_id}|${c.date}`, c]));
  const dates = [...new Set(cells.map((c) => c.date))].sort();
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={6}>
          <Breadcrumbs
            separator="›"
            separatorMargin={6}
            style={{ flexWrap: 'wrap' }}
            aria-label="Breadcrumbs"
          >
            <Anchor component={Link} to="/admin/events" size="sm">
              Events
            </Anchor>
            <Anchor
              component={Link}
              to={`/admin/events/${event.id}`}
              size="sm"
              style={{ overflowWrap: 'anywhere' }}
            >
              {event.name}
            </Anchor>
            <Text size="sm" c="dimmed">
              Availability
            </Text>
          </Breadcrumbs>
          <Title order={1} fz={{ base: 22, sm: 28 }}>
            Availability
          </Title>
          <Text c="dimmed" size="sm">
            {formatDate(event.start_date)} – {formatDate(event.end_date)}
          </Text>
        </Stack>
        <Group gap="xs">
          <Badge color="teal" variant="light">
            places left
          </Badge>
          <Badge color="orange" variant="light">
            nearly full
          </Badge>
          <Badge color="red" variant="light">
            full
          </Badge>
        </Group>
      </Group>
      <Card withBorder padding={0}>
        {/* Many sessions make the grid wider than a phone: the box takes focus so the keyboard scrolls it. */}
        <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Availability' }}>
          <Table striped highlightOnHover withColumnBorders miw={Math.max(360, 140 + sessions.length * 130)}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                {sessions.map((s) => (
                  <Table.Th key={s.id}>
                    {s.name}
                    <Text size="xs" c="dimmed">
                      {s.start_time}–{s.end_time}
                    </Text>
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {dates.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={sessions.length + 1}>
                    No session days yet: add sessions to the event.
                  </Table.Td>
                </Table.Tr>
              ) : (
                dates.map((date) => (
                  <Table.Tr key={date}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {weekday(date)} {formatDate(date)}
                      </Text>
                    </Table.Td>
                    {sessions.map((s) => (
                      <Table.Td key={s.id}>
                        <CellView cell={byKey.get(`${s.id}|${date}`)} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Card>
    </Stack>
  );
}
