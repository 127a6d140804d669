import { Alert, Button, Card, Stack, Table, Text } from '@mantine/core';
import { formatMoney } from '../../admin/format';
import { useFileDownload } from '../../components/file-download';
import { PageTitle } from '../../components/page-title';
import { useMyPayments } from './api/payments';
import { ListContent } from './components/list-content';
import { PaymentStatusBadge } from './components/status-badges';
import { formatLocalDate } from './student-format';

/** /admin/students/payments: the parent's payments, each with its PDF receipt. */
export function PaymentsPage() {
  const payments = useMyPayments();
  const receipts = useFileDownload();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle title="My Payments" description="Card payments and refunds, with a receipt for each." />
      {receipts.failure ? (
        <Alert color="red" role="alert">
          {receipts.failure}
        </Alert>
      ) : null}
      <ListContent query={payments} empty="You have no payments yet.">
        {(rows) => (
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
                        {payment.paid_at ? formatLocalDate(payment.paid_at) : <Text c="dimmed">–</Text>}
                      </Table.Td>
                      <Table.Td>{payment.description}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {formatMoney(payment.amount)}
                      </Table.Td>
                      <Table.Td>
                        <PaymentStatusBadge status={payment.status} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="compact-sm"
                          variant="light"
                          loading={receipts.pendingPath === payment.receipt_url}
                          onClick={() => receipts.download(payment.receipt_url, `receipt-${payment.id}.pdf`)}
                          aria-label={`Receipt (PDF) for ${payment.description}`}
                        >
                          Receipt (PDF)
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        )}
      </ListContent>
    </Stack>
  );
}
