import { Alert, Anchor, Badge, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useSystemEmails } from './email-settings-api';

/**
 * /admin/system-emails (SPEC system-emails): every mail the product sends, what it is and when it
 * goes; each opens its editor. A reworded mail says "Your wording".
 */
export function SystemEmailsPage() {
  const emails = useSystemEmails();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = (emails.data?.emails ?? []).filter(
    (e) => !needle || `${e.label} ${e.sent}`.toLowerCase().includes(needle),
  );
  return (
    <Stack gap="md" maw={960} w="100%" mx="auto">
      <PageTitle
        title="System emails"
        description="Every email we send for you. Open one to change its wording, preview it and send yourself a test; without your wording the default is sent."
        actions={
          <Anchor component={Link} to="/admin/settings/emails" size="sm">
            Sender, reply-to, footer and logo
          </Anchor>
        }
      />
      {emails.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : emails.data ? (
        <>
          <TextInput
            aria-label="Find an email"
            placeholder="Find an email"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {shown.map((email) => (
              <Card key={email.kind} component="li" padding="sm" withBorder>
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Anchor component={Link} to={`/admin/system-emails/${email.kind}`} fw={600}>
                      {email.label}
                    </Anchor>
                    <Text size="sm" c="dimmed">
                      {email.sent}
                    </Text>
                  </Stack>
                  {email.custom ? (
                    <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>
                      Your wording
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
                      Default
                    </Badge>
                  )}
                </Group>
              </Card>
            ))}
          </Stack>
          {shown.length === 0 ? <Text c="dimmed">No email matches “{search}”.</Text> : null}
        </>
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
