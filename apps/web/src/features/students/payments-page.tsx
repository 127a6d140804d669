import { Alert, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import type { MyPayments } from '@tumble/contracts/students';
import { formatDate, formatMoney } from '../../admin/format';
import { useFileDownload } from '../../components/file-download';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageTitle } from '../../components/page-title';
import { useMyPayments } from './api/payments';
import { ListContent } from './components/list-content';
import { PaymentStatusBadge } from './components/status-badges';

type Payment = MyPayments[number];
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

function PaymentTable({ rows, receipts }: { rows: Payment[]; receipts: Receipts }) {
  return (
    <Card p={{ base: 'xs', sm: 'md' }}>
      <Table.ScrollContainer minWidth={600} type="native">
        <Table striped verticalSpacing="xs" aria-label="Payments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Description</Table.Th>
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
                <Table.Td>{payment.description}</Table.Td>
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
            <ReceiptButton payment={payment} receipts={receipts} fullWidth />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** /admin/students/payments: the parent's payments, each with its PDF receipt. */
export function PaymentsPage() {
  const payments = useMyPayments();
  const receipts = useFileDownload();
  const narrow = useNarrowScreen();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle title="My Payments" description="Card payments and refunds, with a receipt for each." />
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
