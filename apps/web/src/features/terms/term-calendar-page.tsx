import { Alert, Button, Card, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { type CalendarTermOffer, termCalendarResponse } from '@tumble/contracts/term-calendar';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { resourceKeys } from '../../admin/api/keys';
import { formatDate } from '../../admin/format';
import { ResourceHeader } from '../../admin/resource-header';
import { api } from '../../api/client';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const day = (date: string) => `${WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]} ${formatDate(date)}`;

/** The first message the server gives a field, or its summary. */
const fieldMessage = (response: FormResponse | undefined, name: string) =>
  response?.error?.element.find((e) => e.name === name)?.messages[0];

/**
 * "From the school calendar" (a custom screen of the terms resource): pick a state or territory,
 * a year and a term, see the dates and the public holidays that become closures, and create the
 * term in one step. The new term's closures open next; staff can edit everything afterwards.
 */
export function TermCalendarPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const calendar = useQuery({
    queryKey: ['admin', 'term-calendar'],
    queryFn: ({ signal }) => api.get('/api/v1/admin/term-calendar', { schema: termCalendarResponse, signal }),
  });
  const [region, setRegion] = useState<string | null>(null);
  const [year, setYear] = useState<string | null>(null);
  const [term, setTerm] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (offer: CalendarTermOffer) =>
      api.postForm('/api/v1/admin/term-calendar/create', {
        region: offer.region,
        year: offer.year,
        term: offer.term,
      }),
    onSuccess: (response) => {
      if (!response.valid) return;
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all({ resource: 'terms', parent: null }) });
      if (response.redirect) navigate(response.redirect);
    },
  });

  const crumbs = [{ label: 'Terms', to: '/admin/terms' }, { label: 'From the school calendar' }];
  if (calendar.isPending)
    return (
      <Stack>
        <ResourceHeader title="From the school calendar" crumbs={crumbs} />
        <Loader aria-label="Loading" />
      </Stack>
    );
  if (calendar.isError)
    return (
      <Stack>
        <ResourceHeader title="From the school calendar" crumbs={crumbs} />
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      </Stack>
    );

  const offers = calendar.data.terms;
  const regions = [...new Map(offers.map((o) => [o.region, o.region_name])).entries()];
  const years = [...new Set(offers.map((o) => o.year))];
  const chosen = offers.find(
    (o) => o.region === region && String(o.year) === year && String(o.term) === term,
  );
  const refused = create.data && !create.data.valid ? create.data : undefined;
  const choose = (set: (value: string | null) => void) => (value: string | null) => {
    create.reset();
    set(value);
  };

  return (
    <Stack>
      <ResourceHeader title="From the school calendar" crumbs={crumbs} />
      <Card p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Create a term with the dates of a state’s school term; its public holidays become closures.
          </Text>
          <Group gap="sm" align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
            <Select
              label="State or territory"
              placeholder="Choose"
              data={regions.map(([value, label]) => ({ value, label }))}
              value={region}
              onChange={choose(setRegion)}
              error={fieldMessage(refused, 'region')}
              miw={200}
            />
            <Select
              label="Year"
              placeholder="Choose"
              data={years.map(String)}
              value={year}
              onChange={choose(setYear)}
              error={fieldMessage(refused, 'year')}
              miw={120}
            />
            <Select
              label="Term"
              placeholder="Choose"
              data={[1, 2, 3, 4].map((n) => ({ value: String(n), label: `Term ${n}` }))}
              value={term}
              onChange={choose(setTerm)}
              error={fieldMessage(refused, 'term')}
              miw={120}
            />
          </Group>
        </Stack>
      </Card>

      {chosen ? (
        <Card p={{ base: 'sm', sm: 'md' }} aria-label="Preview">
          <Stack gap="sm">
            <Title order={2} fz="lg">
              {chosen.name} · {chosen.region}
            </Title>
            <Text>
              {day(chosen.start_date)} – {day(chosen.end_date)}
            </Text>
            {chosen.confirmed ? null : (
              <Alert color="yellow" title="Check these dates" role="note">
                These dates follow the department’s usual pattern but were not yet confirmed against its
                published calendar. Check them, then edit the term if they differ.
              </Alert>
            )}
            <Text fw={600}>
              {chosen.closures.length === 0
                ? 'No public holidays fall in this term.'
                : `Closures (${chosen.closures.length}): facility closed`}
            </Text>
            {chosen.closures.length > 0 ? (
              <Table striped aria-label="Closures">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Day</Table.Th>
                    <Table.Th>Reason</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {chosen.closures.map((c) => (
                    <Table.Tr key={c.start_date}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{day(c.start_date)}</Table.Td>
                      <Table.Td>{c.reason}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : null}
            {refused ? (
              <Alert color="red" role="alert">
                {refused.error?.html_message ?? messages.communicationError}
              </Alert>
            ) : null}
            {create.isError ? (
              <Alert color="red" role="alert">
                {messages.communicationError}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button onClick={() => create.mutate(chosen)} loading={create.isPending}>
                Create {chosen.name}
              </Button>
            </Group>
          </Stack>
        </Card>
      ) : (
        <Text c="dimmed" size="sm">
          Choose a state or territory, a year and a term to see its dates and closures.
        </Text>
      )}
    </Stack>
  );
}
