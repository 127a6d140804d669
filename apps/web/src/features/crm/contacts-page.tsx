import { Anchor, Badge, Button, Card, Chip, Group, Select, Stack, Table, Text } from '@mantine/core';
import type { Contact, ContactsQuery } from '@tumble/contracts/crm';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { SearchInput } from '../../components/search-input';
import { formatDate } from '../booking/booking-format';
import { useContacts } from './crm-api';

/** "Milo (5), Ivy (2019-04-02)": the children as the list shows them. */
export function childrenText(contact: Pick<Contact, 'children'>): string {
  return contact.children
    .map((c) => {
      const about = c.dob ? formatDate(c.dob) : c.age !== null ? `${c.age}` : '';
      return [c.name || 'Child', about ? `(${about})` : ''].filter(Boolean).join(' ');
    })
    .join(', ');
}

export function StageBadge({ contact }: { contact: Pick<Contact, 'stage' | 'stage_kind'> }) {
  const color = contact.stage_kind === 'won' ? 'green' : contact.stage_kind === 'lost' ? 'gray' : 'blue';
  return (
    <Badge color={color} variant="light">
      {contact.stage}
    </Badge>
  );
}

function FollowUp({ contact }: { contact: Contact }) {
  if (!contact.follow_up_on) return <Text size="sm">—</Text>;
  return (
    <Text
      size="sm"
      c={contact.follow_up_due ? 'red' : undefined}
      fw={contact.follow_up_due ? 700 : undefined}
    >
      {formatDate(contact.follow_up_on)}
      {contact.follow_up_due ? ' · due' : ''}
    </Text>
  );
}

/**
 * /admin/contacts (SPEC contacts): enquiries and leads, searched and filtered by stage, source and
 * follow-up due (in the URL), the number due at the top; a lead opens its page.
 */
export function ContactsPage() {
  const [params, setParams] = useSearchParams();
  const query: ContactsQuery = {
    q: params.get('q') ?? '',
    stage: params.get('stage') ?? '',
    source: params.get('source') ?? '',
    due: params.get('due') === 'true' ? 'true' : undefined,
  };
  const contacts = useContacts(query);
  const set = (name: string, value: string | null) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const data = contacts.data;
  return (
    <Stack gap="md">
      <PageTitle
        title="Contacts"
        description="Enquiries and leads: families who are not enrolled yet."
        actions={
          <Group gap="xs">
            <Button component={Link} to="/admin/settings/crm" variant="default">
              Sources and stages
            </Button>
            <Button component={Link} to="/admin/contacts/new">
              Add a lead
            </Button>
          </Group>
        }
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SearchInput
          value={query.q ?? ''}
          onSearch={(q) => set('q', q.trim())}
          placeholder="Name, email, phone or interest"
          w={{ base: '100%', sm: 280 }}
        />
        <Select
          label="Stage"
          placeholder="Any stage"
          clearable
          data={data?.stages.map((s) => s.name) ?? []}
          value={query.stage || null}
          onChange={(v) => set('stage', v)}
          w={{ base: '47%', sm: 170 }}
        />
        <Select
          label="Source"
          placeholder="Any source"
          clearable
          data={data?.sources ?? []}
          value={query.source || null}
          onChange={(v) => set('source', v)}
          w={{ base: '47%', sm: 170 }}
        />
        <Chip checked={query.due === 'true'} onChange={(on) => set('due', on ? 'true' : null)} color="red">
          Follow-up due{data ? ` (${data.due_count})` : ''}
        </Chip>
      </Group>
      {!data ? (
        <PageLoader />
      ) : data.contacts.length === 0 ? (
        <Text c="dimmed">No contacts here yet.</Text>
      ) : (
        <>
          <Card withBorder padding={0} visibleFrom="sm">
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Children</Table.Th>
                  <Table.Th>Interest</Table.Th>
                  <Table.Th>Source</Table.Th>
                  <Table.Th>Stage</Table.Th>
                  <Table.Th>Follow up</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.contacts.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/contacts/${c.id}`} fw={600}>
                        {c.full_name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {c.email ?? c.phone}
                      </Text>
                    </Table.Td>
                    <Table.Td>{childrenText(c) || '—'}</Table.Td>
                    <Table.Td>{c.interest ?? '—'}</Table.Td>
                    <Table.Td>{c.source}</Table.Td>
                    <Table.Td>
                      <StageBadge contact={c} />
                    </Table.Td>
                    <Table.Td>
                      <FollowUp contact={c} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
          <Stack gap="xs" hiddenFrom="sm" data-testid="contact-cards">
            {data.contacts.map((c) => (
              <Card key={c.id} withBorder padding="sm" component={Link} to={`/admin/contacts/${c.id}`}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2}>
                    <Text fw={600}>{c.full_name}</Text>
                    <Text size="xs" c="dimmed">
                      {[c.source, childrenText(c)].filter(Boolean).join(' · ')}
                    </Text>
                    {c.follow_up_on ? <FollowUp contact={c} /> : null}
                  </Stack>
                  <StageBadge contact={c} />
                </Group>
              </Card>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
