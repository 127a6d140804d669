import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { PlannedSession, SessionGeneration } from '@tumble/contracts/class-sessions';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useResourceOptions } from '../../admin/api/get-options';
import { formatDate } from '../../admin/format';
import { ResourceHeader } from '../../admin/resource-header';
import { ApiError } from '../../api/client';
import { type GenerationTarget, useApplyGeneration, useGenerationPreview } from './class-sessions-api';
import { TermSelect } from './term-select';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
/** 'Mon 08/02/2027', and its time when it is not the class's (a session moved by hand). */
const sessionText = (s: PlannedSession, classTime: string | undefined) =>
  `${WEEKDAYS[new Date(`${s.date}T00:00:00Z`).getUTCDay()]} ${formatDate(s.date)}${s.start_time === classTime ? '' : ` ${s.start_time}`}`;

const WHY = {
  edited: 'changed by hand',
  past: 'already past',
  in_use: 'has attendance or bookings',
} as const;

const failure = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;

/** One kind of change (to add, to remove…) with its sessions as small badges that wrap on a phone. */
function Change({
  label,
  color,
  sessions,
  time,
  note,
}: {
  label: string;
  color: string;
  sessions: PlannedSession[];
  /** The class's time, shown once in the card's heading. */
  time: string | undefined;
  note?: (s: PlannedSession) => string;
}) {
  if (sessions.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label} ({sessions.length})
      </Text>
      <Group gap={6}>
        {sessions.map((s) => (
          <Badge key={`${s.id}-${s.date}`} color={color} variant="light" tt="none" size="md" fw={500}>
            {sessionText(s, time)}
            {note ? ` · ${note(s)}` : ''}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

/** The difference for one class: what generating adds, changes, removes and keeps, and what blocks it. */
function ClassDifference({ diff }: { diff: SessionGeneration }) {
  const first = diff.add[0] ?? diff.update[0] ?? diff.unchanged[0];
  const time = first?.start_time;
  const nothing = diff.add.length + diff.update.length + diff.remove.length === 0;
  return (
    <Card p={{ base: 'sm', sm: 'md' }} aria-label={diff.term_class.name}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="lg">
            {diff.term_class.name}
          </Title>
          {first ? (
            <Text size="sm" c="dimmed">
              {[first.start_time, `${first.duration_minutes} min`, first.room, first.coach]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          ) : null}
        </Group>
        {diff.problems.length > 0 ? (
          <Alert color="red" role="alert" title="Cannot generate until these are solved">
            <Stack gap={2}>
              {diff.problems.map((p) => (
                <Text key={p} size="sm">
                  {p}
                </Text>
              ))}
            </Stack>
          </Alert>
        ) : null}
        <Change label="To add" color="teal" sessions={diff.add} time={time} />
        <Change
          label="To change to the class’s time, room and coach"
          color="blue"
          sessions={diff.update}
          time={time}
        />
        <Change label="To remove" color="red" sessions={diff.remove} time={time} />
        <Change
          label="Kept as they are"
          color="gray"
          sessions={diff.kept}
          time={time}
          note={(s) => WHY[(s as SessionGeneration['kept'][number]).why]}
        />
        <Text size="sm" c="dimmed">
          {nothing ? 'Nothing to change. ' : ''}
          {diff.unchanged.length} {diff.unchanged.length === 1 ? 'session' : 'sessions'} already up to date.
        </Text>
      </Stack>
    </Card>
  );
}

const total = (classes: SessionGeneration[], key: 'add' | 'update' | 'remove') =>
  classes.reduce((sum, c) => sum + c[key].length, 0);

const summary = (classes: SessionGeneration[]) =>
  `Sessions generated: ${total(classes, 'add')} added, ${total(classes, 'update')} changed, ${total(classes, 'remove')} removed.`;

const counts = (classes: SessionGeneration[]) =>
  `${classes.length} ${classes.length === 1 ? 'class' : 'classes'}: ${total(classes, 'add')} to add, ${total(classes, 'update')} to change, ${total(classes, 'remove')} to remove`;

/**
 * Generate sessions (a custom screen of term-classes): for one class (`/admin/term-classes/:id/
 * generate-sessions`) or every class of a chosen term (`/admin/term-classes/generate-term-sessions`),
 * the difference first, then the same difference applied in one step.
 */
export function GenerateSessionsPage({ wholeTerm = false }: { wholeTerm?: boolean }) {
  const params = useParams();
  const terms = useResourceOptions(wholeTerm ? { resource: 'terms', parent: null } : null);
  const [termId, setTermId] = useState<string | null>(null);
  const target: GenerationTarget | null = wholeTerm
    ? termId
      ? { kind: 'term', id: Number(termId) }
      : null
    : { kind: 'class', id: Number(params.id) };
  const preview = useGenerationPreview(target);
  const apply = useApplyGeneration(target);
  const title = wholeTerm ? 'Generate a term’s sessions' : 'Generate sessions';
  const crumbs = [{ label: 'Classes', to: '/admin/term-classes' }, { label: title }];
  const classes = preview.data ?? [];
  const blocked = classes.some((c) => c.problems.length > 0);
  const changes = classes.reduce((sum, c) => sum + c.add.length + c.update.length + c.remove.length, 0);

  return (
    <Stack maw={1100} w="100%">
      <ResourceHeader title={title} crumbs={crumbs} />
      <Text size="sm" c="dimmed">
        Sessions follow the class’s day and time across its term, without the term’s closures and the
        restricted dates. Sessions changed by hand are kept as they are.
      </Text>
      {wholeTerm ? (
        <TermSelect
          label="Term"
          placeholder="Choose a term"
          options={terms.data}
          value={termId}
          onChange={(value) => {
            apply.reset();
            setTermId(value);
          }}
        />
      ) : null}
      {apply.isSuccess ? (
        <Alert color="teal" role="status">
          {summary(apply.data)}
        </Alert>
      ) : null}
      {apply.isError ? (
        <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }}>
          {failure(apply.error)}
        </Alert>
      ) : null}
      {target === null ? null : preview.isPending ? (
        <Loader aria-label="Loading" />
      ) : preview.isError ? (
        <Alert color="red" role="alert">
          {failure(preview.error)}
        </Alert>
      ) : (
        <>
          {classes.length === 0 ? <Text c="dimmed">This term has no classes yet.</Text> : null}
          <Group justify="space-between" gap="xs">
            <Text size="sm">{counts(classes)}</Text>
            <Button
              onClick={() => apply.mutate()}
              loading={apply.isPending}
              disabled={blocked || changes === 0}
            >
              {changes === 0
                ? 'Nothing to generate'
                : `Apply ${changes} ${changes === 1 ? 'change' : 'changes'}`}
            </Button>
          </Group>
          {classes.map((diff) => (
            <ClassDifference key={diff.term_class.id} diff={diff} />
          ))}
        </>
      )}
    </Stack>
  );
}

export const GenerateTermSessionsPage = () => <GenerateSessionsPage wholeTerm />;
