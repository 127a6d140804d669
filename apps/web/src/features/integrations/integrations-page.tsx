import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  type IntegrationKind,
  type IntegrationState,
  type IntegrationSummary,
  integrationStateLabels,
} from '@tumble/contracts/integrations';
import { messages } from '@tumble/contracts/messages';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useIntegrations } from './integrations-api';

const stateColours: Record<IntegrationState, string> = {
  connected: 'teal',
  not_connected: 'gray',
  not_configured: 'gray',
  error: 'orange',
};

/** What each connection is to, on its button ("Connect Mailchimp", "Manage calendar feeds"). */
const services: Record<IntegrationKind, string> = {
  accounting: 'Xero',
  mailing: 'Mailchimp',
  google: 'calendar feeds',
  payments: 'payments',
};
const setUp: Record<IntegrationKind, string> = {
  accounting: 'Connect',
  mailing: 'Connect',
  google: 'Set up',
  payments: 'Set up',
};

export const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';

/** One connection: its state, whom it is connected to, last sync, the last error, and its own page. */
function IntegrationCard({ item }: { item: IntegrationSummary }) {
  const connected = item.state === 'connected' || item.state === 'error';
  return (
    <Card component="section" aria-label={item.name}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="center" wrap="nowrap">
          <Title order={2} fz="lg">
            {item.name}
          </Title>
          <Badge color={stateColours[item.state]} variant="light">
            {integrationStateLabels[item.state]}
          </Badge>
        </Group>
        <Text size="sm">{item.description}</Text>
        {item.detail ? (
          <Text size="sm" fw={500}>
            {item.detail}
          </Text>
        ) : null}
        {connected && item.kind !== 'payments' && item.kind !== 'google' ? (
          <Text size="sm" c="dimmed">
            Last sync: {when(item.last_sync_at)}
          </Text>
        ) : null}
        {item.last_error ? (
          <Alert color="orange" title="Last error" p="xs">
            {item.last_error}
          </Alert>
        ) : null}
        {item.page ? (
          <Group mt="auto" pt="xs">
            <Button component={Link} to={item.page} variant={connected ? 'default' : 'filled'} size="sm">
              {connected ? `Manage ${services[item.kind]}` : `${setUp[item.kind]} ${services[item.kind]}`}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/** SPEC integrations: /admin/integrations, every outside connection of the company on one page. */
export function IntegrationsPage() {
  const integrations = useIntegrations();
  return (
    <Stack gap="lg">
      <PageTitle
        title="Integrations"
        description="The outside services the company is connected to. Connect or disconnect each on its own page."
      />
      {integrations.isPending ? (
        <PageLoader />
      ) : integrations.isError ? (
        <Alert color="red" role="alert">
          {integrations.error instanceof ApiError
            ? (integrations.error.serverMessage ?? messages.communicationError)
            : messages.communicationError}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {integrations.data.integrations.map((item) => (
            <IntegrationCard key={item.kind} item={item} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
