import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type AccountingSettingsInput,
  type AccountingStatus,
  accountingConnectionLabels,
  accountingCsvKinds,
  accountingCsvLabels,
  accountingMessages,
  accountingSettingsInput,
  accountingSyncKindLabels,
} from '@tumble/contracts/accounting';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { useConnectionReturn } from '../../components/connection-return';
import { useFileDownload } from '../../components/file-download';
import { type FieldErrors, fieldErrorsFromZod } from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import {
  csvPath,
  useAccountingStatus,
  useConnectXero,
  useDisconnectXero,
  useSaveAccountingSettings,
  useSyncNow,
} from './accounting-api';

function failureText(error: unknown): string {
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';

/** Today and the first of this month, in the browser's calendar (the usual export range). */
function thisMonth(): { from: string; to: string } {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const to = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return { from: `${to.slice(0, 8)}01`, to };
}

/** The Xero connection: its state in plain words, connect/disconnect, "Sync now", what went wrong. */
function ConnectionCard({ status }: { status: AccountingStatus }) {
  const connect = useConnectXero();
  const disconnect = useDisconnectXero();
  const sync = useSyncNow();
  const { connection } = status;
  const connected = connection.state === 'connected';
  const failure = connect.error ?? disconnect.error ?? sync.error;
  return (
    <Card>
      <Stack gap="sm">
        <Group justify="space-between" align="center">
          <Title order={2} fz="lg">
            Xero
          </Title>
          <Badge
            color={connected ? 'teal' : connection.state === 'expired' ? 'orange' : 'gray'}
            variant="light"
          >
            {accountingConnectionLabels[connection.state]}
          </Badge>
        </Group>
        {connected ? (
          <Text size="sm">
            Connected to <strong>{connection.organisation ?? 'your Xero organisation'}</strong> since{' '}
            {when(connection.connected_at)}. New invoices, credit notes, payments and refunds are sent every
            minute.
          </Text>
        ) : connection.available ? (
          <Text size="sm">
            Connect your Xero organisation to send invoices, credit notes, payments and refunds to Xero as
            they happen.{' '}
            {connection.state === 'expired' ? 'Xero no longer accepts the connection: connect again.' : ''}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {accountingMessages.notAvailable}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          Last sync: {when(status.last_sync_at)} · {status.synced} records in Xero
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
        {sync.data && !sync.data.failed ? (
          <Alert color="teal" role="status">
            {sync.data.message}
          </Alert>
        ) : null}
        <Group gap="xs">
          {connected ? (
            <>
              <Button onClick={() => sync.mutate()} loading={sync.isPending}>
                Sync now
              </Button>
              <Button variant="default" onClick={() => disconnect.mutate()} loading={disconnect.isPending}>
                Disconnect
              </Button>
            </>
          ) : connection.available ? (
            <Button onClick={() => connect.mutate()} loading={connect.isPending}>
              Connect to Xero
            </Button>
          ) : null}
        </Group>
        {status.failed.length > 0 ? (
          <Table.ScrollContainer minWidth={480}>
            <Table aria-label="Not sent to Xero">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Record</Table.Th>
                  <Table.Th>Why it was not sent</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {status.failed.map((item) => (
                  <Table.Tr key={`${item.kind}-${item.label}-${item.updated_at}`}>
                    <Table.Td>
                      {accountingSyncKindLabels[item.kind]} {item.label}
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

type Values = Omit<AccountingSettingsInput, 'sync_from'> & { sync_from: string };

const fields: { name: keyof Omit<Values, 'sync_from'>; label: string; description: string }[] = [
  { name: 'sales_account_code', label: 'Sales account', description: 'Classes, events and parties with GST' },
  {
    name: 'gst_free_sales_account_code',
    label: 'GST-free sales account',
    description: 'GST-free class types',
  },
  {
    name: 'card_account_code',
    label: 'Card payments account',
    description: 'The bank or clearing account card payments land in',
  },
  {
    name: 'cash_account_code',
    label: 'Cash and transfer account',
    description: 'Cash, bank transfer, EFTPOS and vouchers',
  },
  {
    name: 'refund_account_code',
    label: 'Refunds account',
    description: 'The bank or clearing account refunds are paid from',
  },
  { name: 'gst_tax_type', label: 'GST tax type', description: 'GST on Income: OUTPUT' },
  { name: 'gst_free_tax_type', label: 'GST-free tax type', description: 'GST Free Income: EXEMPTOUTPUT' },
  { name: 'no_gst_tax_type', label: 'Not registered for GST', description: 'BAS Excluded: BASEXCLUDED' },
];

/** The account codes and tax types the ledger is mapped to (Australian defaults). */
function MappingForm({ status }: { status: AccountingStatus }) {
  const save = useSaveAccountingSettings();
  const [values, setValues] = useState<Values>({
    ...status.settings,
    sync_from: status.settings.sync_from ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = accountingSettingsInput.safeParse({ ...values, sync_from: values.sync_from || null });
    if (!parsed.success) return setErrors(fieldErrorsFromZod(parsed.error));
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () =>
        notifications.show({ color: 'teal', title: 'Saved', message: accountingMessages.saved }),
    });
  }

  return (
    <Card>
      <form onSubmit={submit} noValidate aria-label="Account codes and tax types">
        <Stack gap="md">
          <Title order={2} fz="lg">
            Account codes and tax types
          </Title>
          {save.isError ? (
            <Alert color="red" role="alert">
              {failureText(save.error)}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {fields.map((field) => (
              <TextInput
                key={field.name}
                label={field.label}
                description={field.description}
                name={field.name}
                value={values[field.name]}
                onChange={(event) => {
                  const { value } = event.currentTarget;
                  setValues((v) => ({ ...v, [field.name]: value }));
                }}
                error={errors[field.name]}
              />
            ))}
            <TextInput
              type="date"
              label="Send records from"
              description="Older invoices and payments are left out of the sync"
              name="sync_from"
              value={values.sync_from}
              onChange={(event) => {
                const { value } = event.currentTarget;
                setValues((v) => ({ ...v, sync_from: value }));
              }}
              error={errors.sync_from}
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** CSV files for Xero's import screens, for any date range (works without a connection). */
function CsvCard() {
  const [range, setRange] = useState(thisMonth);
  const files = useFileDownload();
  const invalid = !range.from || !range.to || range.from > range.to;
  return (
    <Card>
      <Stack gap="md">
        <Title order={2} fz="lg">
          Download CSV
        </Title>
        <Text size="sm" c="dimmed">
          Files in Xero's import format: invoices and credit notes for Business › Invoices › Import (amounts
          include GST), payments and refunds as a bank statement to import into the bank account.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            type="date"
            label="From"
            name="from"
            value={range.from}
            onChange={(e) => {
              const { value } = e.currentTarget;
              setRange((r) => ({ ...r, from: value }));
            }}
          />
          <TextInput
            type="date"
            label="To"
            name="to"
            value={range.to}
            onChange={(e) => {
              const { value } = e.currentTarget;
              setRange((r) => ({ ...r, to: value }));
            }}
            error={
              range.from && range.to && range.from > range.to
                ? 'The start date must be on or before the end date.'
                : undefined
            }
          />
        </SimpleGrid>
        {files.failure ? (
          <Alert color="red" role="alert">
            {files.failure}
          </Alert>
        ) : null}
        <Group gap="xs">
          {accountingCsvKinds.map((kind) => {
            const file = csvPath(kind, range.from, range.to);
            return (
              <Button
                key={kind}
                variant="default"
                disabled={invalid}
                loading={files.pendingPath === file}
                onClick={() => files.download(file, `xero-${kind}-${range.from}-to-${range.to}.csv`)}
              >
                {accountingCsvLabels[kind]}
              </Button>
            );
          })}
        </Group>
      </Stack>
    </Card>
  );
}

const announceXero = (connected: string) =>
  connected === '1' ? { title: 'Xero', message: accountingMessages.connected } : null;

/** SPEC integrations/accounting: /admin/integrations/accounting. */
export function AccountingPage() {
  const status = useAccountingStatus();
  const returnAlert = useConnectionReturn(announceXero);

  return (
    <Stack gap="lg">
      <PageTitle
        title="Accounting"
        description="Send invoices, credit notes, payments and refunds to Xero, or download them as CSV."
      />
      {returnAlert}
      {status.isPending ? (
        <PageLoader />
      ) : status.isError ? (
        <Alert color="red" role="alert">
          {failureText(status.error)}
        </Alert>
      ) : (
        <>
          <ConnectionCard status={status.data} />
          <CsvCard />
          <MappingForm key={JSON.stringify(status.data.settings)} status={status.data} />
        </>
      )}
    </Stack>
  );
}
