import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type CustomerAction,
  type CustomerDetail,
  companyStatusLabels,
  SUPPORT_REASON_REQUIRED,
  SUSPEND_REASON_REQUIRED,
} from '@tumble/contracts/operators';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDate, formatDateTime, formatMoney } from '../../admin/format';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useCustomer, useCustomerAction, useOpenAsSupport } from './api';
import { formatBytes, statusColours } from './format';

const actionLabels: Record<CustomerAction, string> = {
  approve: 'Approve',
  decline: 'Decline',
  suspend: 'Suspend',
  reactivate: 'Reactivate',
};

/** Which actions a company in each status offers. */
const actionsFor: Record<CustomerDetail['status'], CustomerAction[]> = {
  pending: ['approve', 'decline'],
  declined: ['approve'],
  active: ['suspend'],
  suspended: ['reactivate'],
};

const doneMessages: Record<CustomerAction, string> = {
  approve: 'Approved: the company’s administrator has been emailed and can sign in.',
  decline: 'Declined: the company’s administrator has been emailed.',
  suspend: 'Suspended: bookings are closed and staff cannot sign in. Nothing was deleted.',
  reactivate: 'Reactivated: bookings are open and staff can sign in again.',
};

/** The history's actions (the audit log's action names) in words. */
const historyLabels: Record<string, string> = {
  approve: 'Approved',
  decline: 'Declined',
  suspend: 'Suspended',
  reactivate: 'Reactivated',
  'support-open': 'Opened as support',
  'support-end': 'Support ended',
};

/** What asks for a reason: suspending and opening as support must have one; declining may. */
type Prompt = { kind: 'suspend' | 'decline' | 'support' } | null;

/** /admin/customers/:id: one company with Approve, Decline, Suspend, Reactivate and Open as support. */
export function CustomerPage() {
  const id = Number(useParams().id);
  const customer = useCustomer(id);
  const action = useCustomerAction(id);
  const support = useOpenAsSupport(id);
  const [prompt, setPrompt] = useState<Prompt>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  if (customer.isPending) return <PageLoader />;
  if (customer.isError) {
    return (
      <Alert color="red" role="alert">
        {customer.error.message}
      </Alert>
    );
  }
  const c = customer.data;

  function run(kind: CustomerAction, why?: string) {
    action.mutate(
      { action: kind, ...(why ? { reason: why } : {}) },
      {
        onSuccess: () => {
          setPrompt(null);
          notifications.show({ color: 'teal', message: doneMessages[kind] });
        },
      },
    );
  }

  function ask(kind: 'suspend' | 'decline' | 'support') {
    setReason('');
    setReasonError(null);
    setPrompt({ kind });
  }

  function submitReason(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!prompt) return;
    const why = reason.trim();
    if (prompt.kind === 'support') {
      if (!why) return setReasonError(SUPPORT_REASON_REQUIRED);
      support.mutate(why);
      return;
    }
    if (prompt.kind === 'suspend' && !why) return setReasonError(SUSPEND_REASON_REQUIRED);
    run(prompt.kind, why || undefined);
  }

  const failure = action.error ?? support.error;

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/admin/customers" size="sm">
        ← Customers
      </Anchor>
      <PageTitle
        title={c.name}
        description={`Signed up ${formatDate(c.created_at)}`}
        actions={
          <Group gap="xs">
            {actionsFor[c.status].map((kind) => (
              <Button
                key={kind}
                color={kind === 'suspend' || kind === 'decline' ? 'red' : 'teal'}
                variant={kind === 'suspend' || kind === 'decline' ? 'light' : 'filled'}
                loading={action.isPending && action.variables?.action === kind}
                onClick={() => (kind === 'suspend' || kind === 'decline' ? ask(kind) : run(kind))}
              >
                {actionLabels[kind]}
              </Button>
            ))}
            <Button variant="default" onClick={() => ask('support')}>
              Open as support
            </Button>
          </Group>
        }
      />
      {failure && !prompt ? (
        <Alert color="red" role="alert">
          {failure.message}
        </Alert>
      ) : null}
      <Group gap="sm">
        <Badge color={statusColours[c.status]} variant="light" size="lg">
          {companyStatusLabels[c.status]}
        </Badge>
        {c.status_reason ? <Text size="sm">Reason: {c.status_reason}</Text> : null}
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Card withBorder padding="lg">
          <Text fw={600} mb="xs">
            Plan
          </Text>
          <Text>{c.plan ?? '—'}</Text>
          <Text size="sm" c="dimmed">
            {c.subscription_status ? `Subscription ${c.subscription_status}` : 'No subscription'}
            {c.trial_ends_at ? ` · trial ends ${formatDate(c.trial_ends_at)}` : ''}
          </Text>
        </Card>
        <Card withBorder padding="lg">
          <Text fw={600} mb="xs">
            Contact
          </Text>
          <Text>{c.contact.name ?? '—'}</Text>
          <Text size="sm">{c.contact.email ?? ''}</Text>
          <Text size="sm">{c.contact.phone ?? ''}</Text>
          <Anchor
            href={`/birthday-party/booking/?authhash=${encodeURIComponent(c.authhash)}`}
            target="_blank"
            size="sm"
          >
            Public party booking page
          </Anchor>
        </Card>
      </SimpleGrid>

      <Card withBorder padding="lg">
        <Text fw={600} mb="sm">
          Usage
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="md">
          <Figure label="Children" value={String(c.usage.children)} />
          <Figure label="Staff users" value={String(c.usage.staff)} />
          <Figure label="Bookings this month" value={String(c.usage.bookings_this_month)} />
          <Figure label="Revenue this month" value={formatMoney(c.usage.revenue_this_month, c.currency)} />
          <Figure label="File storage" value={formatBytes(c.usage.storage_bytes)} />
        </SimpleGrid>
      </Card>

      <Card withBorder padding="lg">
        <Text fw={600} mb="sm">
          History
        </Text>
        {c.history.length === 0 ? (
          <Text c="dimmed" size="sm">
            Nothing yet.
          </Text>
        ) : (
          // Stacked rather than a table, so a phone reads each entry whole.
          <Stack gap="sm">
            {c.history.map((h) => (
              <Stack
                key={`${h.at}-${h.action}`}
                gap={2}
                pb="sm"
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              >
                <Group gap="xs" justify="space-between">
                  <Text fw={600}>{historyLabels[h.action] ?? h.action}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(h.at)} · {h.actor}
                  </Text>
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {h.summary}
                </Text>
              </Stack>
            ))}
          </Stack>
        )}
      </Card>

      <Modal
        opened={prompt !== null}
        onClose={() => setPrompt(null)}
        title={
          prompt?.kind === 'support'
            ? `Open ${c.name} as support`
            : prompt?.kind === 'suspend'
              ? `Suspend ${c.name}`
              : `Decline ${c.name}`
        }
      >
        <form onSubmit={submitReason} noValidate>
          <Stack gap="md">
            <Text size="sm">
              {prompt?.kind === 'support'
                ? 'You will act inside this company as its administrator for one hour. The reason is recorded in its audit log.'
                : prompt?.kind === 'suspend'
                  ? 'Bookings close and staff cannot sign in until you reactivate it. Nothing is deleted. The administrator is emailed the reason.'
                  : 'The administrator is emailed; a reason helps them.'}
            </Text>
            {failure ? (
              <Alert color="red" role="alert">
                {failure.message}
              </Alert>
            ) : null}
            <Textarea
              label="Reason"
              withAsterisk={prompt?.kind !== 'decline'}
              autosize
              minRows={2}
              maxLength={500}
              value={reason}
              error={reasonError}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(null);
              }}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPrompt(null)}>
                Cancel
              </Button>
              <Button
                type="submit"
                color={prompt?.kind === 'support' ? 'blue' : 'red'}
                loading={action.isPending || support.isPending}
              >
                {prompt?.kind === 'support'
                  ? 'Open as support'
                  : prompt?.kind === 'suspend'
                    ? 'Suspend'
                    : 'Decline'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="lg">
        {value}
      </Text>
    </Stack>
  );
}
