import { Alert, Anchor, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { FamilyStatement } from '@tumble/contracts/statement';
import { Link, useParams } from 'react-router';
import { formatDate, formatMoney } from '../../admin/format';
import { ResourceHeader } from '../../admin/resource-header';
import { ScreenProblem } from '../../admin/resource-scope';
import { ApiError } from '../../api/client';
import { useFileDownload } from '../../components/file-download';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { InvoiceStatusBadge } from '../invoices/invoice-status-badge';
import { MergeFamilyButton } from '../merge/merge-buttons';
import { familyStatementPdf, useFamilyStatement } from './statement-api';
import { AccountSummary, StatementEntries } from './statement-parts';

function Invoices({ statement, narrow }: { statement: FamilyStatement; narrow: boolean }) {
  if (statement.invoices.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No invoices yet.
      </Text>
    );
  }
  if (narrow) {
    return (
      <Stack
        component="ul"
        gap="xs"
        aria-label="Invoices"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {statement.invoices.map((invoice) => (
          <Card component="li" key={invoice.id} withBorder padding="sm">
            <Group justify="space-between" wrap="nowrap">
              <Anchor component={Link} to={`/admin/invoices/${invoice.id}`} fw={600}>
                {invoice.code}
              </Anchor>
              <InvoiceStatusBadge status={invoice.status} />
            </Group>
            <Text size="sm" c="dimmed">
              Due {formatDate(invoice.due_on)} · total {formatMoney(invoice.total)} · balance{' '}
              {formatMoney(invoice.balance)}
            </Text>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table striped verticalSpacing="xs" aria-label="Invoices">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Issued</Table.Th>
            <Table.Th>Due</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statement.invoices.map((invoice) => (
            <Table.Tr key={invoice.id}>
              <Table.Td>
                <Anchor component={Link} to={`/admin/invoices/${invoice.id}`}>
                  {invoice.code}
                </Anchor>
              </Table.Td>
              <Table.Td>{formatDate(invoice.issued_on)}</Table.Td>
              <Table.Td>{formatDate(invoice.due_on)}</Table.Td>
              <Table.Td ta="right">{formatMoney(invoice.total)}</Table.Td>
              <Table.Td ta="right">{formatMoney(invoice.balance)}</Table.Td>
              <Table.Td>
                <InvoiceStatusBadge status={invoice.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * /admin/parents/:id/family-account (the parent's "Account" action): the family's balance, credit,
 * saved card and autopay, invoices and statement, with what staff do next. Tablet first (1024px).
 */
export function FamilyAccountPage() {
  const parentId = Number(useParams().id);
  const valid = Number.isInteger(parentId) && parentId > 0;
  const statement = useFamilyStatement(valid ? parentId : null);
  const files = useFileDownload();
  const narrow = useNarrowScreen();

  if (!valid || statement.isError) {
    const notFound = !valid || (statement.error instanceof ApiError && statement.error.status === 404);
    return (
      <ScreenProblem
        title="Account"
        message={
          notFound
            ? 'This family does not exist, or it is not available to your account.'
            : messages.communicationError
        }
        back="/admin/parents"
      />
    );
  }
  if (!statement.data) return <PageLoader />;
  const data = statement.data;
  const pdf = familyStatementPdf(parentId);
  return (
    <Stack gap="md">
      <ResourceHeader
        title={`${data.family.name}: account`}
        crumbs={[
          { label: 'Parents', to: '/admin/parents' },
          { label: data.family.name, to: `/admin/parents/${parentId}` },
          { label: 'Account' },
        ]}
        actions={
          <>
            <Button component={Link} to={`/admin/payments/record?family=${parentId}`} size="xs">
              Record a payment
            </Button>
            <Button
              component={Link}
              to={`/admin/invoices/new?family=${parentId}`}
              size="xs"
              variant="default"
            >
              New invoice
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={files.pendingPath === pdf}
              onClick={() => files.download(pdf, `statement-${parentId}.pdf`)}
            >
              Download statement (PDF)
            </Button>
            <MergeFamilyButton parentId={parentId} />
          </>
        }
      />
      {files.failure ? (
        <Alert color="red" role="alert">
          {files.failure}
        </Alert>
      ) : null}
      <AccountSummary statement={data} />
      <Card>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Invoices
          </Title>
          <Invoices statement={data} narrow={narrow} />
        </Stack>
      </Card>
      <Card>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Statement
          </Title>
          <StatementEntries statement={data} narrow={narrow} />
          <Text size="xs" c="dimmed">
            Balance: what the family owes less their credit.
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
