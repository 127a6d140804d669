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
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import {
  type ReportColumn,
  type ReportMeta,
  type ReportResponse,
  reportResponse,
} from '@tumble/contracts/reports';
import { type ReactNode, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { formatDate, formatMoney } from '../../admin/format';
import { api } from '../../api/client';
import { saveBlob } from '../../components/file-download';
import { ReportChart } from './report-chart';

type Row = ReportResponse['data'][string][number];

const reportUrl = (name: string) => `/api/v1/admin/reports/${encodeURIComponent(name)}`;

function cellText(column: ReportColumn, value: Row[string] | undefined): string {
  if (value === null || value === undefined) return '';
  if (column.type === 'money' && typeof value === 'number') return formatMoney(value);
  if (column.type === 'date' && typeof value === 'string') return formatDate(value);
  return String(value);
}

function ReportTable({ table, rows }: { table: ReportMeta['tables'][number]; rows: Row[] }) {
  const { columns } = table;
  const chartX = columns.find((c) => c.name === table.chart?.x);
  const chartY = columns.find((c) => c.name === table.chart?.y);
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {table.label}
        </Title>
        {chartX && chartY ? (
          <ReportChart
            title={`${chartY.label} by ${chartX.label.toLowerCase()}`}
            points={rows.map((row) => ({
              category: row[chartX.name] ?? '',
              value: Number(row[chartY.name] ?? 0),
            }))}
            x={{ label: chartX.label, format: (v) => cellText(chartX, v) }}
            y={{ label: chartY.label, format: (v) => cellText(chartY, v) }}
          />
        ) : null}
        {/* A table wider than the phone scrolls; its box takes focus so the keyboard scrolls it too. */}
        <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': table.label }}>
          <Table striped miw={Math.max(360, columns.length * 100)} aria-label={table.label}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.name} ta={c.type === 'text' || c.type === 'date' ? undefined : 'right'}>
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>
                    <Text c="dimmed">Nothing to show for these filters.</Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((row, i) => (
                  // Report rows have no id; their order is the query's.
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are replaced as a whole
                  <Table.Tr key={i}>
                    {columns.map((c) => (
                      <Table.Td
                        key={c.name}
                        ta={c.type === 'text' || c.type === 'date' ? undefined : 'right'}
                        // Whole words stay whole ('Present', not 'Prese nt'); a wide table scrolls.
                        style={{ overflowWrap: 'break-word' }}
                      >
                        {cellText(c, row[c.name])}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Stack>
    </Card>
  );
}

/**
 * Any report of the server's report pattern (apps/server/src/platform/reports/report.ts): its
 * filters live in the URL (?year=2026, so a report can be bookmarked and shared), the server
 * answers the meta and rows, and each table shows as a chart, a table and in the CSV download.
 */
export function ReportPage({
  name: fixed,
  actions,
}: {
  name?: string;
  /** More buttons beside the CSV download (a PDF), given the filter values in use. */
  actions?: (filters: Record<string, string | number>) => ReactNode;
}) {
  const routeParams = useParams();
  const name = fixed ?? routeParams.report ?? '';
  const [params, setParams] = useSearchParams();
  // The URL with every filter changed so far: a second filter changed before the page has drawn
  // the first (From, then To) must keep the first. React Router's functional update reads the same
  // stale render, so the latest query is kept here until the router's own catches up.
  const latestParams = useRef(params);
  latestParams.current = params;
  const setFilter = (filter: string, value: string) => {
    const next = new URLSearchParams(latestParams.current);
    next.set(filter, value);
    latestParams.current = next;
    setParams(next, { replace: true });
  };
  const [downloadError, setDownloadError] = useState(false);
  const query = Object.fromEntries(params.entries());
  const report = useQuery({
    queryKey: ['admin', 'reports', name, query],
    queryFn: ({ signal }) => api.get(reportUrl(name), { query, schema: reportResponse, signal }),
    placeholderData: (previous) => previous,
  });
  const meta = report.data?.meta;
  useDocumentTitle(`${meta?.title ?? 'Report'} · Tumble`);
  const thisYear = new Date().getFullYear();
  const filterValue = (filter: string) => String(report.data?.filters[filter] ?? params.get(filter) ?? '');

  const download = () => {
    setDownloadError(false);
    api
      .download(reportUrl(name), { query: { ...report.data?.filters, format: 'csv' } })
      .then((csv) =>
        saveBlob(
          csv,
          `${name}${Object.values(report.data?.filters ?? {})
            .map((v) => `-${v}`)
            .join('')}.csv`,
        ),
      )
      .catch(() => setDownloadError(true));
  };

  return (
    <Stack maw={1200} w="100%" mx="auto">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {meta?.title ?? 'Report'}
        </Title>
        <Group gap="sm">
          {meta?.filters.map((filter) =>
            filter.type === 'date' ? (
              <TextInput
                key={filter.name}
                type="date"
                aria-label={filter.label}
                value={filterValue(filter.name)}
                onChange={(e) => {
                  if (e.currentTarget.value) setFilter(filter.name, e.currentTarget.value);
                }}
              />
            ) : (
              <NativeSelect
                key={filter.name}
                aria-label={filter.label}
                value={filterValue(filter.name)}
                onChange={(e) => setFilter(filter.name, e.currentTarget.value)}
                data={
                  filter.type === 'year'
                    ? [
                        ...new Set([
                          thisYear - 2,
                          thisYear - 1,
                          thisYear,
                          thisYear + 1,
                          Number(filterValue(filter.name)),
                        ]),
                      ]
                        .filter((y) => y > 0)
                        .sort()
                        .map(String)
                    : (filter.options ?? [])
                }
              />
            ),
          )}
          <Button onClick={download} disabled={!report.data}>
            Download CSV
          </Button>
          {/* The browser's print; app/print.css leaves the app's header and sidebar out. */}
          <Button variant="default" onClick={() => window.print()} disabled={!report.data}>
            Print
          </Button>
          {actions && report.data ? actions(report.data.filters) : null}
        </Group>
      </Group>
      {downloadError ? <Alert color="red">{messages.formLoadFailed}</Alert> : null}
      {report.isPending ? <Loader aria-label="Loading" /> : null}
      {report.isError ? <Alert color="red">{messages.formLoadFailed}</Alert> : null}
      {meta
        ? meta.tables.map((table) => (
            <ReportTable key={table.name} table={table} rows={report.data?.data[table.name] ?? []} />
          ))
        : null}
    </Stack>
  );
}
