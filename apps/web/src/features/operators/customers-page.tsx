import { Alert, Anchor, Badge, Card, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { companyStatusLabels } from '@tumble/contracts/operators';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate, formatMoney } from '../../admin/format';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useCustomers } from './api';
import { formatBytes, statusColours } from './format';

/** /admin/customers (SPEC customers): every company of the installation, for its operators. */
export function CustomersPage() {
  const customers = useCustomers();
  const [q, setQ] = useState('');
  if (customers.isPending) return <PageLoader />;
  if (customers.isError) {
    return (
      <Alert color="red" role="alert">
        {customers.error.message}
      </Alert>
    );
  }
  const needle = q.trim().toLowerCase();
  const rows = customers.data.customers.filter(
    (c) =>
      !needle || c.name.toLowerCase().includes(needle) || c.contact.email?.toLowerCase().includes(needle),
  );
  const pending = customers.data.customers.filter((c) => c.status === 'pending').length;

  return (
    <Stack gap="lg">
      <PageTitle
        title="Customers"
        description="Every company on this installation: status, plan, usage this month and contact."
      />
      {pending > 0 ? (
        <Alert color="yellow" title="Waiting for approval">
          {pending === 1 ? '1 company is' : `${pending} companies are`} waiting for approval.
        </Alert>
      ) : null}
      <TextInput
        label="Search"
        placeholder="Company or email"
        value={q}
        onChange={(event) => setQ(event.currentTarget.value)}
        maw={360}
      />
      {rows.length === 0 ? (
        <Text c="dimmed">No companies.</Text>
      ) : (
        <>
          {/* A table on a wide screen; cards on a phone, where eight columns would not fit. */}
          <Card withBorder padding={0} visibleFrom="md">
            <Table.ScrollContainer minWidth={900}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th style={{ minWidth: 180 }}>Company</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Plan</Table.Th>
                    <Table.Th>Trial ends</Table.Th>
                    <Table.Th ta="right">Children</Table.Th>
                    <Table.Th ta="right">Staff</Table.Th>
                    <Table.Th ta="right">Bookings (month)</Table.Th>
                    <Table.Th ta="right">Revenue (month)</Table.Th>
                    <Table.Th ta="right">Files</Table.Th>
                    <Table.Th>Contact</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/admin/customers/${c.id}`} fw={600}>
                          {c.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Badge
                          color={statusColours[c.status]}
                          variant="light"
                          style={{ minWidth: 'max-content' }}
                        >
                          {companyStatusLabels[c.status]}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{c.plan ?? '—'}</Table.Td>
                      <Table.Td>{c.trial_ends_at ? formatDate(c.trial_ends_at) : '—'}</Table.Td>
                      <Table.Td ta="right">{c.usage.children}</Table.Td>
                      <Table.Td ta="right">{c.usage.staff}</Table.Td>
                      <Table.Td ta="right">{c.usage.bookings_this_month}</Table.Td>
                      <Table.Td ta="right">{formatMoney(c.usage.revenue_this_month, c.currency)}</Table.Td>
                      <Table.Td ta="right">{formatBytes(c.usage.storage_bytes)}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{c.contact.name ?? '—'}</Text>
                        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {c.contact.email ?? ''}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
          <Stack gap="sm" hiddenFrom="md">
            {rows.map((c) => (
              <Card key={c.id} withBorder padding="md" component={Link} to={`/admin/customers/${c.id}`}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={600}>{c.name}</Text>
                  <Badge color={statusColours[c.status]} variant="light" style={{ minWidth: 'max-content' }}>
                    {companyStatusLabels[c.status]}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {c.plan ?? 'No plan'}
                  {c.trial_ends_at ? ` · trial ends ${formatDate(c.trial_ends_at)}` : ''}
                </Text>
                <Text size="sm">
                  {c.usage.children} children · {c.usage.staff} staff · {c.usage.bookings_this_month} bookings
                  · {formatMoney(c.usage.revenue_this_month, c.currency)} this month
                </Text>
                <Text size="xs" c="dimmed">
                  {c.contact.email ?? ''}
                </Text>
              </Card>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
