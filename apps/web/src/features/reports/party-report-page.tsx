import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { z } from 'zod';
import { formatMoney } from '../../admin/format';
import { api } from '../../api/client';
import { saveBlob } from '../../components/file-download';

const report = z.object({
  months: z.array(
    z.object({
      month: z.string(),
      parties: z.number(),
      guests: z.number(),
      deposits: z.number(),
      balances: z.number(),
      revenue: z.number(),
    }),
  ),
  parties: z.array(z.object({ reference: z.string(), date: z.string() })),
});

const REPORT_URL = '/api/v1/admin/reports/birthday-parties';

/** Saves the server's CSV. */
export async function downloadPartyReport(year: number): Promise<void> {
  const csv = await api.download(REPORT_URL, { query: { year, format: 'csv' } });
  saveBlob(csv, `birthday-parties-${year}.csv`);
}

/** /admin/reports/birthday-parties: parties, guests, deposits and balances per month, as CSV too. */
export function PartyReportPage() {
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [downloadError, setDownloadError] = useState(false);
  const query = useQuery({
    queryKey: ['admin', 'reports', 'birthday-parties', year],
    queryFn: ({ signal }) => api.get(REPORT_URL, { query: { year }, schema: report, signal }),
  });
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Birthday party report</Title>
        <Group gap="sm">
          <NativeSelect
            aria-label="Year"
            value={String(year)}
            onChange={(e) => setYear(Number(e.currentTarget.value))}
            data={[thisYear - 1, thisYear, thisYear + 1].map(String)}
          />
          <Button
            onClick={() => {
              setDownloadError(false);
              downloadPartyReport(year).catch(() => setDownloadError(true));
            }}
          >
            Download CSV
          </Button>
        </Group>
      </Group>
      {downloadError ? <Alert color="red">{messages.formLoadFailed}</Alert> : null}
      {query.isPending ? <Loader aria-label="Loading" /> : null}
      {query.isError ? <Alert color="red">{messages.formLoadFailed}</Alert> : null}
      {query.data ? (
        <Card withBorder padding={0}>
          <ScrollArea type="auto">
            <Table striped miw={560}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Month</Table.Th>
                  <Table.Th>Parties</Table.Th>
                  <Table.Th>Guests</Table.Th>
                  <Table.Th>Deposits</Table.Th>
                  <Table.Th>Balances due</Table.Th>
                  <Table.Th>Revenue</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.months.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={6}>
                      <Text c="dimmed">No confirmed parties in {year}.</Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  query.data.months.map((m) => (
                    <Table.Tr key={m.month}>
                      <Table.Td>{m.month}</Table.Td>
                      <Table.Td>{m.parties}</Table.Td>
                      <Table.Td>{m.guests}</Table.Td>
                      <Table.Td>{formatMoney(m.deposits)}</Table.Td>
                      <Table.Td>{formatMoney(m.balances)}</Table.Td>
                      <Table.Td>{formatMoney(m.revenue)}</Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Card>
      ) : null}
    </Stack>
  );
}
