import { Alert, Badge, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { FormResponse } from '@tumble/contracts/http';
import type { MakeupCredit, MyClass, MyClassesChild, MySession } from '@tumble/contracts/makeups';
import { messages } from '@tumble/contracts/messages';
import { type ReactNode, useState } from 'react';
import { formatDate } from '../../admin/format';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { CancelButton } from '../cancellation/cancel-button';
import { formatDayWithWeekday } from '../students/student-format';
import { type ClassChange, useClassChange, useMakeupOptions, useMyClasses } from './api';

const WEEKDAYS = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];

/** What the last change of a child answered: shown on that child's card. */
type Outcome = { ok: boolean; message: string };

function outcomeOf(response: FormResponse): Outcome {
  if (response.valid) return { ok: true, message: response.info?.message ?? 'Saved.' };
  return { ok: false, message: response.error?.html_message ?? messages.communicationError };
}

function failureOf(error: Error): Outcome {
  return {
    ok: false,
    message: (error instanceof ApiError && error.serverMessage) || messages.communicationError,
  };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-label={title}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

function ClassLine({ item }: { item: MyClass }) {
  const where = [item.venue, item.coach ? `Coach ${item.coach}` : null].filter(Boolean).join(' · ');
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {item.class_name}
        {item.level ? ` · ${item.level}` : ''}
      </Text>
      <Text size="sm">
        {WEEKDAYS[item.weekday - 1]} {item.start_time}–{item.end_time}
        {where ? ` · ${where}` : ''}
      </Text>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed">
          {item.term} · {formatDate(item.term_start)} to {formatDate(item.term_end)}
        </Text>
        <CancelButton
          target={{ kind: 'enrolment', enrolment_id: item.enrolment_id }}
          label="Withdraw"
          title="Withdraw from this class?"
          keepLabel="Stay in the class"
          confirmLabel="Withdraw"
        />
      </Group>
    </Stack>
  );
}

function StateBadge({ session }: { session: MySession }) {
  if (session.state === 'cancelled')
    return (
      <Badge color="gray" variant="light">
        Cancelled by the gym
      </Badge>
    );
  if (session.state === 'absent')
    return (
      <Badge color="orange" variant="light">
        Marked absent
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      Coming
    </Badge>
  );
}

function SessionLine({
  session,
  childId,
  childName,
  onChange,
  busy,
}: {
  session: MySession;
  childId: number;
  childName: string;
  onChange: (change: ClassChange) => void;
  busy: boolean;
}) {
  const when = `${formatDayWithWeekday(session.date)} ${session.start_time}`;
  let action: ReactNode = null;
  if (session.changeable && session.kind === 'makeup' && session.state !== 'cancelled')
    action = (
      <Button
        size="compact-sm"
        variant="default"
        loading={busy}
        aria-label={`Cancel the makeup of ${childName} on ${when}`}
        onClick={() => onChange({ kind: 'cancel', enrolmentId: session.enrolment_id })}
      >
        {/* The visible words are part of the spoken name (WCAG 2.5.3: speech users say what they see). */}
        Cancel the makeup
      </Button>
    );
  else if (session.changeable && session.state === 'coming')
    action = (
      <Button
        size="compact-sm"
        variant="light"
        color="orange"
        loading={busy}
        aria-label={`Mark ${childName} absent on ${when}`}
        onClick={() => onChange({ kind: 'absent', sessionId: session.session_id, childId })}
      >
        Mark {childName} absent
      </Button>
    );
  else if (session.changeable && session.state === 'absent')
    action = (
      <Button
        size="compact-sm"
        variant="default"
        loading={busy}
        aria-label={`Undo the absence of ${childName} on ${when}`}
        onClick={() => onChange({ kind: 'undo', sessionId: session.session_id, childId })}
      >
        Undo the absence
      </Button>
    );
  else if (session.state !== 'cancelled')
    action = (
      <Text size="xs" c="dimmed">
        Changes closed
      </Text>
    );
  return (
    <Group
      justify="space-between"
      gap="xs"
      wrap="wrap"
      component="article"
      aria-label={`${session.class_name} ${when}`}
      py={4}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={2} style={{ minWidth: 0, flex: '1 1 260px' }}>
        <Text size="sm" fw={600}>
          {when}–{session.end_time}
        </Text>
        <Group gap={6} wrap="wrap">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {session.class_name}
            {session.venue ? ` · ${session.venue}` : ''}
          </Text>
          {session.kind === 'makeup' ? (
            <Badge size="sm" variant="outline">
              Makeup
            </Badge>
          ) : null}
        </Group>
        <Group gap={6}>
          <StateBadge session={session} />
          {session.cancel_reason ? (
            <Text size="xs" c="dimmed">
              {session.cancel_reason}
            </Text>
          ) : null}
        </Group>
      </Stack>
      {action}
    </Group>
  );
}

function CreditLine({ credit }: { credit: MakeupCredit }) {
  return (
    <Group
      justify="space-between"
      gap="xs"
      wrap="wrap"
      component="article"
      aria-label={`Makeup credit until ${formatDate(credit.expires_on)}`}
      opacity={credit.expired ? 0.55 : 1}
    >
      <Stack gap={0} style={{ minWidth: 0, flex: '1 1 200px' }}>
        <Text size="sm" fw={600}>
          {credit.class_type}
          {credit.level ? ` · ${credit.level}` : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {credit.reason === 'cancelled' ? 'Session cancelled by the gym' : 'Absence'} on{' '}
          {formatDayWithWeekday(credit.missed_date)}
        </Text>
      </Stack>
      {credit.expired ? (
        <Badge color="gray" variant="light">
          Expired {formatDate(credit.expires_on)}
        </Badge>
      ) : (
        <Text size="sm">Use by {formatDate(credit.expires_on)}</Text>
      )}
    </Group>
  );
}

/** The sessions a child's credits can book, each with a Book button. */
function MakeupPicker({
  child,
  onClose,
  onBook,
  busySession,
}: {
  child: MyClassesChild;
  onClose: () => void;
  onBook: (sessionId: number) => void;
  busySession: number | null;
}) {
  const options = useMakeupOptions(child.id);
  let body: ReactNode;
  if (options.isError)
    body = (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  else if (options.isPending) body = <PageLoader />;
  else if (options.data.sessions.length === 0)
    body = (
      <Text c="dimmed">
        No session of the same class and level has a free place before the credits expire.
      </Text>
    );
  else
    body = (
      <Stack gap="xs">
        {options.data.sessions.map((option) => {
          const when = `${formatDayWithWeekday(option.date)} ${option.start_time}`;
          return (
            <Group
              key={option.session_id}
              justify="space-between"
              gap="xs"
              wrap="wrap"
              component="article"
              aria-label={`${option.class_name} ${when}`}
            >
              <Stack gap={0} style={{ minWidth: 0, flex: '1 1 200px' }}>
                <Text size="sm" fw={600}>
                  {when}–{option.end_time}
                </Text>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {[option.class_name, option.venue, option.coach ? `Coach ${option.coach}` : null]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
                <Text size="xs" c="dimmed">
                  {option.places_left === 1 ? '1 place left' : `${option.places_left} places left`}
                </Text>
              </Stack>
              <Button
                size="compact-sm"
                loading={busySession === option.session_id}
                aria-label={`Book ${option.class_name} on ${when}`}
                onClick={() => onBook(option.session_id)}
              >
                Book
              </Button>
            </Group>
          );
        })}
      </Stack>
    );
  return (
    <Modal opened onClose={onClose} title={`Book a makeup for ${child.first_name}`} size="lg">
      {body}
    </Modal>
  );
}

function ChildCard({ child }: { child: MyClassesChild }) {
  const change = useClassChange();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [picking, setPicking] = useState(false);
  const name = `${child.first_name} ${child.last_name}`;
  const usable = child.credits.filter((c) => !c.expired).length;

  function run(next: ClassChange) {
    setOutcome(null);
    change.mutate(next, {
      onSuccess: (response) => {
        setOutcome(outcomeOf(response));
        if (response.valid && next.kind === 'book') setPicking(false);
      },
      onError: (error) => setOutcome(failureOf(error)),
    });
  }
  const busyOf = (test: (c: ClassChange) => boolean) =>
    change.isPending && change.variables !== undefined && test(change.variables);

  return (
    <Card component="article" aria-label={name} padding="md">
      <Stack gap="md">
        <Title order={2} fz="lg">
          {name}
        </Title>
        {outcome ? (
          <Alert color={outcome.ok ? 'green' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
            {outcome.message}
          </Alert>
        ) : null}
        <Section title="Classes">
          {child.classes.length === 0 ? (
            <Text size="sm" c="dimmed">
              Not enrolled in a class this term.
            </Text>
          ) : (
            child.classes.map((item) => <ClassLine key={item.enrolment_id} item={item} />)
          )}
        </Section>
        <Section title="Makeup credits">
          {child.credits.length === 0 ? (
            <Text size="sm" c="dimmed">
              No makeup credits.
            </Text>
          ) : (
            <Stack gap="xs">
              {child.credits.map((credit) => (
                <CreditLine key={credit.id} credit={credit} />
              ))}
            </Stack>
          )}
          <Group>
            <Button
              size="sm"
              disabled={usable === 0}
              onClick={() => {
                setOutcome(null);
                setPicking(true);
              }}
              aria-label={`Book a makeup for ${child.first_name}`}
            >
              Book a makeup
            </Button>
          </Group>
        </Section>
        <Section title="Upcoming sessions">
          {child.sessions.length === 0 ? (
            <Text size="sm" c="dimmed">
              No upcoming sessions.
            </Text>
          ) : (
            <Stack gap={0}>
              {child.sessions.map((session) => (
                <SessionLine
                  key={`${session.session_id}-${session.enrolment_id}`}
                  session={session}
                  childId={child.id}
                  childName={child.first_name}
                  onChange={run}
                  busy={busyOf(
                    (c) =>
                      (c.kind === 'cancel' && c.enrolmentId === session.enrolment_id) ||
                      ((c.kind === 'absent' || c.kind === 'undo') && c.sessionId === session.session_id),
                  )}
                />
              ))}
            </Stack>
          )}
        </Section>
      </Stack>
      {picking ? (
        <MakeupPicker
          child={child}
          onClose={() => setPicking(false)}
          onBook={(sessionId) => run({ kind: 'book', sessionId, childId: child.id })}
          busySession={
            change.isPending && change.variables?.kind === 'book' ? change.variables.sessionId : null
          }
        />
      ) : null}
    </Card>
  );
}

/** /admin/students/classes: the parent's children's classes, upcoming sessions, absences and makeups. */
export function MyClassesPage() {
  const page = useMyClasses();
  const hours = page.data?.cutoff_hours ?? 2;
  let body: ReactNode;
  if (page.isError)
    body = (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  else if (page.isPending) body = <PageLoader />;
  else if (page.data.children.length === 0)
    body = <Text c="dimmed">Add your children to see their classes here.</Text>;
  else body = page.data.children.map((child) => <ChildCard key={child.id} child={child} />);
  return (
    <Stack gap="md" maw={900} w="100%" mx="auto">
      <PageTitle
        title="My Classes"
        description={`Mark an absence up to ${hours} ${hours === 1 ? 'hour' : 'hours'} before a class starts; a missed class can be made up with a credit before it expires.`}
      />
      {body}
    </Stack>
  );
}
