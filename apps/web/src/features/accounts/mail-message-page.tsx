import { Alert, Button, Card, Code, Grid, Group, Stack, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useMailMessage } from './api/get-mail-message';
import { MailStatus, sentAt } from './mail-page';

/**
 * /admin/mail/:id: one mail of the outbox. Its text is shown as preformatted text; its HTML is never
 * injected into the page.
 */
export function MailMessagePage() {
  const { id: raw } = useParams();
  const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const mail = useMailMessage(id);
  const notFound = id === null || (mail.error instanceof ApiError && mail.error.status === 404);
  return (
    <Stack gap="md" maw={960} w="100%" mx="auto">
      <PageTitle
        title={mail.data?.subject ?? 'Mail'}
        actions={
          <Button component={Link} to="/admin/mail" variant="default" size="xs">
            Back to outbox
          </Button>
        }
      />
      {notFound ? (
        <Alert color="red" role="alert">
          This mail does not exist.
        </Alert>
      ) : mail.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : mail.data ? (
        <Card>
          <Stack gap="md">
            <Grid gap="xs">
              <Grid.Col span={{ base: 12, sm: 2 }}>
                <Text size="sm" fw={600} c="dimmed">
                  To
                </Text>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 10 }}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {mail.data.to}
                </Text>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 2 }}>
                <Text size="sm" fw={600} c="dimmed">
                  Subject
                </Text>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 10 }}>
                <Text size="sm">{mail.data.subject}</Text>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 2 }}>
                <Text size="sm" fw={600} c="dimmed">
                  Status
                </Text>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 10 }}>
                <Group gap="xs">
                  <MailStatus status={mail.data.status} />
                  <Text size="sm" c="dimmed">
                    {sentAt(mail.data.created_at)}
                  </Text>
                </Group>
              </Grid.Col>
            </Grid>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="mail-text">
              {mail.data.text}
            </Code>
          </Stack>
        </Card>
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
