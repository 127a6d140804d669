import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  List,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  type ImportColumnsResponse,
  type ImportDryRunResponse,
  type ImportField,
  type ImportMapping,
  type ImportPreset,
  importFieldLabels,
  importFields,
} from '@tumble/contracts/import';
import { useState } from 'react';
import { ResourceHeader } from '../../admin/resource-header';
import { checkFile, importRun, readColumns, startImport } from './import-api';

const presetNames: Record<ImportPreset, string> = { iclasspro: 'iClassPro', jackrabbit: 'Jackrabbit' };
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong.');

/**
 * Import families from another system (issue 17, `/admin/import`): upload the CSV, say which
 * column holds what (or take the iClassPro / Jackrabbit preset), check it (nothing is written),
 * then import it all at once and watch the progress.
 */
export function ImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<ImportColumnsResponse | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [check, setCheck] = useState<ImportDryRunResponse | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = useQuery({
    queryKey: ['admin', 'import', 'run', runId],
    queryFn: ({ signal }) => importRun(runId!, signal),
    enabled: runId !== null,
    // Polled while the import writes; stops once it is done or failed.
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 500 : false),
  });

  async function act(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setColumns(null);
    setCheck(null);
    setRunId(null);
    if (chosen)
      void act(async () => {
        const answer = await readColumns(chosen);
        setColumns(answer);
        setMapping(answer.mapping);
      });
  };
  const setField = (field: ImportField, column: string | null) => {
    setMapping((m) => ({ ...m, [field]: column ?? '' }));
    setCheck(null);
  };
  const fields = importFields.filter((f) => f !== 'class_name' || columns?.has_classes);
  const current = run.data;

  return (
    <Stack maw={900} w="100%">
      <ResourceHeader
        title="Import families"
        crumbs={[{ label: 'Families' }, { label: 'Import families' }]}
      />
      <Text size="sm" c="dimmed">
        Bring families and children from another system with a CSV file. Check the file first: nothing is
        written until every row is right, and then everything is imported at once. New families get an email
        to choose their password.
      </Text>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Card withBorder p={{ base: 'sm', sm: 'md' }}>
        <FileInput
          label="CSV file"
          description="A header row, then one row per child (up to 10 MB)"
          placeholder="Choose a file"
          accept=".csv,text/csv"
          value={file}
          onChange={choose}
          clearable
        />
      </Card>
      {columns ? (
        <Card withBorder p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <Title order={2} fz="lg">
                Columns ({columns.rows} rows)
              </Title>
              <Group gap="xs">
                {(Object.keys(presetNames) as ImportPreset[]).map((preset) => (
                  <Button
                    key={preset}
                    size="xs"
                    variant="default"
                    onClick={() => {
                      setMapping(columns.presets[preset]);
                      setCheck(null);
                    }}
                  >
                    {presetNames[preset]} columns
                  </Button>
                ))}
              </Group>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {fields.map((field) => (
                <Select
                  key={field}
                  label={importFieldLabels[field]}
                  placeholder="Not in this file"
                  data={columns.columns}
                  value={mapping[field] || null}
                  onChange={(value) => setField(field, value)}
                  clearable
                />
              ))}
            </SimpleGrid>
            <Group>
              <Button
                loading={busy && !check}
                onClick={() => void act(async () => setCheck(await checkFile(file!, mapping)))}
              >
                Check the file
              </Button>
            </Group>
          </Stack>
        </Card>
      ) : null}
      {check ? (
        <Card withBorder p={{ base: 'sm', sm: 'md' }} aria-label="Check">
          <Stack gap="sm">
            {check.problems.length > 0 ? (
              <>
                <Title order={2} fz="lg" c="red.8">
                  {count(check.problems.length, 'problem', 'problems')} to fix
                </Title>
                <Text size="sm">
                  Nothing was imported. Fix these rows in the file, choose it again and check it.
                </Text>
                <List size="sm" spacing={4}>
                  {check.problems.map((p) => (
                    <List.Item key={p}>{p}</List.Item>
                  ))}
                </List>
              </>
            ) : (
              <>
                <Title order={2} fz="lg">
                  Ready to import
                </Title>
                <Text size="sm">
                  {[
                    count(check.summary.new_families, 'new family', 'new families'),
                    count(check.summary.existing_families, 'existing family', 'existing families'),
                    count(check.summary.children, 'child', 'children'),
                    count(check.summary.enrolments, 'class place', 'class places'),
                  ].join(', ')}
                  .
                </Text>
                <List size="sm" spacing={4}>
                  {check.actions.map((a) => (
                    <List.Item key={a}>{a}</List.Item>
                  ))}
                </List>
                <Group>
                  <Button
                    color="teal"
                    loading={busy || current?.status === 'running'}
                    disabled={current?.status === 'done'}
                    onClick={() =>
                      void act(async () => {
                        setRunId((await startImport(file!, mapping)).id);
                      })
                    }
                  >
                    Import {check.rows} rows
                  </Button>
                </Group>
              </>
            )}
          </Stack>
        </Card>
      ) : null}
      {current ? (
        <Card withBorder p={{ base: 'sm', sm: 'md' }} aria-label="Import">
          <Stack gap="sm">
            {current.status === 'running' ? (
              <>
                <Text size="sm">
                  Importing… {current.done_rows} of {current.total_rows} rows
                </Text>
                <Progress value={(100 * current.done_rows) / Math.max(1, current.total_rows)} animated />
              </>
            ) : current.status === 'done' ? (
              <Alert color="teal" role="status" title="Imported">
                {count(current.families, 'family', 'families')},{' '}
                {count(current.children, 'child', 'children')} and{' '}
                {count(current.enrolments, 'class place', 'class places')} imported;{' '}
                {count(current.invitations, 'invitation', 'invitations')} to set a password on the way.
              </Alert>
            ) : (
              <Alert color="red" role="alert" title="Not imported">
                {current.message}
              </Alert>
            )}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
