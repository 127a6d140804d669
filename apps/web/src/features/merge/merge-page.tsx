import { Alert, Button, Card, Group, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { MergeResult } from '@tumble/contracts/merge';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useStudentDirectory, useStudentProfile } from '../student-directory/student-directory-api';
import { mergeChildren, mergeFamilies } from './merge-api';

const failure = (error: unknown) =>
  (error instanceof ApiError && error.serverMessage) || messages.communicationError;

/** What the merge moves, per kind, without the kinds it does not touch. */
function MovedTable({ result }: { result: MergeResult }) {
  const rows = Object.entries(result.moved).filter(([, n]) => n > 0);
  return (
    <Stack gap="xs">
      {rows.length === 0 ? (
        <Text size="sm">Nothing else names this record.</Text>
      ) : (
        <Table withTableBorder aria-label="What moves">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Records</Table.Th>
              <Table.Th ta="right">Count</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(([kind, count]) => (
              <Table.Tr key={kind}>
                <Table.Td>{kind.replaceAll('_', ' ')}</Table.Td>
                <Table.Td ta="right">{count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {result.notes.map((note) => (
        <Text size="sm" key={note}>
          {note}
        </Text>
      ))}
    </Stack>
  );
}

interface Choice {
  id: number;
  label: string;
}

/** Preview, then Merge: one flow for families and children. */
function MergeFlow({
  choices,
  run,
  doneLink,
}: {
  choices: Choice[];
  run: (keptId: number, preview: boolean) => Promise<MergeResult>;
  doneLink: (keptId: number) => string;
}) {
  const client = useQueryClient();
  const [kept, setKept] = useState<number | null>(null);
  const [preview, setPreview] = useState<MergeResult | null>(null);
  const [done, setDone] = useState<MergeResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (asPreview: boolean) => {
    if (kept === null) return;
    setBusy(true);
    setError(null);
    try {
      const result = await run(kept, asPreview);
      if (asPreview) setPreview(result);
      else {
        setDone(result);
        await client.invalidateQueries();
      }
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  };
  if (done && kept !== null) {
    return (
      <Alert color="green" title="Merged">
        <Stack gap="xs">
          <MovedTable result={done} />
          <Link to={doneLink(kept)}>Open the kept record</Link>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack>
      <Radio.Group
        label="Keep"
        value={kept === null ? null : String(kept)}
        onChange={(value) => {
          setKept(Number(value));
          setPreview(null);
        }}
      >
        <Stack gap="xs" mt="xs">
          {choices.length === 0 ? <Text size="sm">No match.</Text> : null}
          {choices.map((c) => (
            <Radio key={c.id} value={String(c.id)} label={c.label} />
          ))}
        </Stack>
      </Radio.Group>
      {error ? <Alert color="red">{error}</Alert> : null}
      <Group>
        <Button
          variant="default"
          disabled={kept === null}
          loading={busy && !preview}
          onClick={() => act(true)}
        >
          Preview
        </Button>
        <Button color="red" disabled={!preview} loading={busy && !!preview} onClick={() => act(false)}>
          Merge
        </Button>
      </Group>
      {preview ? (
        <Card withBorder>
          <Text fw={700} mb="xs">
            What will move
          </Text>
          <MovedTable result={preview} />
        </Card>
      ) : null}
    </Stack>
  );
}

function FamilyMerge({ parentId }: { parentId: number }) {
  const [q, setQ] = useState('');
  const search = useStudentDirectory({ q, sort: 'family', dir: 'asc', page: 1 });
  const families = new Map<number, Choice>();
  for (const row of search.data?.rows ?? []) {
    if (row.family.id !== parentId && !families.has(row.family.id)) {
      families.set(row.family.id, { id: row.family.id, label: `${row.family.name} (${row.family.email})` });
    }
  }
  return (
    <Stack>
      <Text>
        Everything of this family (children, bookings, places, invoices, payments, credit, waivers) moves to
        the family you keep; this family's account is disabled.
      </Text>
      <TextInput
        label="Find the family to keep"
        placeholder="Parent or child name, email or phone"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
      />
      <MergeFlow
        choices={q.trim() ? [...families.values()] : []}
        run={(kept, preview) => mergeFamilies({ from_parent_id: parentId, to_parent_id: kept, preview })}
        doneLink={() => '/admin/students'}
      />
    </Stack>
  );
}

function ChildMerge({ childId }: { childId: number }) {
  const profile = useStudentProfile(childId);
  if (profile.isPending) return <PageLoader />;
  if (profile.isError) return <Alert color="red">{failure(profile.error)}</Alert>;
  const child = profile.data;
  return (
    <Stack>
      <Text>
        {child.first_name} {child.last_name} ({child.dob}) was entered twice? Their places, attendance,
        bookings and waivers move to the child you keep, and this record is removed. Issued invoices do not
        change.
      </Text>
      <MergeFlow
        choices={child.family.siblings.map((s) => ({ id: s.id, label: `${s.name} (${s.dob})` }))}
        run={(kept, preview) => mergeChildren({ from_child_id: childId, to_child_id: kept, preview })}
        doneLink={(kept) => `/admin/students/${kept}`}
      />
    </Stack>
  );
}

/** /admin/students/merge?parent=<id> (a duplicate family) or ?from=<childId> (a child entered twice). */
export function MergePage() {
  const [params] = useSearchParams();
  const parent = Number(params.get('parent'));
  const child = Number(params.get('from'));
  return (
    <Stack maw={720}>
      <PageTitle title={child ? 'Merge a child entered twice' : 'Merge into another family'} />
      {child ? (
        <ChildMerge childId={child} />
      ) : parent ? (
        <FamilyMerge parentId={parent} />
      ) : (
        <Alert>Open this page from a family or a child.</Alert>
      )}
    </Stack>
  );
}
