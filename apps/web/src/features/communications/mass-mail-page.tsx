import { Alert, Button, Card, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { ServerHtml } from '../../components/server-html';
import { cancelMassMail, useMassMail } from './communications-api';
import { MassMailStatusBadge, RecipientStatusBadge } from './mass-mail-status';

/** One mass mail: its progress (sent of total) and each family's delivery state, polled while sending. */
export function MassMailPage() {
  const id = Number(useParams().id);
  const mail = useMassMail(id);
  const client = useQueryClient();
  const [cancelError, setCancelError] = useState<string>();
  if (mail.isError)
    return (
      <Alert color="red">{mail.error instanceof ApiError ? mail.error.serverMessage : 'Not found.'}</Alert>
    );
  if (!mail.data) return <PageLoader />;
  const m = mail.data;
  const percent = m.total ? Math.round((100 * m.sent) / m.total) : 0;
  return (
    <Stack gap="lg">
      <PageTitle
        title={m.subject}
        description={
          m.marketing ? 'Marketing (with an unsubscribe link)' : 'Service notice (to every matched family)'
        }
        actions={
          <Button component={Link} to="/admin/communications" variant="default">
            All mass mails
          </Button>
        }
      />
      <Card withBorder padding="md">
        <Stack gap="xs">
          <Group gap="sm">
            <MassMailStatusBadge status={m.status} />
            {m.send_at_local ? (
              <Text size="sm" c="dimmed">
                {m.status === 'scheduled' ? 'Sends' : 'Started'} {m.send_at_local}
              </Text>
            ) : null}
          </Group>
          <Text size="sm" data-testid="progress-text">
            {m.sent} of {m.total} sent{m.failed ? `, ${m.failed} failed` : ''}
            {m.queued ? `, ${m.queued} queued` : ''}
          </Text>
          {/* The name goes on the section, which carries role="progressbar" (WCAG 4.1.2). */}
          <Progress.Root size="lg">
            <Progress.Section value={percent} aria-label={`${m.sent} of ${m.total} sent`} />
          </Progress.Root>
          {m.attachment_name ? <Text size="sm">Attachment: {m.attachment_name}</Text> : null}
          {cancelError ? <Alert color="red">{cancelError}</Alert> : null}
          {m.status === 'scheduled' || m.status === 'sending' ? (
            <Group>
              <Button
                variant="light"
                color="red"
                onClick={async () => {
                  try {
                    await cancelMassMail(id);
                    await client.invalidateQueries({ queryKey: ['communications', 'mass-mails'] });
                  } catch (error) {
                    setCancelError(error instanceof ApiError ? error.serverMessage : String(error));
                  }
                }}
              >
                {m.status === 'scheduled' ? 'Cancel' : 'Stop sending'}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Card>
      <Card withBorder padding="md">
        <ServerHtml html={m.body} />
      </Card>
      {m.recipients.length > 0 ? (
        <Table.ScrollContainer minWidth={360}>
          <Table striped aria-label="Recipients">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Family</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {m.recipients.map((r) => (
                <Table.Tr key={r.parent_id}>
                  <Table.Td>
                    <Text size="sm">{r.name}</Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {r.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <RecipientStatusBadge status={r.status} />
                    {r.reason ? (
                      <Text size="xs" c="red">
                        {r.reason}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
