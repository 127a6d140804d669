import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  PasswordInput,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type MailingStatus, mailingConnectInput, mailingMessages } from '@tumble/contracts/integrations';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { useConnectionReturn } from '../../components/connection-return';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import {
  useChooseAudience,
  useConnectWithKey,
  useConnectWithLogin,
  useDisconnectMailchimp,
  useMailingAudiences,
  useMailingStatus,
  useSyncMailchimp,
} from './integrations-api';
import { when } from './integrations-page';

function failureText(error: unknown): string {
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}

/** Not connected: paste an API key (checked with Mailchimp before anything is kept), or log in to Mailchimp. */
function ConnectCard({ status }: { status: MailingStatus }) {
  const connect = useConnectWithKey();
  const login = useConnectWithLogin();
  const [apiKey, setApiKey] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = mailingConnectInput.safeParse({ api_key: apiKey });
    if (!parsed.success) return setFieldError(parsed.error.issues[0]?.message);
    setFieldError(undefined);
    connect.mutate(parsed.data, {
      onSuccess: () =>
        notifications.show({ color: 'teal', title: 'Mailchimp', message: mailingMessages.connected }),
    });
  }

  const failure = connect.error ?? login.error;
  return (
    <Card>
      <form onSubmit={submit} noValidate aria-label="Connect Mailchimp">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} fz="lg">
              Mailchimp
            </Title>
            <Badge color="gray" variant="light">
              Not connected
            </Badge>
          </Group>
          <Text size="sm">
            Keep families who agreed to marketing mail in a Mailchimp audience, tagged by their children's
            class types and terms. Families who unsubscribe in Mailchimp are unsubscribed here too.
          </Text>
          {failure ? (
            <Alert color="red" role="alert">
              {failureText(failure)}
            </Alert>
          ) : null}
          <PasswordInput
            label="API key"
            description="In Mailchimp: Profile › Extras › API keys. It ends with your data centre, like -us6."
            name="api_key"
            autoComplete="off"
            value={apiKey}
            onChange={(event) => setApiKey(event.currentTarget.value)}
            error={fieldError}
          />
          <Group gap="xs">
            <Button type="submit" loading={connect.isPending}>
              Connect
            </Button>
            {status.oauth_available ? (
              <Button variant="default" onClick={() => login.mutate()} loading={login.isPending}>
                Connect with Mailchimp login
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The audience families are kept in: chosen from the account's audiences. */
function AudienceCard({ status }: { status: MailingStatus }) {
  const audiences = useMailingAudiences(true);
  const choose = useChooseAudience();
  const [listId, setListId] = useState<string | null>(status.audience?.id ?? null);
  const options = (audiences.data?.audiences ?? []).map((a) => ({
    value: a.id,
    label: `${a.name} (${a.members} subscribed)`,
  }));
  return (
    <Card>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Audience
        </Title>
        {status.audience ? (
          <Text size="sm">
            Families are kept in <strong>{status.audience.name}</strong>.
          </Text>
        ) : (
          <Alert color="blue">{mailingMessages.noAudience}</Alert>
        )}
        {audiences.isError || choose.isError ? (
          <Alert color="red" role="alert">
            {failureText(audiences.error ?? choose.error)}
          </Alert>
        ) : null}
        <Select
          label="Audience"
          placeholder={audiences.isPending ? 'Loading…' : 'Choose an audience'}
          data={options}
          value={listId}
          onChange={setListId}
          allowDeselect={false}
        />
        <Group>
          <Button
            disabled={!listId || listId === status.audience?.id}
            loading={choose.isPending}
            onClick={() =>
              listId &&
              choose.mutate(
                { list_id: listId },
                {
                  onSuccess: () =>
                    notifications.show({
                      color: 'teal',
                      title: 'Mailchimp',
                      message: mailingMessages.audienceSaved,
                    }),
                },
              )
            }
          >
            Save audience
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Connected: who to, the last sync and its trouble, "Sync now", disconnect, the families Mailchimp refused. */
function ConnectionCard({ status }: { status: MailingStatus }) {
  const sync = useSyncMailchimp();
  const disconnect = useDisconnectMailchimp();
  const failure = sync.error ?? disconnect.error;
  return (
    <Card>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            Mailchimp
          </Title>
          <Badge color={status.last_error ? 'orange' : 'teal'} variant="light">
            {status.last_error ? 'Needs attention' : 'Connected'}
          </Badge>
        </Group>
        <Text size="sm">
          Connected to <strong>{status.account ?? 'your Mailchimp account'}</strong>{' '}
          {status.method === 'oauth' ? 'with a Mailchimp login' : 'with an API key'} since{' '}
          {when(status.connected_at)}. Changes are sent every minute.
        </Text>
        <Text size="sm" c="dimmed">
          Last sync: {when(status.last_sync_at)} · {status.subscribed} subscribed · {status.unsubscribed}{' '}
          unsubscribed
        </Text>
        {status.last_error ? (
          <Alert color="orange" title="The last sync had trouble" role="alert">
            {status.last_error}
          </Alert>
        ) : null}
        {failure ? (
          <Alert color="red" role="alert">
            {failureText(failure)}
          </Alert>
        ) : null}
        {sync.data && !sync.data.failed && !status.last_error ? (
          <Alert color="teal" role="status">
            {sync.data.message}
          </Alert>
        ) : null}
        <Group gap="xs">
          <Button onClick={() => sync.mutate()} loading={sync.isPending} disabled={!status.audience}>
            Sync now
          </Button>
          <Button
            variant="default"
            loading={disconnect.isPending}
            onClick={() =>
              disconnect.mutate(undefined, {
                onSuccess: () =>
                  notifications.show({
                    color: 'teal',
                    title: 'Mailchimp',
                    message: mailingMessages.disconnected,
                  }),
              })
            }
          >
            Disconnect
          </Button>
        </Group>
        {status.failed.length > 0 ? (
          <Table.ScrollContainer minWidth={480}>
            <Table aria-label="Not sent to Mailchimp">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Family</Table.Th>
                  <Table.Th>Why it was not sent</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {status.failed.map((item) => (
                  <Table.Tr key={item.email}>
                    <Table.Td>
                      {item.family}
                      <Text size="xs" c="dimmed">
                        {item.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>{item.error}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Card>
  );
}

const announceMailchimp = (connected: string) =>
  connected === '1' ? { title: 'Mailchimp', message: mailingMessages.connected } : null;

/** SPEC integrations/mailing: /admin/integrations/mailing. */
export function MailingPage() {
  const status = useMailingStatus();
  const returnAlert = useConnectionReturn(announceMailchimp);

  return (
    <Stack gap="lg">
      <PageTitle
        title="Mailing"
        description="Families who may receive marketing mail, kept in a Mailchimp audience."
      />
      {returnAlert}
      {status.isPending ? (
        <PageLoader />
      ) : status.isError ? (
        <Alert color="red" role="alert">
          {failureText(status.error)}
        </Alert>
      ) : status.data.state !== 'connected' ? (
        <ConnectCard status={status.data} />
      ) : (
        <>
          <ConnectionCard status={status.data} />
          <AudienceCard key={status.data.audience?.id ?? 'none'} status={status.data} />
        </>
      )}
    </Stack>
  );
}
