import { Alert, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { PaymentConnection } from '@tumble/contracts/payment-connections';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useConnectionReturn } from '../../components/connection-return';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { when } from '../integrations/integrations-page';
import {
  useChooseSquareLocation,
  useConnectProvider,
  useDisconnectProvider,
  usePaymentConnections,
  useSquareLocations,
} from './payment-connections-api';

function failureText(error: unknown): string {
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}

const names = { stripe: 'Stripe', square: 'Square' } as const;
const stateLabels: Record<PaymentConnection['state'], string> = {
  not_connected: 'Not connected',
  connected: 'Connected',
  needs_location: 'Choose a location',
  expired: 'Connection expired',
};
const stateColours: Record<PaymentConnection['state'], string> = {
  not_connected: 'gray',
  connected: 'teal',
  needs_location: 'orange',
  expired: 'orange',
};
const blurbs = {
  stripe: 'Connect your own Stripe account: card payments are made to it, and Stripe pays you out directly.',
  square: 'Connect your own Square account and pick the location payments are taken at.',
} as const;

/** Square connected: the location card payments are taken at (Square's payment links need one). */
function SquareLocation({ connection }: { connection: PaymentConnection }) {
  const locations = useSquareLocations(true);
  const choose = useChooseSquareLocation();
  const [picked, setPicked] = useState<string | null>(connection.location_id);
  if (locations.isPending) return <PageLoader />;
  if (locations.isError) {
    return (
      <Alert color="red" role="alert">
        {failureText(locations.error)}
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Select
        label="Location"
        placeholder="Choose a location"
        data={locations.data.locations.map((l) => ({ value: l.id, label: l.name }))}
        value={picked}
        onChange={setPicked}
        allowDeselect={false}
      />
      {choose.error ? (
        <Alert color="red" role="alert">
          {failureText(choose.error)}
        </Alert>
      ) : null}
      <Group>
        <Button
          size="sm"
          disabled={!picked || picked === connection.location_id}
          loading={choose.isPending}
          onClick={() => picked && choose.mutate(picked)}
        >
          Save location
        </Button>
      </Group>
    </Stack>
  );
}

function ConnectionCard({ connection, isMethod }: { connection: PaymentConnection; isMethod: boolean }) {
  const connect = useConnectProvider();
  const disconnect = useDisconnectProvider();
  const name = names[connection.provider];
  const linked = connection.state !== 'not_connected';
  const failure = connect.error ?? disconnect.error;
  return (
    <Card component="section" aria-label={name}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="lg">
            {name}
          </Title>
          <Badge color={stateColours[connection.state]} variant="light">
            {stateLabels[connection.state]}
          </Badge>
        </Group>
        <Text size="sm">{blurbs[connection.provider]}</Text>
        {isMethod ? (
          <Text size="sm" c="dimmed">
            Parents pay through {name} at checkout (your default payment method).
          </Text>
        ) : null}
        {linked ? (
          <Text size="sm">
            Account <strong>{connection.account_id}</strong>
            {connection.location_name ? (
              <>
                {' '}
                at <strong>{connection.location_name}</strong>
              </>
            ) : null}
            , connected {when(connection.connected_at)}.
          </Text>
        ) : null}
        {connection.last_error ? (
          <Alert color="orange" role="alert">
            {connection.last_error}
          </Alert>
        ) : null}
        {failure ? (
          <Alert color="red" role="alert">
            {failureText(failure)}
          </Alert>
        ) : null}
        {connection.provider === 'square' &&
        (connection.state === 'connected' || connection.state === 'needs_location') ? (
          <SquareLocation connection={connection} />
        ) : null}
        {!connection.available && !linked ? (
          <Text size="sm" c="dimmed">
            Connecting your own {name} account is not set up on this installation.
          </Text>
        ) : (
          <Group>
            {connection.state !== 'connected' && connection.state !== 'needs_location' ? (
              <Button
                size="sm"
                loading={connect.isPending}
                onClick={() => connect.mutate(connection.provider)}
              >
                {connection.state === 'expired' ? `Connect ${name} again` : `Connect ${name}`}
              </Button>
            ) : null}
            {linked ? (
              <Button
                size="sm"
                variant="default"
                color="red"
                loading={disconnect.isPending}
                onClick={() => disconnect.mutate(connection.provider)}
              >
                Disconnect
              </Button>
            ) : null}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

const announceProvider = (connected: string) =>
  connected === 'stripe' || connected === 'square'
    ? { title: names[connected], message: `${names[connected]} is connected.` }
    : null;

/** /admin/integrations/payments: the company's own Stripe or Square account (issue 18). */
export function PaymentConnectionsPage() {
  const status = usePaymentConnections();
  const returnAlert = useConnectionReturn(announceProvider);

  return (
    <Stack gap="lg">
      <PageTitle
        title="Payment accounts"
        description="Parents' card payments go straight into your own Stripe or Square account. Without one, payments use this installation's account."
      />
      {returnAlert}
      {status.isPending ? (
        <PageLoader />
      ) : status.isError ? (
        <Alert color="red" role="alert">
          {failureText(status.error)}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {status.data.connections.map((connection) => (
            <ConnectionCard
              key={connection.provider}
              connection={connection}
              isMethod={status.data.payment_method === connection.provider}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
