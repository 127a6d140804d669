import { Badge, Card, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { FamilyStatement, StatementEntry } from '@tumble/contracts/statement';
import { formatDate, formatMoney } from '../../admin/format';

/**
 * The pieces of a family's account that staff (the family's Account page) and the parent (their
 * Invoices page) both show: the summary and the dated statement.
 */

/** +$20.00 / −$20.00: which way a line moved the balance. */
export function signedMoney(cents: number): string {
  if (cents === 0) return formatMoney(0);
  return `${cents > 0 ? '+' : '−'}${formatMoney(Math.abs(cents))}`;
}

/** A running balance: what is owed, or "in credit" below zero. */
export function balanceText(cents: number): string {
  return cents < 0 ? `${formatMoney(-cents)} in credit` : formatMoney(cents);
}

function Tile({ label, value, note, tone }: { label: string; value: string; note?: string; tone?: string }) {
  return (
    <Card withBorder padding="sm" component="section" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={{ base: 20, sm: 24 }} fw={700} c={tone}>
        {value}
      </Text>
      {note ? (
        <Text size="sm" c="dimmed">
          {note}
        </Text>
      ) : null}
    </Card>
  );
}

/** Balance owing (and overdue), credit, and the saved card with autopay. */
export function AccountSummary({ statement }: { statement: FamilyStatement }) {
  const card = statement.saved_card;
  const expiry =
    card?.exp_month && card.exp_year
      ? ` · expires ${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}`
      : '';
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
      <Tile
        label="Balance owing"
        value={formatMoney(statement.owing)}
        tone={statement.overdue > 0 ? 'red' : undefined}
        note={statement.overdue > 0 ? `${formatMoney(statement.overdue)} overdue` : 'Nothing overdue'}
      />
      <Tile label="Credit" value={formatMoney(statement.credit)} note="Used on the next invoice" />
      <Tile
        label="Saved card"
        value={card ? `${card.brand} •••• ${card.last4}` : 'None'}
        note={card ? `Autopay ${card.autopay ? 'on' : 'off'}${expiry}` : 'Autopay off'}
      />
    </SimpleGrid>
  );
}

function EntryNotes({ entry }: { entry: StatementEntry }) {
  const notes: string[] = [];
  // Invoices and credit notes name their number already; payments and refunds show theirs here.
  if (entry.reference && entry.kind !== 'invoice' && entry.kind !== 'credit_note')
    notes.push(entry.reference);
  if (entry.credit !== 0) notes.push(`Credit ${signedMoney(entry.credit)}`);
  return (
    <>
      {notes.length > 0 ? (
        <Text size="xs" c="dimmed">
          {notes.join(' · ')}
        </Text>
      ) : null}
      {entry.status && entry.status !== 'succeeded' ? (
        <Badge size="sm" variant="light" color={entry.status === 'failed' ? 'red' : 'yellow'}>
          {entry.status === 'failed' ? 'Failed' : 'In progress'}
        </Badge>
      ) : null}
    </>
  );
}

/**
 * The dated lines with their running balance: a table, and on a phone one small card per line.
 */
export function StatementEntries({ statement, narrow }: { statement: FamilyStatement; narrow: boolean }) {
  if (statement.entries.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        Nothing on the account yet.
      </Text>
    );
  }
  if (narrow) {
    return (
      <Stack
        component="ol"
        gap="xs"
        aria-label="Statement"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {statement.entries.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: read-only lines in a fixed order, replaced as a whole
          <Card component="li" key={index} withBorder padding="sm">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text size="xs" c="dimmed">
                  {formatDate(entry.date)}
                </Text>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {entry.description}
                </Text>
                <EntryNotes entry={entry} />
              </Stack>
              <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
                <Text size="sm" fw={700}>
                  {signedMoney(entry.amount)}
                </Text>
                <Text size="xs" c="dimmed">
                  {balanceText(entry.balance)}
                </Text>
              </Stack>
            </Group>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table striped verticalSpacing="xs" aria-label="Statement">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statement.from ? (
            <Table.Tr>
              <Table.Td>{formatDate(statement.from)}</Table.Td>
              <Table.Td>Opening balance</Table.Td>
              <Table.Td />
              <Table.Td ta="right">{balanceText(statement.opening_balance)}</Table.Td>
            </Table.Tr>
          ) : null}
          {statement.entries.map((entry, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: read-only lines in a fixed order, replaced as a whole
            <Table.Tr key={index}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(entry.date)}</Table.Td>
              <Table.Td>
                <Text size="sm">{entry.description}</Text>
                <EntryNotes entry={entry} />
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {signedMoney(entry.amount)}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {balanceText(entry.balance)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
