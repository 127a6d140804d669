import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  creditNoteRequest,
  type InvoiceDetail,
  invoiceKindLabels,
  voidRequest,
} from '@tumble/contracts/invoices';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { dollarsToCents, formatDate, formatMoney } from '../../admin/format';
import { useFileDownload } from '../../components/file-download';
import { type FieldErrors, fieldErrorsFromZod } from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { InvoiceStatusBadge } from './invoice-status-badge';
import { failureText, useInvoice, useInvoiceAction } from './invoices-api';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** The lines, the GST and the totals, as the parent's copy shows them. */
function InvoiceBody({ invoice }: { invoice: InvoiceDetail }) {
  const c = invoice.currency;
  const taxInvoice = invoice.gst_registered;
  return (
    <Card p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {taxInvoice ? 'Tax invoice' : 'Invoice'} {invoice.code ?? '(draft)'}
        </Title>
        <Table.ScrollContainer minWidth={300} type="native" tabIndex={0}>
          <Table verticalSpacing="xs" aria-label="Invoice lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Description</Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  Qty
                </Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  Unit price
                </Table.Th>
                {taxInvoice ? (
                  <Table.Th ta="right" visibleFrom="sm">
                    GST
                  </Table.Th>
                ) : null}
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoice.lines.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an issued invoice's lines never change order
                <Table.Tr key={i}>
                  <Table.Td>
                    <Text size="sm">
                      {line.description}
                      {taxInvoice && line.gst_free ? ' (GST-free)' : ''}
                    </Text>
                    {line.detail ? (
                      <Text size="xs" c="dimmed">
                        {line.detail}
                      </Text>
                    ) : null}
                    {/* On a phone the quantity, price and GST go under the description. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {line.quantity} × {formatMoney(line.unit_amount, c)}
                      {taxInvoice ? ` · GST ${line.gst_free ? 'free' : formatMoney(line.gst, c)}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    {line.quantity}
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    {formatMoney(line.unit_amount, c)}
                  </Table.Td>
                  {taxInvoice ? (
                    <Table.Td ta="right" visibleFrom="sm">
                      {line.gst_free ? 'GST-free' : formatMoney(line.gst, c)}
                    </Table.Td>
                  ) : null}
                  <Table.Td ta="right">{formatMoney(line.amount, c)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Stack gap={4} ml="auto" w={{ base: '100%', xs: 360 }} aria-label="Totals">
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              Total{taxInvoice ? ' (GST included)' : ''}
            </Text>
            <Text size="sm" fw={600}>
              {formatMoney(invoice.total, c)}
            </Text>
          </Group>
          {taxInvoice ? (
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                Total price includes GST of
              </Text>
              <Text size="sm">{formatMoney(invoice.gst, c)}</Text>
            </Group>
          ) : null}
          {invoice.allocations.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: allocations are listed oldest first and never reorder
            <Group key={i} justify="space-between" wrap="nowrap">
              <Text size="sm">
                {a.description}, {formatDate(a.date)}
              </Text>
              <Text size="sm">{formatMoney(-a.amount, c)}</Text>
            </Group>
          ))}
          {invoice.credit_notes.map((n) => (
            <Group key={n.id} justify="space-between" wrap="nowrap">
              <Text size="sm">
                Credit note {n.code}, {formatDate(n.issued_on)}
              </Text>
              <Text size="sm">{formatMoney(-n.amount, c)}</Text>
            </Group>
          ))}
          <Group
            justify="space-between"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
            pt={4}
          >
            <Text fw={700}>Balance due</Text>
            <Text fw={700} data-testid="invoice-balance">
              {formatMoney(invoice.balance, c)}
            </Text>
          </Group>
        </Stack>
        {invoice.notes ? (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {invoice.notes}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Issue a credit note: an amount up to what is left on the invoice, and why. */
function CreditNoteForm({ invoice, onDone }: { invoice: InvoiceDetail; onDone: () => void }) {
  const action = useInvoiceAction(invoice.id);
  const left = invoice.total - invoice.credited;
  const [amount, setAmount] = useState<string | number>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = creditNoteRequest.safeParse({ amount: dollarsToCents(amount) ?? undefined, reason });
    if (!parsed.success) return setErrors(fieldErrorsFromZod(parsed.error));
    if (parsed.data.amount > left)
      return setErrors({ amount: 'A credit note cannot be more than what is left on the invoice.' });
    setErrors({});
    action.mutate(
      { kind: 'credit-notes', body: parsed.data },
      {
        onSuccess: (response) => {
          notifications.show({ color: 'teal', title: 'Credit note issued', message: response.message });
          onDone();
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Issue a credit note">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          An adjustment note lowers what invoice {invoice.code} asks for. Up to{' '}
          {formatMoney(left, invoice.currency)} can be credited; what the family already paid beyond the new
          total becomes their credit.
        </Text>
        {action.isError ? (
          <Alert color="red" role="alert">
            {failureText(action.error)}
          </Alert>
        ) : null}
        <NumberInput
          label="Amount"
          name="amount"
          withAsterisk
          prefix="$"
          decimalScale={2}
          fixedDecimalScale
          min={0}
          thousandSeparator=","
          value={amount}
          onChange={setAmount}
          error={errors.amount}
        />
        <Textarea
          label="Reason"
          name="reason"
          withAsterisk
          autosize
          minRows={2}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.reason}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={action.isPending}>
            Issue credit note
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Void an invoice nobody has paid or credited, with the reason kept on it. */
function VoidForm({ invoice, onDone }: { invoice: InvoiceDetail; onDone: () => void }) {
  const action = useInvoiceAction(invoice.id);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = voidRequest.safeParse({ reason });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    action.mutate(
      { kind: 'void', body: parsed.data },
      {
        onSuccess: (response) => {
          notifications.show({ color: 'teal', title: 'Invoice voided', message: response.message });
          onDone();
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Void the invoice">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          A void invoice stays on the record with its number; what it billed can be billed again.
        </Text>
        {action.isError ? (
          <Alert color="red" role="alert">
            {failureText(action.error)}
          </Alert>
        ) : null}
        <Textarea
          label="Reason"
          name="reason"
          withAsterisk
          autosize
          minRows={2}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Keep invoice
          </Button>
          <Button type="submit" color="red" loading={action.isPending}>
            Void invoice
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /admin/invoices/:id: the invoice as the family sees it, and what staff can do with it. */
export function InvoicePage() {
  const id = Number(useParams().id);
  const invoice = useInvoice(id);
  const action = useInvoiceAction(id);
  const files = useFileDownload();
  const [dialog, setDialog] = useState<'credit' | 'void' | null>(null);

  if (invoice.isError)
    return (
      <Alert color="red" role="alert" maw={960} mx="auto" w="100%">
        {failureText(invoice.error)}
      </Alert>
    );
  if (invoice.isPending) return <PageLoader />;
  const data = invoice.data;
  const live = data.status !== 'draft' && data.status !== 'void';
  const run = (kind: 'issue' | 'email', title: string) =>
    action.mutate(
      { kind },
      { onSuccess: (response) => notifications.show({ color: 'teal', title, message: response.message }) },
    );

  return (
    <Stack gap="md" maw={960} w="100%" mx="auto">
      <Anchor component={Link} to="/admin/invoices" size="sm">
        ← Invoices
      </Anchor>
      <PageTitle
        title={data.code ? `Invoice ${data.code}` : 'Draft invoice'}
        description={`${invoiceKindLabels[data.kind]} invoice to ${data.family}`}
      />
      <Card p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Fact label="Status">
              <InvoiceStatusBadge status={data.status} />
            </Fact>
            <Fact label="Family">
              {data.family}
              <Text size="xs" c="dimmed">
                {data.email}
              </Text>
            </Fact>
            <Fact label="Issued">{data.issued_on ? formatDate(data.issued_on) : 'Not yet'}</Fact>
            <Fact label="Due">{formatDate(data.due_on)}</Fact>
          </SimpleGrid>
          {data.status === 'void' ? (
            <Alert color="gray">Void{data.void_reason ? `: ${data.void_reason}` : ''}</Alert>
          ) : null}
          {action.isError ? (
            <Alert color="red" role="alert">
              {failureText(action.error)}
            </Alert>
          ) : null}
          {files.failure ? (
            <Alert color="red" role="alert">
              {files.failure}
            </Alert>
          ) : null}
          <Group gap="xs" wrap="wrap">
            <Button
              size="xs"
              variant="light"
              loading={files.pendingPath === `/api/v1/admin/invoices/${id}/pdf`}
              onClick={() =>
                files.download(
                  `/api/v1/admin/invoices/${id}/pdf`,
                  `invoice-${data.code ?? `draft-${id}`}.pdf`,
                )
              }
            >
              Download PDF
            </Button>
            {data.status === 'draft' ? (
              <Button size="xs" loading={action.isPending} onClick={() => run('issue', 'Invoice issued')}>
                Issue
              </Button>
            ) : null}
            {live ? (
              <Button
                size="xs"
                variant="light"
                loading={action.isPending}
                onClick={() => run('email', 'Invoice emailed')}
              >
                Email to the family
              </Button>
            ) : null}
            {live && data.balance > 0 ? (
              <Button size="xs" variant="light" component={Link} to={`/admin/payments/record?invoice=${id}`}>
                Record a payment
              </Button>
            ) : null}
            {live && data.total - data.credited > 0 ? (
              <Button size="xs" variant="light" onClick={() => setDialog('credit')}>
                Issue a credit note
              </Button>
            ) : null}
            {data.status !== 'void' && data.paid === 0 && data.credited === 0 ? (
              <Button size="xs" variant="light" color="red" onClick={() => setDialog('void')}>
                Void
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Card>
      <InvoiceBody invoice={data} />
      {data.credit_notes.length > 0 ? (
        <Card p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="xs">
            <Title order={2} fz="lg">
              Credit notes
            </Title>
            {data.credit_notes.map((note) => (
              <Group key={note.id} justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={0}>
                  <Text size="sm" fw={500}>
                    {note.code} · {formatMoney(note.amount, data.currency)} · {formatDate(note.issued_on)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {note.reason}
                  </Text>
                </Stack>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  loading={files.pendingPath === `/api/v1/admin/credit-notes/${note.id}/pdf`}
                  onClick={() =>
                    files.download(`/api/v1/admin/credit-notes/${note.id}/pdf`, `${note.code}.pdf`)
                  }
                >
                  Download PDF
                </Button>
              </Group>
            ))}
          </Stack>
        </Card>
      ) : null}
      <Modal
        opened={dialog === 'credit'}
        onClose={() => setDialog(null)}
        title="Issue a credit note"
        centered
      >
        {dialog === 'credit' ? <CreditNoteForm invoice={data} onDone={() => setDialog(null)} /> : null}
      </Modal>
      <Modal opened={dialog === 'void'} onClose={() => setDialog(null)} title="Void this invoice?" centered>
        {dialog === 'void' ? <VoidForm invoice={data} onDone={() => setDialog(null)} /> : null}
      </Modal>
    </Stack>
  );
}
