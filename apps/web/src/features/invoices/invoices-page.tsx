import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Center,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { invoiceStatuses, invoiceStatusLabels } from '@tumble/contracts/billing';
import { invoiceKindLabels, invoiceKinds } from '@tumble/contracts/invoices';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { formatDate, formatMoney } from '../../admin/format';
import { api } from '../../api/client';
import { PlusIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { SearchInput } from '../../components/search-input';
import { InvoiceStatusBadge } from './invoice-status-badge';
import { failureText, useInvoices } from './invoices-api';

const PER_PAGE = 25;
const statusChoices = invoiceStatuses.map((s) => ({ value: s, label: invoiceStatusLabels[s] }));
const kindChoices = invoiceKinds.map((k) => ({ value: k, label: invoiceKindLabels[k] }));
const termOptions = z.array(z.object({ value: z.union([z.string(), z.number()]), label: z.string() }));

/** The filters live in the URL (?status=&kind=&term=&q=&page=), like the resource lists. */
function useInvoiceFilters() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('page');
  const page = raw && /^\d{1,6}$/.test(raw) && Number(raw) > 0 ? Number(raw) : 1;
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const value = params.get(name);
    return value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
  };
  const term = params.get('term');
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return {
    page,
    q: params.get('q') ?? '',
    status: pick('status', invoiceStatuses),
    kind: pick('kind', invoiceKinds),
    term: term && /^\d{1,10}$/.test(term) ? Number(term) : undefined,
    set,
  };
}

/** /admin/invoices (SPEC invoices): every invoice of the company, newest first. */
export function InvoicesPage() {
  const filters = useInvoiceFilters();
  const invoices = useInvoices({
    page: filters.page,
    per_page: PER_PAGE,
    status: filters.status,
    kind: filters.kind,
    term: filters.term,
    q: filters.q || undefined,
  });
  const terms = useQuery({
    queryKey: ['invoices', 'terms'],
    queryFn: ({ signal }) => api.get('/api/v1/admin/terms/options', { schema: termOptions, signal }),
    retry: false,
  });
  const total = invoices.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const filtered = Boolean(filters.q || filters.status || filters.kind || filters.term);

  return (
    <Stack gap="md" maw={1200} w="100%" mx="auto">
      <PageTitle
        title="Invoices"
        description="Tax invoices to families: term billing, party balances and one-off invoices."
        actions={
          <Button component={Link} to="/admin/invoices/new" size="xs" leftSection={<PlusIcon size={14} />}>
            New invoice
          </Button>
        }
      />
      <Card p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="sm">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <SearchInput
              value={filters.q}
              onSearch={(q) => filters.set({ q: q.trim() || null })}
              placeholder="Search by number or family"
              aria-label="Search invoices"
              w={{ base: '100%', xs: 260 }}
              size="sm"
            />
            <Select
              label="Status"
              placeholder="Any status"
              data={statusChoices}
              value={filters.status ?? null}
              onChange={(status) => filters.set({ status })}
              clearable
              size="sm"
              w={{ base: '100%', xs: 160 }}
            />
            <Select
              label="Kind"
              placeholder="Any kind"
              data={kindChoices}
              value={filters.kind ?? null}
              onChange={(kind) => filters.set({ kind })}
              clearable
              size="sm"
              w={{ base: '100%', xs: 160 }}
            />
            <Select
              label="Term"
              placeholder="Any term"
              data={(terms.data ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
              value={filters.term ? String(filters.term) : null}
              onChange={(term) => filters.set({ term })}
              clearable
              searchable
              size="sm"
              w={{ base: '100%', xs: 200 }}
            />
          </Group>
          {invoices.isError ? (
            <Alert color="red" role="alert">
              {failureText(invoices.error)}
            </Alert>
          ) : invoices.isPending ? (
            <PageLoader />
          ) : invoices.data.data.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed">{filtered ? 'No invoices match these filters.' : 'No invoices yet.'}</Text>
            </Center>
          ) : (
            <Table.ScrollContainer minWidth={340} type="native" tabIndex={0}>
              <Table striped highlightOnHover verticalSpacing="xs" aria-label="Invoices">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Number</Table.Th>
                    <Table.Th>Family</Table.Th>
                    <Table.Th visibleFrom="sm">Issued</Table.Th>
                    <Table.Th visibleFrom="sm">Due</Table.Th>
                    <Table.Th ta="right" visibleFrom="sm">
                      Total
                    </Table.Th>
                    <Table.Th ta="right" visibleFrom="sm">
                      Paid
                    </Table.Th>
                    <Table.Th ta="right">Balance</Table.Th>
                    <Table.Th visibleFrom="sm">Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {invoices.data.data.map((invoice) => (
                    <Table.Tr key={invoice.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Anchor component={Link} to={`/admin/invoices/${invoice.id}`} size="sm" fw={500}>
                          {invoice.code ?? 'Draft'}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{invoice.family}</Text>
                        <Text size="xs" c="dimmed">
                          {invoiceKindLabels[invoice.kind]}
                        </Text>
                        {/* On a phone the dates and total go under the family. */}
                        <Text size="xs" c="dimmed" hiddenFrom="sm">
                          {invoice.due_on ? `Due ${formatDate(invoice.due_on)} · ` : ''}
                          {formatMoney(invoice.total)}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                        {formatDate(invoice.issued_on)}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                        {formatDate(invoice.due_on)}
                      </Table.Td>
                      <Table.Td ta="right" visibleFrom="sm">
                        {formatMoney(invoice.total)}
                      </Table.Td>
                      <Table.Td ta="right" visibleFrom="sm">
                        {formatMoney(invoice.paid)}
                      </Table.Td>
                      <Table.Td
                        ta="right"
                        fw={invoice.balance > 0 ? 600 : undefined}
                        style={{ whiteSpace: 'nowrap' }}
                      >
                        {formatMoney(invoice.balance)}
                        {/* On a phone the status goes under the balance. */}
                        <Box hiddenFrom="sm" mt={4}>
                          <InvoiceStatusBadge status={invoice.status} />
                        </Box>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        <InvoiceStatusBadge status={invoice.status} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {total === 1 ? '1 invoice' : `${total} invoices`}
            </Text>
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={Math.min(filters.page, pages)}
                onChange={(page) => filters.set({ page: page > 1 ? String(page) : null })}
                size="sm"
              />
            ) : null}
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
