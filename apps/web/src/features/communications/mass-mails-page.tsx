import { Anchor, Button, Card, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useMassMails } from './communications-api';
import { MassMailStatusBadge } from './mass-mail-status';

/** The company's mass mails, newest first, each with its progress. */
export function MassMailsPage() {
  const mails = useMassMails();
  if (!mails.data) return <PageLoader />;
  const list = mails.data.mass_mails;
  return (
    <Stack gap="lg">
      <PageTitle
        title="Mass mail"
        description="Mail families by class, term, event, age, balance and more."
        actions={
          <Button component={Link} to="/admin/communications/new">
            New mass mail
          </Button>
        }
      />
      {list.length === 0 ? (
        <Card withBorder padding="lg">
          <Text c="dimmed">No mass mail yet.</Text>
        </Card>
      ) : (
        <Table striped aria-label="Mass mails">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Mail</Table.Th>
              <Table.Th>Sent</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((mail) => (
              <Table.Tr key={mail.id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`/admin/communications/${mail.id}`}
                    style={{ wordBreak: 'break-word' }}
                  >
                    {mail.subject}
                  </Anchor>
                  <Group gap="xs" mt={4}>
                    <MassMailStatusBadge status={mail.status} />
                    <Text size="xs" c="dimmed">
                      {mail.send_at_local ?? ''}
                      {mail.marketing ? '' : ' · Service notice'}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td w={110}>
                  <Text size="sm">
                    {mail.sent} of {mail.total}
                    {mail.failed ? `, ${mail.failed} failed` : ''}
                  </Text>
                  {/* The name goes on the section, which carries role="progressbar" (WCAG 4.1.2). */}
                  <Progress.Root size="sm">
                    <Progress.Section
                      value={mail.total ? (100 * mail.sent) / mail.total : 0}
                      aria-label={`${mail.sent} of ${mail.total} sent`}
                    />
                  </Progress.Root>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
