import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { ageText, ROLL_STATUSES, type RollChild, type RollStatus } from '@tumble/contracts/roll';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { type MarkInput, MarkRefused, useMarkChild, useRoll } from './roll-api';
import { dayText } from './roll-day-page';

const STATUS = {
  present: { label: 'Present', color: 'teal' },
  absent: { label: 'Absent', color: 'red' },
  late: { label: 'Late', color: 'orange' },
  excused: { label: 'Excused', color: 'blue' },
} as const satisfies Record<RollStatus, { label: string; color: string }>;

const KIND = { trial: 'Trial', makeup: 'Makeup', casual: 'Casual' } as const;

/** The note of a mark: opened on demand, saved when it loses focus or on Enter. */
function NoteField({ child, save }: { child: RollChild; save: (note: string) => void }) {
  const saved = child.mark?.note ?? '';
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(saved);
  // A note belongs to a mark: it shows once the child is marked.
  if (!child.mark) return null;
  if (!open)
    return (
      <Group gap="xs" wrap="nowrap">
        {saved ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Note: {saved}
          </Text>
        ) : null}
        <Button
          variant="subtle"
          size="compact-md"
          onClick={() => {
            setText(saved);
            setOpen(true);
          }}
        >
          {saved ? 'Edit note' : 'Add note'}
        </Button>
      </Group>
    );
  const finish = () => {
    setOpen(false);
    if (text.trim() !== saved) save(text.trim());
  };
  return (
    <TextInput
      aria-label={`Note for ${child.first_name} ${child.last_name}`}
      size="md"
      autoFocus
      maxLength={500}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={finish}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish();
        if (e.key === 'Escape') setOpen(false);
      }}
    />
  );
}

/**
 * The family's autopay failed for good and is unpaid (billing): a small dot, named by its tooltip,
 * for staff to follow up quietly. Not a red banner: the child may see the screen.
 */
function PaymentOverdueDot() {
  return (
    <Tooltip label="Payment overdue" withArrow events={{ hover: true, focus: true, touch: true }}>
      {/* The dot is 10px; what takes focus and the tap around it is 24px (WCAG 2.5.8). */}
      <Box
        component="span"
        role="img"
        aria-label="Payment overdue"
        tabIndex={0}
        w={24}
        h={24}
        style={{ display: 'inline-flex', alignItems: 'center', justifyContent: 'center' }}
      >
        <Box component="span" w={10} h={10} bg="orange.3" style={{ borderRadius: '50%' }} />
      </Box>
    </Tooltip>
  );
}

/** A flag staff put on the child or its family (SPEC flags): its colour and name; the note on hover or tap. */
function RollFlagChip({ flag }: { flag: RollChild['flags'][number] }) {
  return (
    <Tooltip
      label={flag.note ?? flag.name}
      withArrow
      multiline
      maw={260}
      events={{ hover: true, focus: true, touch: true }}
    >
      <Group component="span" gap={4} role="listitem" tabIndex={0} wrap="nowrap" mih={24}>
        <Box
          component="span"
          w={10}
          h={10}
          style={{ borderRadius: '50%', display: 'inline-block', background: flag.colour, flexShrink: 0 }}
        />
        <Text component="span" size="sm" fw={600}>
          {flag.name}
        </Text>
      </Group>
    </Tooltip>
  );
}

function ChildRow({
  child,
  disabled,
  mark,
}: {
  child: RollChild;
  disabled: boolean;
  mark: (input: MarkInput) => void;
}) {
  const name = `${child.first_name} ${child.last_name}`;
  return (
    <Card withBorder padding="sm" aria-label={name} component="section">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={700} size="lg">
              {name}
            </Text>
            <Text size="sm" c="dimmed">
              {ageText(child.age)}
            </Text>
          </Stack>
          <Group gap={6}>
            {child.payment_overdue ? <PaymentOverdueDot /> : null}
            {child.kind !== 'enrolled' ? (
              <Badge color="grape" variant="light">
                {KIND[child.kind]}
              </Badge>
            ) : null}
            {child.photo_consent ? null : (
              <Badge color="red" variant="filled">
                No photos
              </Badge>
            )}
            {child.medical_notes ? (
              <Badge color="orange" variant="filled">
                Medical
              </Badge>
            ) : null}
          </Group>
        </Group>
        {child.flags.length > 0 ? (
          <Group gap="xs" role="list" aria-label={`Flags for ${name}`}>
            {child.flags.map((flag) => (
              <RollFlagChip key={`${flag.name}:${flag.note ?? ''}`} flag={flag} />
            ))}
          </Group>
        ) : null}
        {child.medical_notes ? (
          <Alert color="orange" p="xs" title="Medical notes" role="note">
            {child.medical_notes}
          </Alert>
        ) : null}
        <SimpleGrid cols={4} spacing={6} role="group" aria-label={`Mark ${name}`}>
          {ROLL_STATUSES.map((status) => {
            const on = child.mark?.status === status;
            return (
              <Button
                key={status}
                h={52}
                px={4}
                fz={{ base: 'sm', xs: 'md' }}
                color={STATUS[status].color}
                variant={on ? 'filled' : 'light'}
                aria-pressed={on}
                disabled={disabled}
                onClick={() => mark({ child_id: child.id, status })}
              >
                {STATUS[status].label}
              </Button>
            );
          })}
        </SimpleGrid>
        <NoteField
          key={child.mark?.note ?? ''}
          child={child}
          save={(note) => child.mark && mark({ child_id: child.id, status: child.mark.status, note })}
        />
      </Stack>
    </Card>
  );
}

/** /admin/roll/:sessionId: one tap per child (present, absent, late, excused), saved at once. */
export function RollPage() {
  const sessionId = Number(useParams().sessionId);
  const roll = useRoll(sessionId);
  const marking = useMarkChild(sessionId);
  const session = roll.data?.session;
  const cancelled = session?.status === 'cancelled';
  const refused = marking.error instanceof MarkRefused ? marking.error.message : null;

  if (roll.isPending) return <PageLoader />;
  if (roll.isError || !roll.data || !session)
    return (
      <Stack maw={900} w="100%" mx="auto">
        <Alert color="red">{messages.formLoadFailed}</Alert>
        <Anchor component={Link} to="/admin/roll">
          Back to the roll
        </Anchor>
      </Stack>
    );

  return (
    <Stack maw={900} w="100%" mx="auto" gap="md">
      <Anchor component={Link} to={`/admin/roll?date=${session.date}`} size="sm">
        ‹ {dayText(session.date)}
      </Anchor>
      <PageTitle
        title={session.class_name}
        description={[
          `${session.start_time}–${session.end_time}`,
          session.room,
          session.coach,
          `${session.marked} of ${session.expected} marked`,
        ]
          .filter(Boolean)
          .join(' · ')}
      />
      {cancelled ? (
        <Alert color="gray" title="Cancelled">
          {session.cancel_reason || 'This session was cancelled.'}
        </Alert>
      ) : null}
      {marking.isError ? (
        <Alert color="red" role="alert" withCloseButton onClose={() => marking.reset()}>
          {refused ?? 'That mark was not saved. Check the connection and tap again.'}
        </Alert>
      ) : null}
      {roll.data.children.length === 0 ? <Text c="dimmed">No children expected in this session.</Text> : null}
      {roll.data.children.map((child) => (
        <ChildRow key={child.id} child={child} disabled={cancelled} mark={(input) => marking.mutate(input)} />
      ))}
    </Stack>
  );
}
