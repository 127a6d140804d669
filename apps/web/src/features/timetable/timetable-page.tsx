import { Alert, Box, Button, Card, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import type { TimetableItem, TimetableResponse } from '@tumble/contracts/timetable';
import { Link, useSearchParams } from 'react-router';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { type TimetableBy, useTimetable } from './use-timetable';

const weekday = new Intl.DateTimeFormat('en-AU', { weekday: 'short', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-AU', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
});
const shortDate = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
/** Dates are calendar days (YYYY-MM-DD): read them at UTC midnight so no zone shifts the day. */
const at = (date: string) => new Date(`${date}T00:00:00Z`);
/** 'Mon 23/11'. */
const dayLabel = (date: string) => `${weekday.format(at(date))} ${date.slice(8, 10)}/${date.slice(5, 7)}`;

/** Events and parties have no class type colour: fixed ones keep them apart from classes. */
const KIND_COLOUR = { event: '#868e96', party: '#d6336c' } as const;
const colourOf = (item: TimetableItem) =>
  (item.kind === 'class' ? item.colour : null) ?? KIND_COLOUR[item.kind === 'party' ? 'party' : 'event'];

/** One block: time, title, what it is and who or where, in the class type's colour; opens the session. */
function Block({
  item,
  by,
  showGroup,
  compact,
}: {
  item: TimetableItem;
  by: TimetableBy;
  /** The day list names each block's room (or coach); the grid's rows already do. */
  showGroup?: string;
  /** In a grid cell: a smaller title fits a day's column. */
  compact?: boolean;
}) {
  const colour = colourOf(item);
  const cancelled = item.status === 'cancelled';
  // The grouping already says the room (or coach): name the other one.
  const other = by === 'room' ? item.coach : item.room;
  // "Kinder Gym Monday" already says it is Kinder Gym.
  const detail = item.title.startsWith(item.detail) ? null : item.detail;
  return (
    <Box
      component={Link}
      to={item.link}
      display="block"
      py={4}
      px={6}
      style={{
        borderLeft: `4px solid ${colour}`,
        background: `${colour}1f`,
        borderRadius: 4,
        color: 'inherit',
        textDecoration: 'none',
        opacity: cancelled ? 0.6 : 1,
        // Narrow grid columns: a name longer than the column still breaks rather than overflow.
        overflowWrap: 'break-word',
      }}
    >
      <Text size="xs" fw={600}>
        {item.start_time}–{item.end_time}
      </Text>
      <Text size={compact ? 'xs' : 'sm'} fw={700} td={cancelled ? 'line-through' : undefined} lh={1.25}>
        {item.title}
      </Text>
      {/* Gray 7, not dimmed: the tinted background takes dimmed text under 4.5:1. */}
      <Text size="xs" c="gray.7" lh={1.3}>
        {[detail, showGroup, other].filter(Boolean).join(' · ')}
      </Text>
      {cancelled ? (
        <Text size="xs" fw={700} c="dimmed">
          Cancelled
        </Text>
      ) : null}
      {item.needs_cover ? (
        <Text size="xs" fw={700} c="red.8">
          Needs cover
        </Text>
      ) : null}
    </Box>
  );
}

/** Desktop: a row per room (or coach), a column per day, each cell's blocks in time order. */
function WeekGrid({ data }: { data: TimetableResponse }) {
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table
        withTableBorder
        withColumnBorders
        layout="fixed"
        verticalSpacing={6}
        horizontalSpacing={6}
        aria-label="Timetable"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={110}>{data.by === 'room' ? 'Room' : 'Coach'}</Table.Th>
            {data.days.map((day) => (
              <Table.Th key={day} bg={day === data.today ? 'var(--mantine-color-blue-light)' : undefined}>
                {dayLabel(day)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.groups.map((group) => (
            <Table.Tr key={group.key}>
              <Table.Th scope="row" fw={600} style={{ verticalAlign: 'top' }}>
                {group.label}
              </Table.Th>
              {data.days.map((day) => (
                <Table.Td key={day} style={{ verticalAlign: 'top' }}>
                  <Stack gap={6}>
                    {group.items
                      .filter((item) => item.date === day)
                      .map((item) => (
                        <Block
                          key={`${item.kind}-${item.id}-${item.date}`}
                          item={item}
                          by={data.by}
                          compact
                        />
                      ))}
                  </Stack>
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phone: a card per day with everything on it in time order, each block naming its room (or coach). */
function DayList({ data }: { data: TimetableResponse }) {
  const entries = data.groups.flatMap((group) => group.items.map((item) => ({ item, group: group.label })));
  return (
    <Stack gap="sm">
      {data.days.map((day) => {
        const items = entries
          .filter(({ item }) => item.date === day)
          .sort((a, b) => a.item.starts_at.localeCompare(b.item.starts_at));
        return (
          <Card key={day} padding="sm" component="section" aria-label={longDay.format(at(day))}>
            <Text fw={700} mb={6} c={day === data.today ? 'blue.8' : undefined}>
              {longDay.format(at(day))}
              {day === data.today ? ' · Today' : ''}
            </Text>
            {items.length ? (
              <Stack gap={6}>
                {items.map(({ item, group }) => (
                  <Block
                    key={`${item.kind}-${item.id}-${item.date}`}
                    item={item}
                    by={data.by}
                    showGroup={group}
                  />
                ))}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                Nothing on.
              </Text>
            )}
          </Card>
        );
      })}
    </Stack>
  );
}

/** /admin/timetable: a week of class sessions, events and parties by room or by coach. */
export function TimetablePage() {
  const [params, setParams] = useSearchParams();
  const week = params.get('week') ?? '';
  const by: TimetableBy = params.get('by') === 'coach' ? 'coach' : 'room';
  const narrow = useNarrowScreen();
  const { data, error, isPending } = useTimetable(week, by);
  const go = (next: { week?: string; by?: TimetableBy }) => {
    const target = { week, by, ...next };
    setParams({ ...(target.week ? { week: target.week } : {}), by: target.by });
  };
  const description = data
    ? `${shortDate.format(at(data.week.start))} – ${shortDate.format(at(data.week.end))}`
    : undefined;
  return (
    <Stack gap="md">
      <PageTitle title="Timetable" description={description} />
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Button
            variant="default"
            size="sm"
            disabled={!data}
            onClick={() => data && go({ week: data.week.previous })}
          >
            Previous week
          </Button>
          <Button variant="default" size="sm" onClick={() => go({ week: '' })}>
            This week
          </Button>
          <Button
            variant="default"
            size="sm"
            disabled={!data}
            onClick={() => data && go({ week: data.week.next })}
          >
            Next week
          </Button>
        </Group>
        <SegmentedControl
          aria-label="Group by"
          value={by}
          onChange={(value) => go({ by: value as TimetableBy })}
          data={[
            { value: 'room', label: 'By room' },
            { value: 'coach', label: 'By coach' },
          ]}
        />
      </Group>
      {error ? (
        <Alert color="red" title="The timetable could not be loaded">
          {error.message}
        </Alert>
      ) : isPending || !data ? (
        <PageLoader />
      ) : data.groups.length === 0 ? (
        <Card>
          <Text>Nothing on the timetable this week.</Text>
        </Card>
      ) : narrow ? (
        <DayList data={data} />
      ) : (
        <WeekGrid data={data} />
      )}
    </Stack>
  );
}
