import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import type { BillingRun, BillingRunFamily, BillingRunPreview } from '@tumble/contracts/billing-run';
import { messages } from '@tumble/contracts/messages';
import { Fragment, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatMoney } from '../../admin/format';
import { ResourceHeader } from '../../admin/resource-header';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { useBillingPreview, useBillingRun, useStartBillingRun } from './billing-run-api';

const failure = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A family's lines as the invoice will show them: what each is, how it was worked out, the amount. */
function Lines({ family, currency }: { family: BillingRunFamily; currency: string }) {
  return (
    <Stack gap={6} aria-label={`Lines for ${family.family}`}>
      {family.lines.map((line, i) => (
        <Group
          // biome-ignore lint/suspicious/noArrayIndexKey: a preview's lines have no id and never move.
          key={i}
          justify="space-between"
          align="flex-start"
          gap="xs"
          wrap="nowrap"
        >
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm">{line.description}</Text>
            {line.detail ? (
              <Text size="xs" c="dimmed">
                {line.detail}
                {line.gst_free ? ' · GST-free' : ''}
              </Text>
            ) : line.gst_free ? (
              <Text size="xs" c="dimmed">
                GST-free
              </Text>
            ) : null}
          </Stack>
          <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
            {formatMoney(line.amount, currency)}
          </Text>
        </Group>
      ))}
      {family.credit > 0 ? (
        <Text size="sm" c="teal.8">
          {formatMoney(family.credit, currency)} goes to the family's credit.
        </Text>
      ) : null}
    </Stack>
  );
}

/** The preview: one row per family (family, children, lines, total, GST); a row opens its lines. */
function PreviewTable({ plan }: { plan: BillingRunPreview }) {
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState<number | null>(null);
  const money = (cents: number) => formatMoney(cents, plan.currency);
  const toggle = (id: number) => setOpen((current) => (current === id ? null : id));
  if (narrow)
    return (
      <Stack gap="xs">
        {plan.families.map((f) => (
          <Card key={f.parent_id} p="sm" withBorder aria-label={f.family}>
            <Stack gap={6}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text fw={600}>{f.family}</Text>
                <Text fw={600} ff="monospace">
                  {money(f.total)}
                </Text>
              </Group>
              <Text size="sm">{f.children.join(', ')}</Text>
              <Group justify="space-between" gap="xs">
                <Text size="sm" c="dimmed">
                  GST {money(f.gst)}
                </Text>
                <Anchor component="button" type="button" size="sm" onClick={() => toggle(f.parent_id)}>
                  {open === f.parent_id ? 'Hide lines' : `${plural(f.lines.length, 'line')}`}
                </Anchor>
              </Group>
              {open === f.parent_id ? <Lines family={f} currency={plan.currency} /> : null}
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table aria-label="Invoices to issue" highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Family</Table.Th>
          <Table.Th>Children</Table.Th>
          <Table.Th ta="right">Lines</Table.Th>
          <Table.Th ta="right">Total</Table.Th>
          <Table.Th ta="right">GST</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {plan.families.map((f) => (
          <Fragment key={f.parent_id}>
            <Table.Tr>
              <Table.Td>
                <UnstyledButton
                  onClick={() => toggle(f.parent_id)}
                  aria-expanded={open === f.parent_id}
                  fw={600}
                  c="blue.8"
                >
                  {f.family}
                </UnstyledButton>
              </Table.Td>
              <Table.Td>{f.children.join(', ')}</Table.Td>
              <Table.Td ta="right">{f.lines.length}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {money(f.total)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {money(f.gst)}
              </Table.Td>
            </Table.Tr>
            {open === f.parent_id ? (
              <Table.Tr>
                <Table.Td colSpan={5} bg="gray.0">
                  <Lines family={f} currency={plan.currency} />
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Fragment>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th colSpan={2}>Total</Table.Th>
          <Table.Th ta="right">{plan.families.reduce((n, f) => n + f.lines.length, 0)}</Table.Th>
          <Table.Th ta="right" ff="monospace">
            {money(plan.totals.amount)}
          </Table.Th>
          <Table.Th ta="right" ff="monospace">
            {money(plan.totals.gst)}
          </Table.Th>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}

function Totals({ plan }: { plan: BillingRunPreview }) {
  const stat = (label: string, value: string) => (
    <Card p="sm" withBorder>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
    </Card>
  );
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" aria-label="Totals">
      {stat('Families', String(plan.totals.families))}
      {stat('Invoices', String(plan.totals.invoices))}
      {stat('Amount', formatMoney(plan.totals.amount, plan.currency))}
      {stat('GST', formatMoney(plan.totals.gst, plan.currency))}
    </SimpleGrid>
  );
}

/** A run: its progress while it runs, then what it issued and where to see the invoices. */
function RunView({ run, currency }: { run: BillingRun; currency: string }) {
  const percent = run.families === 0 ? 100 : Math.round((run.processed / run.families) * 100);
  const invoicesLink = (
    <Anchor component={Link} to={`/admin/invoices?term=${run.term_id}`}>
      See this term's invoices
    </Anchor>
  );
  return (
    <Card p={{ base: 'sm', sm: 'md' }} aria-label="Billing run">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>Billing run</Text>
          {run.status === 'running' ? (
            <Badge color="blue">Running</Badge>
          ) : run.status === 'failed' ? (
            <Badge color="red">Failed</Badge>
          ) : (
            <Badge color="teal">Done</Badge>
          )}
        </Group>
        {run.status === 'running' ? (
          <Stack gap={4}>
            <Progress value={percent} size="lg" animated aria-label="Progress" />
            <Text size="sm" c="dimmed">
              {run.processed} of {run.families} {run.families === 1 ? 'family' : 'families'} ·{' '}
              {plural(run.issued, 'invoice')} issued
            </Text>
          </Stack>
        ) : (
          <Text>
            {run.issued === 0
              ? 'No invoices were issued: there was nothing new to bill.'
              : `${plural(run.issued, 'invoice')} issued, ${formatMoney(run.total, currency)} in all. Each family has been emailed theirs.`}
          </Text>
        )}
        {run.status === 'failed' ? (
          <Alert color="red" role="alert" title="The run stopped">
            {run.error} The invoices issued before it stopped stay issued; start the run again to bill the
            rest.
          </Alert>
        ) : null}
        {run.status !== 'running' && run.issued > 0 ? invoicesLink : null}
      </Stack>
    </Card>
  );
}

/**
 * Terms › a term › "Bill this term" (issue 15): every family's invoice for what the term's classes
 * still owe, with the totals; one button issues them all, with a progress bar while it runs; then
 * the result and a link to the term's invoices. Running it again bills only what is new.
 */
export function BillingRunPage() {
  const termId = Number(useParams().id);
  const preview = useBillingPreview(termId);
  const start = useStartBillingRun(termId);
  const [runId, setRunId] = useState<number | null>(null);
  const run = useBillingRun(runId);

  // Opening the screen shows the term's latest run (a running one keeps being followed).
  const latest = preview.data?.last_run;
  useEffect(() => {
    if (runId === null && latest) setRunId(latest.id);
  }, [latest, runId]);
  // When a run followed here has finished, the preview shows what is left to bill (usually nothing):
  // fetched again once per run, unless it already names that run finished. A small run can finish
  // before its first poll, so having seen it running is not the sign.
  const finished = run.data && run.data.status !== 'running' ? run.data : null;
  const refreshedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!finished || refreshedFor.current === finished.id) return;
    refreshedFor.current = finished.id;
    if (latest?.id !== finished.id || latest.status !== finished.status) void preview.refetch();
  }, [finished, latest, preview]);

  const plan = preview.data;
  const termName = plan?.term.name ?? 'Term';
  const running = run.data?.status === 'running';
  return (
    <Stack maw={1100} w="100%">
      <ResourceHeader
        title={`Bill ${termName}`}
        crumbs={[
          { label: 'Terms', to: '/admin/terms' },
          { label: termName, to: `/admin/terms/${termId}` },
          { label: 'Bill this term' },
        ]}
      />
      {preview.isPending ? (
        <Loader aria-label="Loading" />
      ) : preview.isError ? (
        <Alert color="red" role="alert">
          {failure(preview.error)}
        </Alert>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            Each family gets one invoice for the places in this term's classes that are not paid or invoiced
            yet, and for staff changes to their enrolments. Places paid at checkout are not billed again.
            Issuing emails every family their invoice; running it again bills only what is new.
          </Text>
          {run.data ? <RunView run={run.data} currency={plan!.currency} /> : null}
          {start.isError ? (
            <Alert color="red" role="alert">
              {failure(start.error)}
            </Alert>
          ) : null}
          {running ? null : (
            <Card p={{ base: 'sm', sm: 'md' }} aria-label="Preview">
              <Stack gap="sm">
                <Totals plan={plan!} />
                {plan!.families.length === 0 ? (
                  <Text c="dimmed">There is nothing new to bill in this term.</Text>
                ) : (
                  <PreviewTable plan={plan!} />
                )}
                <Group justify="flex-end">
                  <Button
                    disabled={plan!.totals.families === 0}
                    loading={start.isPending}
                    onClick={() => start.mutate(undefined, { onSuccess: (started) => setRunId(started.id) })}
                  >
                    {plan!.totals.families === 0
                      ? 'Nothing to bill'
                      : plan!.totals.invoices === 0
                        ? 'Credit the families'
                        : `Issue ${plural(plan!.totals.invoices, 'invoice')}`}
                  </Button>
                </Group>
              </Stack>
            </Card>
          )}
        </>
      )}
    </Stack>
  );
}
