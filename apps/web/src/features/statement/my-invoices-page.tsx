import { Alert, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { FamilyStatement, StatementInvoice } from '@tumble/contracts/statement';
import { Link } from 'react-router';
import { formatDate, formatMoney } from '../../admin/format';
import { useFileDownload } from '../../components/file-download';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { InvoiceStatusBadge } from '../invoices/invoice-status-badge';
import { myStatementPdf, useMyStatement } from './statement-api';
import { StatementEntries } from './statement-parts';

type Files = ReturnType<typeof useFileDownload>;

const pdfPath = (invoice: StatementInvoice) => `/api/v1/students/invoices/${invoice.id}/pdf`;
const owingNow = (invoice: StatementInvoice) => invoice.balance > 0 && invoice.status !== 'void';

/** "You owe $X" (and what is overdue) and "You have $Y credit", at the top. */
function Owing({ statement }: { statement: FamilyStatement }) {
  const owes = statement.owing > 0;
  return (
    <Card withBorder padding="md" component="section" aria-label="Your balance">
      <Stack gap={4}>
        <Text fz={{ base: 22, sm: 26 }} fw={700} c={statement.overdue > 0 ? 'red' : undefined}>
          {owes ? `You owe ${formatMoney(statement.owing)}` : 'You owe nothing'}
        </Text>
        {statement.overdue > 0 ? (
          <Text size="sm" c="red">
            {formatMoney(statement.overdue)} of it is overdue.
          </Text>
        ) : null}
        {statement.credit > 0 ? (
          <Text size="sm" fw={600} c="teal">
            You have {formatMoney(statement.credit)} credit
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

function InvoiceButtons({
  invoice,
  files,
  fullWidth = false,
}: {
  invoice: StatementInvoice;
  files: Files;
  fullWidth?: boolean;
}) {
  const size = fullWidth ? 'sm' : 'compact-sm';
  return (
    <Group gap="xs" grow={fullWidth} wrap="nowrap" justify="flex-end">
      <Button
        size={size}
        variant="light"
        loading={files.pendingPath === pdfPath(invoice)}
        onClick={() => files.download(pdfPath(invoice), `${invoice.code ?? 'invoice'}.pdf`)}
        aria-label={`Download PDF of invoice ${invoice.code}`}
      >
        Download PDF
      </Button>
      {owingNow(invoice) ? (
        <Button
          size={size}
          component={Link}
          to={`/admin/student/payment?invoice=${invoice.id}`}
          aria-label={`Pay invoice ${invoice.code}`}
        >
          Pay
        </Button>
      ) : null}
    </Group>
  );
}

/** On a phone: one card per invoice, its buttons full width within reach of a thumb. */
function InvoiceCards({ invoices, files }: { invoices: StatementInvoice[]; files: Files }) {
  return (
    <Stack component="ul" gap="sm" aria-label="Invoices" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {invoices.map((invoice) => (
        <Card component="li" key={invoice.id} p="md" aria-label={`Invoice ${invoice.code}`}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Text fw={700}>{invoice.code}</Text>
              <InvoiceStatusBadge status={invoice.status} />
            </Group>
            <Text size="sm" c="dimmed">
              Issued {formatDate(invoice.issued_on)} · due {formatDate(invoice.due_on)}
            </Text>
            <Group justify="space-between">
              <Text size="sm">Total {formatMoney(invoice.total)}</Text>
              <Text size="sm" fw={700}>
                Balance {formatMoney(invoice.balance)}
              </Text>
            </Group>
            <InvoiceButtons invoice={invoice} files={files} fullWidth />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

function InvoiceTable({ invoices, files }: { invoices: StatementInvoice[]; files: Files }) {
  return (
    <Card p={{ base: 'xs', sm: 'md' }}>
      <Table.ScrollContainer minWidth={700} type="native">
        <Table striped verticalSpacing="xs" aria-label="Invoices">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Due</Table.Th>
              <Table.Th ta="right">Total</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoices.map((invoice) => (
              <Table.Tr key={invoice.id}>
                <Table.Td fw={600}>{invoice.code}</Table.Td>
                <Table.Td>{formatDate(invoice.issued_on)}</Table.Td>
                <Table.Td>{formatDate(invoice.due_on)}</Table.Td>
                <Table.Td ta="right">{formatMoney(invoice.total)}</Table.Td>
                <Table.Td ta="right">{formatMoney(invoice.balance)}</Table.Td>
                <Table.Td>
                  <InvoiceStatusBadge status={invoice.status} />
                </Table.Td>
                <Table.Td>
                  <InvoiceButtons invoice={invoice} files={files} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** /admin/students/invoices (SPEC students/invoices): the parent's invoices and their statement. Phone first. */
export function MyInvoicesPage() {
  const statement = useMyStatement();
  const files = useFileDownload();
  const narrow = useNarrowScreen();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle title="My Invoices" description="What you owe, your invoices and everything paid." />
      {files.failure ? (
        <Alert color="red" role="alert">
          {files.failure}
        </Alert>
      ) : null}
      {statement.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : !statement.data ? (
        <PageLoader />
      ) : (
        <>
          <Owing statement={statement.data} />
          {statement.data.invoices.length === 0 ? (
            <Text c="dimmed" ta="center" py="md">
              You have no invoices yet.
            </Text>
          ) : narrow ? (
            <InvoiceCards invoices={statement.data.invoices} files={files} />
          ) : (
            <InvoiceTable invoices={statement.data.invoices} files={files} />
          )}
          <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="statement-title">
            <Stack gap="sm">
              <Group justify="space-between">
                <Title order={2} size="h4" id="statement-title">
                  Statement
                </Title>
                <Button
                  size="compact-sm"
                  variant="light"
                  loading={files.pendingPath === myStatementPdf}
                  onClick={() => files.download(myStatementPdf, 'statement.pdf')}
                >
                  Download statement (PDF)
                </Button>
              </Group>
              <StatementEntries statement={statement.data} narrow={narrow} />
            </Stack>
          </Card>
        </>
      )}
    </Stack>
  );
}
