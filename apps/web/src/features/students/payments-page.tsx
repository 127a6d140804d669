import { Alert, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import type { FamilyPayments } from '@tumble/contracts/statement';
import { formatDate, formatMoney } from '../../admin/format';
import { useFileDownload } from '../../components/file-download';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageTitle } from '../../components/page-title';
import { useMyStatement } from '../statement/statement-api';
import { useMyPayments } from './api/payments';
import { ListContent } from './components/list-content';
import { PaymentStatusBadge } from './components/status-badges';

type Payment = FamilyPayments[number];
type Receipts = ReturnType<typeof useFileDownload>;

function ReceiptButton({
  payment,
  receipts,
  fullWidth = false,
}: {
  payment: Payment;
  receipts: Receipts;
  fullWidth?: boolean;
}) {
  return (
    <Button
      size={fullWidth ? 'sm' : 'compact-sm'}
      variant="light"
      fullWidth={fullWidth}
      loading={receipts.pendingPath === payment.receipt_url}
      onClick={() => receipts.download(payment.receipt_url, `receipt-${payment.id}.pdf`)}
      aria-label={`Receipt (PDF) for ${payment.description}`}
    >
      Receipt (PDF)
    </Button>
  );
}

function PaidOn({ payment }: { payment: Payment }) {
  return payment.paid_on ? formatDate(payment.paid_on) : <Text c="dimmed">–</Text>;
}

/** How it was paid, and what staff typed for it (a bank reference, a voucher code). */
function Method({ payment }: { payment: Payment }) {
  return (
    <>
      {payment.method_label}
      {payment.reference ? (
        <Text span size="xs" c="dimmed">
          {' '}
          · {payment.reference}
        </Text>
      ) : null}
    </>
  );
}

/** The refunds of a payment, one line each: to the card or to account credit, and how far along. */
function Refunds({ payment }: { payment: Payment }) {
  if (payment.refunds.length === 0) return null;
  return (
    <Stack gap={0}>
      {payment.refunds.map((refund) => (
        <Text key={refund.id} size="xs" c={refund.status === 'failed' ? 'red' : 'dimmed'}>
          {formatDate(refund.date)}: {formatMoney(refund.amount)} refunded{' '}
          {refund.destination === 'card' ? 'to the card' : 'to account credit'}
          {refund.status === 'pending' ? ' (in progress)' : refund.status === 'failed' ? ' (failed)' : ''}
        </Text>
      ))}
    </Stack>
  );
}

function PaymentTable({ rows, receipts }: { rows: Payment[]; receipts: Receipts }) {
  return (
    <Card p={{ base: 'xs', sm: 'md' }}>
      <Table.ScrollContainer minWidth={600} type="native">
        <Table striped verticalSpacing="xs" aria-label="Payments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Paid by</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Receipt</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((payment) => (
              <Table.Tr key={payment.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <PaidOn payment={payment} />
                </Table.Td>
                <Table.Td>
                  {payment.description}
                  <Refunds payment={payment} />
                </Table.Td>
                <Table.Td>
                  <Method payment={payment} />
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(payment.amount)}
                </Table.Td>
                <Table.Td>
                  <PaymentStatusBadge status={payment.status} />
                </Table.Td>
                <Table.Td ta="right">
                  <ReceiptButton payment={payment} receipts={receipts} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** On a phone: one card per payment, the receipt button within reach. */
function PaymentCards({ rows, receipts }: { rows: Payment[]; receipts: Receipts }) {
  return (
    <Stack component="section" gap="sm" aria-label="Payments">
      {rows.map((payment) => (
        <Card key={payment.id} component="article" aria-label={payment.description} p="md">
          <Stack gap="xs">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
              <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {payment.description}
              </Text>
              <Text size="sm" fw={700} style={{ flexShrink: 0 }}>
                {formatMoney(payment.amount)}
              </Text>
            </Group>
            <Group gap="xs">
              <Text size="sm" c="dimmed" component="div">
                <PaidOn payment={payment} />
              </Text>
              <PaymentStatusBadge status={payment.status} />
            </Group>
            <Text size="sm">
              <Method payment={payment} />
            </Text>
            <Refunds payment={payment} />
            <ReceiptButton payment={payment} receipts={receipts} fullWidth />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** "You have $Y credit" above the list, when the family has credit. */
function Credit() {
  const statement = useMyStatement();
  const credit = statement.data?.credit ?? 0;
  if (credit <= 0) return null;
  return (
    <Alert color="teal" variant="light">
      You have {formatMoney(credit)} credit. It is used on your next invoice.
    </Alert>
  );
}

/** /admin/students/payments: every payment of the family (card and at the desk), its refunds and its PDF receipt. */
export function PaymentsPage() {
  const payments = useMyPayments();
  const receipts = useFileDownload();
  const narrow = useNarrowScreen();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle
        title="My Payments"
        description="Every payment, by card or at the desk, its refunds, and a receipt for each."
      />
      <Credit />
      {receipts.failure ? (
        <Alert color="red" role="alert">
          {receipts.failure}
        </Alert>
      ) : null}
      <ListContent query={payments} empty="You have no payments yet.">
        {(rows) =>
          narrow ? (
            <PaymentCards rows={rows} receipts={receipts} />
          ) : (
            <PaymentTable rows={rows} receipts={receipts} />
          )
        }
      </ListContent>
    </Stack>
  );
}
