import { Alert, Badge, Button, Card, Group, NativeSelect, Radio, Stack, Table, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { RefundChoice, StaffPrivateLessons } from '@tumble/contracts/private-lessons';
import { useState } from 'react';
import { useParams } from 'react-router';
import { DateField } from '../../admin/fields/date-field';
import { formatDate, formatMoney } from '../../admin/format';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { CancelLessonModal } from './cancel-lesson-modal';
import { type StaffFilter, useStaffCancelLesson, useStaffLessons } from './private-lessons-api';

type Lesson = StaffPrivateLessons['lessons'][number];

const statusLabels: Record<Lesson['status'], string> = {
  pending: 'Awaiting payment',
  confirmed: 'Booked',
  cancelled: 'Cancelled',
  expired: 'Expired',
  refund_due: 'Refund due',
};
const choiceLabels: Record<RefundChoice, string> = { refund: 'Refund', credit: 'Credit', none: 'None' };

const todayLocal = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/**
 * /admin/private-lessons (Classes group), and /admin/coaches/:id/private-lessons from a coach's
 * view: private lesson bookings by coach and dates. A lesson whose coach went on leave after it was
 * booked is flagged "Coach on leave", never cancelled silently; staff cancel with refund, credit or
 * none (recorded; the billing work makes refunds real).
 */
export function StaffPrivateLessonsPage() {
  const params = useParams();
  const fromCoach = Number(params.id);
  const [filter, setFilter] = useState<StaffFilter>({
    coachId: Number.isInteger(fromCoach) && fromCoach > 0 ? fromCoach : null,
    from: todayLocal(),
    to: '',
  });
  const lessons = useStaffLessons(filter);
  const cancel = useStaffCancelLesson();
  const [asking, setAsking] = useState<Lesson | null>(null);
  const [choice, setChoice] = useState<RefundChoice>('credit');
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);

  const narrow = useNarrowScreen();
  const rows = lessons.data?.lessons ?? [];
  const ask = (lesson: Lesson) => {
    setChoice('credit');
    setAsking(lesson);
  };
  const clashes = rows.filter((l) => l.coach_on_leave).length;
  return (
    <Stack gap="md" w="100%">
      <PageTitle
        title="Private lessons"
        description="Lessons parents booked with a coach's private slots. Coaches' slots are set on each coach."
      />
      <Card>
        <Group gap="sm" align="flex-end">
          <NativeSelect
            label="Coach"
            data={[
              { value: '', label: 'All coaches' },
              ...(lessons.data?.coaches ?? []).map((c) => ({ value: String(c.id), label: c.name })),
            ]}
            value={filter.coachId === null ? '' : String(filter.coachId)}
            onChange={(event) =>
              setFilter({
                ...filter,
                coachId: event.currentTarget.value ? Number(event.currentTarget.value) : null,
              })
            }
            w={{ base: '100%', xs: 220 }}
          />
          <DateField
            label="From"
            value={filter.from || null}
            onChange={(from) => setFilter({ ...filter, from: from ?? '' })}
            clearable
            w={{ base: '47%', xs: 170 }}
          />
          <DateField
            label="To"
            value={filter.to || null}
            onChange={(to) => setFilter({ ...filter, to: to ?? '' })}
            clearable
            w={{ base: '47%', xs: 170 }}
          />
        </Group>
      </Card>
      {notice ? (
        <Alert color={notice.color} role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      ) : null}
      {clashes > 0 ? (
        <Alert color="orange" role="alert">
          {clashes === 1 ? '1 lesson is' : `${clashes} lessons are`} with a coach who is on leave that day.
          Please arrange another coach or cancel with the family.
        </Alert>
      ) : null}
      {lessons.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : lessons.isPending ? (
        <PageLoader />
      ) : rows.length === 0 ? (
        <Text c="dimmed">No private lessons booked for these dates.</Text>
      ) : narrow ? (
        <Stack gap="sm">
          {rows.map((lesson) => (
            <LessonCard key={lesson.id} lesson={lesson} onCancel={() => ask(lesson)} />
          ))}
        </Stack>
      ) : (
        <Card p={0}>
          <Table.ScrollContainer minWidth={860}>
            <Table striped verticalSpacing="xs" aria-label="Private lessons">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Coach</Table.Th>
                  <Table.Th>Children</Table.Th>
                  <Table.Th>Parent</Table.Th>
                  <Table.Th>Paid</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((lesson) => (
                  <Table.Tr key={lesson.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(lesson.date)}</Table.Td>
                    <Table.Td>{lesson.time}</Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        <Text size="sm">{lesson.coach_name}</Text>
                        {lesson.coach_on_leave ? (
                          <Badge color="orange" variant="light" size="sm">
                            Coach on leave
                          </Badge>
                        ) : null}
                      </Stack>
                    </Table.Td>
                    <Table.Td>{lesson.children.join(', ')}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{lesson.parent_name}</Text>
                      <Text size="xs" c="dimmed">
                        {lesson.parent_email}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMoney(lesson.amount_paid)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{statusLabels[lesson.status]}</Text>
                      {lesson.refund_choice ? (
                        <Text size="xs" c="dimmed">
                          {choiceLabels[lesson.refund_choice]}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {lesson.status === 'confirmed' ? (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => ask(lesson)}
                          aria-label={`Cancel lesson ${lesson.code}`}
                        >
                          Cancel
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <CancelLessonModal
        lesson={asking}
        onClose={() => setAsking(null)}
        busy={cancel.isPending}
        onConfirm={(lesson) =>
          cancel.mutate(
            { id: lesson.id, choice },
            {
              onSuccess: (answer) => setNotice({ color: 'green', text: answer.message }),
              onError: (error) =>
                setNotice({
                  color: 'red',
                  text: (error instanceof ApiError && error.serverMessage) || messages.communicationError,
                }),
              onSettled: () => setAsking(null),
            },
          )
        }
      >
        {(lesson) => (
          <>
            <Text size="sm">
              {formatDate(lesson.date)} at {lesson.time} with {lesson.coach_name} for{' '}
              {lesson.children.join(', ')} (paid {formatMoney(lesson.amount_paid)}).
            </Text>
            <Radio.Group
              label="What happens to the amount paid"
              value={choice}
              onChange={(value) => setChoice(value as RefundChoice)}
            >
              <Stack gap={6} mt={6}>
                <Radio value="refund" label="Refund" />
                <Radio value="credit" label="Credit" />
                <Radio value="none" label="None" />
              </Stack>
            </Radio.Group>
          </>
        )}
      </CancelLessonModal>
    </Stack>
  );
}

/** One lesson as a card (phones: no table to scroll sideways to the Cancel button). */
function LessonCard({ lesson, onCancel }: { lesson: Lesson; onCancel: () => void }) {
  return (
    <Card component="article" aria-label={`Private lesson ${lesson.code}`} padding="md">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={700}>
            {formatDate(lesson.date)} · {lesson.time}
          </Text>
          <Text size="sm">{statusLabels[lesson.status]}</Text>
        </Group>
        <Group gap="xs">
          <Text size="sm">{lesson.coach_name}</Text>
          {lesson.coach_on_leave ? (
            <Badge color="orange" variant="light" size="sm">
              Coach on leave
            </Badge>
          ) : null}
        </Group>
        <Text size="sm">{lesson.children.join(', ')}</Text>
        <Text size="xs" c="dimmed">
          {lesson.parent_name} · {lesson.parent_email}
        </Text>
        <Group justify="space-between" gap="xs">
          <Text size="sm">
            Paid {formatMoney(lesson.amount_paid)}
            {lesson.refund_choice ? ` · ${choiceLabels[lesson.refund_choice]}` : ''}
          </Text>
          {lesson.status === 'confirmed' ? (
            <Button
              size="xs"
              variant="default"
              onClick={onCancel}
              aria-label={`Cancel lesson ${lesson.code}`}
            >
              Cancel
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
