import { Alert, Anchor, Badge, Card, Center, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { SearchInput } from '../../components/search-input';
import { MAIL_PER_PAGE, useMail } from './api/get-mail';
import { usePageQuery } from './use-page-query';

const statusColours = { pending: 'yellow', sent: 'teal', kept: 'blue', failed: 'red' } as const;

export function MailStatus({ status }: { status: keyof typeof statusColours }) {
  return (
    <Badge color={statusColours[status]} variant="light">
      {status}
    </Badge>
  );
}

export function sentAt(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** /admin/mail: the outbox (mail is kept here when no SMTP server is configured). */
export function MailPage() {
  const query = usePageQuery();
  const narrow = useNarrowScreen();
  const mail = useMail({ page: query.page, q: query.q });
  const total = mail.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MAIL_PER_PAGE));
  return (
    <Stack gap="md" maw={1200} w="100%" mx="auto">
      <PageTitle title="Outbox" description="Mail sent (or kept) by Tumble for your company." />
      <Card p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="sm">
          <SearchInput
            value={query.q}
            onSearch={query.setSearch}
            placeholder="Search by recipient or subject"
            w={{ base: '100%', xs: 300 }}
            size="sm"
          />
          {mail.isError ? (
            <Alert color="red" role="alert">
              {mail.error instanceof ApiError
                ? (mail.error.serverMessage ?? messages.communicationError)
                : messages.communicationError}
            </Alert>
          ) : mail.isPending ? (
            <PageLoader />
          ) : mail.data.data.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed">{query.q ? 'No mail matches your search.' : 'No mail yet.'}</Text>
            </Center>
          ) : narrow ? (
            // A phone gets one card per mail instead of a table it must scroll sideways.
            <Stack component="ul" gap="xs" aria-label="Outbox" p={0} m={0} style={{ listStyle: 'none' }}>
              {mail.data.data.map((m) => (
                <Card component="li" key={m.id} withBorder p="sm">
                  <Stack gap={4}>
                    <Anchor component={Link} to={`/admin/mail/${m.id}`} size="sm" fw={500}>
                      {m.subject}
                    </Anchor>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {m.to}
                    </Text>
                    <Group justify="space-between" gap="xs">
                      <MailStatus status={m.status} />
                      <Text size="xs" c="dimmed">
                        {sentAt(m.created_at)}
                      </Text>
                    </Group>
                  </Stack>
                </Card>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={640} type="native">
              <Table striped highlightOnHover verticalSpacing="xs" aria-label="Outbox">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Subject</Table.Th>
                    <Table.Th>To</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {mail.data.data.map((m) => (
                    <Table.Tr key={m.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/admin/mail/${m.id}`} size="sm" fw={500}>
                          {m.subject}
                        </Anchor>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{m.to}</Table.Td>
                      <Table.Td>
                        <MailStatus status={m.status} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{sentAt(m.created_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {total === 1 ? '1 mail' : `${total} mails`}
            </Text>
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={Math.min(query.page, pages)}
                onChange={query.setPage}
                size="sm"
              />
            ) : null}
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
