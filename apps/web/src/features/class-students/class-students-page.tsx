import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { ClassStudent, ClassStudentsResponse } from '@tumble/contracts/class-students';
import { messages } from '@tumble/contracts/messages';
import { ageText } from '@tumble/contracts/roll';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { DateField } from '../../admin/fields/date-field';
import { ReferenceSelect } from '../../admin/fields/reference-select';
import { formatDate, formatDateTime } from '../../admin/format';
import { ResourceHeader } from '../../admin/resource-header';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { useChildSearch, useClassStudentChange, useClassStudents } from './class-students-api';

/** A failed request's message (the server's, else the general one) as an alert; nothing otherwise. */
function Failure({ of }: { of: { isError: boolean; error: unknown } }) {
  if (!of.isError) return null;
  return (
    <Alert color="red" role="alert">
      {of.error instanceof ApiError
        ? (of.error.serverMessage ?? messages.communicationError)
        : messages.communicationError}
    </Alert>
  );
}

const HELD_FOR: Record<string, string> = {
  checkout: 'paying now',
  offer: 'a waitlist offer',
  trial_conversion: 'enrolling after a trial',
  rollover: 're-enrolment',
};
const TIERS: Record<number, string> = { 1: 'current student', 2: 'returning', 3: 'sibling', 4: 'new' };
const STATUS_COLOUR = {
  active: 'teal',
  trial: 'blue',
  pending: 'orange',
  waitlisted: 'grape',
  withdrawn: 'gray',
};
const STATUS_LABEL = {
  active: 'Active',
  trial: 'Trial',
  pending: 'Held',
  waitlisted: 'Waitlisted',
  withdrawn: 'Withdrawn',
};

/** The status badge and what it means for this child (held until…, withdrawn from…). */
function StatusText({ student }: { student: ClassStudent }) {
  const detail =
    student.status === 'pending'
      ? `for ${HELD_FOR[student.held_for ?? ''] ?? student.held_for ?? ''}${student.hold_expires_at ? ` until ${formatDateTime(student.hold_expires_at)}` : ''}`
      : student.status === 'withdrawn' || (student.status === 'active' && student.withdrawn_from)
        ? `${student.status === 'active' ? 'leaves' : 'from'} ${formatDate(student.withdrawn_from)}`
        : student.status === 'waitlisted' && student.tier
          ? TIERS[student.tier]
          : '';
  return (
    <Group gap={6} wrap="wrap">
      <Badge color={STATUS_COLOUR[student.status]} variant="light" tt="none" style={{ flexShrink: 0 }}>
        {STATUS_LABEL[student.status]}
      </Badge>
      {detail ? (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      ) : null}
    </Group>
  );
}

/** '4 yrs 7 mths', as the roll says it. */
const ageOf = (age: ClassStudent['age']) => (age ? ageText(age) : '');

type Dialog = { kind: 'transfer' | 'withdraw'; student: ClassStudent } | null;

/** The buttons of one child: transfer and withdraw a place, offer a waitlisted child one. */
function RowActions({
  student,
  open,
  offer,
  offering,
}: {
  student: ClassStudent;
  open: (dialog: Dialog) => void;
  offer: (student: ClassStudent) => void;
  offering: boolean;
}) {
  if (student.status === 'waitlisted')
    return (
      <Button size="xs" variant="light" onClick={() => offer(student)} loading={offering}>
        Offer a place
      </Button>
    );
  if (student.status !== 'active' || student.enrolment_id === null) return null;
  return (
    <Group gap={6}>
      <Button size="xs" variant="light" onClick={() => open({ kind: 'transfer', student })}>
        Transfer
      </Button>
      <Button size="xs" variant="light" color="red" onClick={() => open({ kind: 'withdraw', student })}>
        Withdraw
      </Button>
    </Group>
  );
}

/** Find a child by name and enrol them from a date (the next session unless changed). */
function EnrolCard({ data, termClassId }: { data: ClassStudentsResponse; termClassId: number }) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [childId, setChildId] = useState<string | null>(null);
  const [startsOn, setStartsOn] = useState<string | null>(null);
  const found = useChildSearch(q);
  const change = useClassStudentChange(termClassId);
  const options = (found.data ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.name} · ${formatDate(c.dob)} · ${c.parent_name}`,
  }));
  const full = data.places_left < 1;
  return (
    <Card withBorder p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Enrol a child
        </Title>
        <Failure of={change} />
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Child"
            placeholder="Type a name"
            data={options}
            value={childId}
            onChange={setChildId}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: all }) => all}
            nothingFoundMessage={
              q.trim() ? (found.isFetching ? 'Loading…' : 'No child found') : 'Type a name'
            }
            style={{ flex: '1 1 260px' }}
          />
          <DateField
            label="From"
            value={startsOn ?? data.next_session}
            onChange={setStartsOn}
            minDate={data.today}
            style={{ flex: '0 1 160px' }}
          />
          <Button
            disabled={!childId || full}
            loading={change.isPending}
            onClick={() =>
              change.mutate(
                {
                  kind: 'enrol',
                  body: { child_id: Number(childId), starts_on: startsOn ?? data.next_session ?? '' },
                },
                {
                  onSuccess: (answer) => {
                    notifications.show({ message: answer.message, color: 'teal' });
                    setChildId(null);
                    setSearch('');
                    setStartsOn(null);
                  },
                },
              )
            }
          >
            Enrol
          </Button>
        </Group>
        {full ? (
          <Text size="sm" c="dimmed">
            This class is full from its next session. Withdraw or transfer a child to free a place.
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Transfer to another class, or withdraw, from a date (today by default). */
function ChangeDialog({
  dialog,
  close,
  data,
  termClassId,
}: {
  dialog: NonNullable<Dialog>;
  close: () => void;
  data: ClassStudentsResponse;
  termClassId: number;
}) {
  const [from, setFrom] = useState<string | null>(data.next_session ?? data.today);
  const [target, setTarget] = useState<string | null>(null);
  const change = useClassStudentChange(termClassId);
  const { student } = dialog;
  const transfer = dialog.kind === 'transfer';
  const submit = () => {
    if (!from || student.enrolment_id === null) return;
    const onSuccess = (answer: { message: string }) => {
      notifications.show({ message: answer.message, color: 'teal' });
      close();
    };
    if (transfer) {
      if (!target) return;
      change.mutate(
        { kind: 'transfer', body: { enrolment_id: student.enrolment_id, to_class_id: Number(target), from } },
        { onSuccess },
      );
    } else
      change.mutate({ kind: 'withdraw', body: { enrolment_id: student.enrolment_id, from } }, { onSuccess });
  };
  return (
    <Modal
      opened
      onClose={close}
      title={`${transfer ? 'Transfer' : 'Withdraw'} ${student.child_name}`}
      centered
      size="md"
    >
      <Stack gap="sm">
        <Failure of={change} />
        {transfer ? (
          <ReferenceSelect
            label="To class"
            placeholder="Choose a class"
            target={{ resource: 'term-classes', parent: null }}
            value={target}
            onChange={setTarget}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
        <DateField label="From" value={from} onChange={setFrom} minDate={data.today} withAsterisk />
        <Text size="sm" c="dimmed">
          {transfer
            ? 'The difference in price of the sessions left is charged or credited.'
            : 'The sessions not run from this date are credited or refunded by your withdrawal policy.'}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color={transfer ? undefined : 'red'}
            onClick={submit}
            loading={change.isPending}
            disabled={!from || (transfer && !target)}
          >
            {transfer ? 'Transfer' : 'Withdraw'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A class's students (SPEC class-students; `/admin/term-classes/:id/class-students`): every child
 * with their state, the places left, and the front desk's changes. A table on a tablet or a
 * computer, a card per child on a phone.
 */
export function ClassStudentsPage() {
  const termClassId = Number(useParams().id);
  const students = useClassStudents(termClassId);
  const offer = useClassStudentChange(termClassId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const narrow = useNarrowScreen();
  const data = students.data;
  const title = data ? `${data.term_class.name}: students` : 'Students';
  const crumbs = [
    { label: 'Classes', to: '/admin/term-classes' },
    ...(data ? [{ label: data.term_class.name, to: `/admin/term-classes/${termClassId}` }] : []),
    { label: 'Students' },
  ];
  const offerTo = (student: ClassStudent) =>
    student.waitlist_id !== null &&
    offer.mutate(
      { kind: 'offer', body: { waitlist_id: student.waitlist_id } },
      { onSuccess: (answer) => notifications.show({ message: answer.message, color: 'teal' }) },
    );

  let list: ReactNode = null;
  if (data && data.students.length === 0) list = <Text c="dimmed">No children in this class yet.</Text>;
  else if (data && narrow)
    list = (
      <Stack gap="sm">
        {data.students.map((s) => (
          <Card key={`${s.enrolment_id}-${s.waitlist_id}`} withBorder p="sm" aria-label={s.child_name}>
            <Stack gap={6}>
              <Group justify="space-between" gap="xs">
                <Text fw={600}>{s.child_name}</Text>
                <Text size="sm" c="dimmed">
                  {ageOf(s.age)}
                </Text>
              </Group>
              <StatusText student={s} />
              <Text size="sm">
                {s.parent_name}
                {s.phone ? ` · ${s.phone}` : ''}
              </Text>
              {s.starts_on ? (
                <Text size="sm" c="dimmed">
                  Starts {formatDate(s.starts_on)}
                </Text>
              ) : null}
              <RowActions student={s} open={setDialog} offer={offerTo} offering={offer.isPending} />
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  else if (data)
    list = (
      <Table.ScrollContainer minWidth={600}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Child</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Parent</Table.Th>
              <Table.Th>Start</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.students.map((s) => (
              <Table.Tr key={`${s.enrolment_id}-${s.waitlist_id}`}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {s.child_name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {ageOf(s.age)}
                  </Text>
                </Table.Td>
                <Table.Td miw={120}>
                  <StatusText student={s} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.parent_name}</Text>
                  {s.phone ? (
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {s.phone}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(s.starts_on)}</Table.Td>
                <Table.Td>
                  <RowActions student={s} open={setDialog} offer={offerTo} offering={offer.isPending} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Stack maw={1200} w="100%">
      <ResourceHeader title={title} crumbs={crumbs} />
      {students.isPending ? <Loader aria-label="Loading" /> : null}
      <Failure of={students} />
      <Failure of={offer} />
      {data ? (
        <>
          <Group gap="lg" wrap="wrap">
            <Text size="sm">
              <b>{data.places_left}</b> of {data.term_class.capacity} places left
            </Text>
            <Text size="sm" c="dimmed">
              {data.term_class.term_name}
              {data.next_session ? ` · next session ${formatDate(data.next_session)}` : ' · no sessions left'}
            </Text>
          </Group>
          <EnrolCard data={data} termClassId={termClassId} />
          {list}
          {dialog ? (
            <ChangeDialog
              dialog={dialog}
              close={() => setDialog(null)}
              data={data}
              termClassId={termClassId}
            />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
