import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Divider,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import {
  type AvailableLesson,
  type MyPrivateLessons,
  privateLessonChildError,
  privateLessonMessages,
} from '@tumble/contracts/private-lessons';
import { useCallback, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatMoney } from '../../admin/format';
import { type ParentChild, useParentChildren } from '../../api/children';
import { ApiError } from '../../api/client';
import { CodeField } from '../../components/code-field';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { PriceLines } from '../../components/price-lines';
import { CheckoutLayout } from '../checkout/checkout-layout';
import { useCardPayment } from '../checkout/use-card-payment';
import { formatDayWithWeekday } from '../students/student-format';
import { CancelLessonModal } from './cancel-lesson-modal';
import {
  postLessonCheckout,
  useAvailableLessons,
  useCancelMyLesson,
  useLessonCharges,
  useLessonPaymentTerms,
  useMyLessons,
} from './private-lessons-api';

export const PRIVATE_CLASSES_PATH = '/admin/students/private-classes';

const lessonPath = (lesson: { slot_id: number; date: string }) =>
  `${PRIVATE_CLASSES_PATH}?slot=${lesson.slot_id}&date=${lesson.date}`;

const serverMessage = (error: unknown) =>
  (error instanceof ApiError && error.serverMessage) || messages.communicationError;

/**
 * /admin/students/private-classes (SPEC students/private-classes): the parent picks a coach (or
 * any), a free lesson by date, 1 to the lesson's most children, and pays through the one checkout
 * (`?slot&date` is the lesson chosen); below, their upcoming lessons (cancel by the company's
 * policy) and past ones.
 */
export function PrivateClassesPage() {
  const [params] = useSearchParams();
  const slotId = Number(params.get('slot'));
  const date = params.get('date') ?? '';
  if (Number.isInteger(slotId) && slotId > 0 && /^\d{4}-\d{2}-\d{2}$/.test(date))
    return <LessonCheckout slotId={slotId} date={date} />;
  return <LessonsOverview paid={params.get('status') === 'true'} />;
}

function LessonsOverview({ paid }: { paid: boolean }) {
  return (
    <Stack gap="lg" maw={1100} w="100%" mx="auto">
      <PageTitle title="Private Classes" description="Book a private lesson with one of our coaches." />
      {paid ? (
        <Alert color="green" role="status" title="Lesson booked">
          Thank you. Your payment was received and your private lesson is booked; we have sent you a
          confirmation email.
        </Alert>
      ) : null}
      <MyLessons />
      <BookLesson />
    </Stack>
  );
}

/** The free lessons of the next eight weeks, by date, for one coach or any. */
function BookLesson() {
  const [coachId, setCoachId] = useState<number | null>(null);
  const available = useAvailableLessons(coachId);
  const byDate = new Map<string, AvailableLesson[]>();
  for (const lesson of available.data?.lessons ?? []) {
    byDate.set(lesson.date, [...(byDate.get(lesson.date) ?? []), lesson]);
  }
  return (
    <Card component="section" aria-label="Book a lesson">
      <Stack gap="md">
        <Title order={2} size="h4">
          Book a lesson
        </Title>
        <NativeSelect
          label="Coach"
          maw={360}
          data={[
            { value: '', label: 'Any coach' },
            ...(available.data?.coaches ?? []).map((c) => ({ value: String(c.id), label: c.name })),
          ]}
          value={coachId === null ? '' : String(coachId)}
          onChange={(event) =>
            setCoachId(event.currentTarget.value ? Number(event.currentTarget.value) : null)
          }
        />
        {available.isError ? (
          <Alert color="red" role="alert">
            {messages.formLoadFailed}
          </Alert>
        ) : available.isPending ? (
          <PageLoader />
        ) : byDate.size === 0 ? (
          <Text c="dimmed">No private lessons are free in the next eight weeks.</Text>
        ) : (
          <Stack gap="md" style={{ opacity: available.isPlaceholderData ? 0.6 : 1 }}>
            {[...byDate].map(([day, lessons]) => (
              <Stack key={day} gap={6} component="section" aria-label={formatDayWithWeekday(day)}>
                <Text fw={700} size="sm">
                  {formatDayWithWeekday(day)}
                </Text>
                <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs">
                  {lessons.map((lesson) => (
                    <Button
                      key={lesson.slot_id}
                      component={Link}
                      to={lessonPath(lesson)}
                      variant="default"
                      justify="space-between"
                      h="auto"
                      py={8}
                      rightSection={<Text size="sm">{formatMoney(lesson.price)}</Text>}
                      fullWidth
                    >
                      <Stack gap={0} align="flex-start">
                        <Text size="sm" fw={600}>
                          {lesson.time} · {lesson.coach_name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {lesson.duration_minutes} min · up to {lesson.max_children}{' '}
                          {lesson.max_children === 1 ? 'child' : 'children'}
                        </Text>
                      </Stack>
                    </Button>
                  ))}
                </SimpleGrid>
              </Stack>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

const statusColors: Record<string, string> = {
  confirmed: 'green',
  cancelled: 'gray',
  refund_due: 'orange',
};
const statusLabels: Record<string, string> = {
  confirmed: 'Booked',
  cancelled: 'Cancelled',
  refund_due: 'Refund due',
};
const refundLabels: Record<string, string> = {
  credit: 'Paid amount kept as credit',
  refund: 'Paid amount to be refunded',
  none: 'Not refunded',
};

type Upcoming = MyPrivateLessons['upcoming'][number];
type Lesson = MyPrivateLessons['past'][number];

function LessonCard({ lesson, onCancel }: { lesson: Lesson | Upcoming; onCancel?: () => void }) {
  const upcoming = 'can_cancel' in lesson ? lesson : null;
  return (
    <Card withBorder component="article" aria-label={`Private lesson ${lesson.code}`} padding="md">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Text fw={700}>
              {formatDayWithWeekday(lesson.date)} · {lesson.time}
            </Text>
            <Text size="sm">
              {lesson.coach_name} · {lesson.duration_minutes} min · {lesson.children.join(', ')}
            </Text>
            <Text size="xs" c="dimmed">
              Ref {lesson.code} · Paid {formatMoney(lesson.amount_paid)}
              {lesson.refund_choice ? ` · ${refundLabels[lesson.refund_choice]}` : ''}
            </Text>
          </Stack>
          <Badge color={statusColors[lesson.status] ?? 'gray'} variant="light">
            {statusLabels[lesson.status] ?? lesson.status}
          </Badge>
        </Group>
        {upcoming ? (
          upcoming.can_cancel ? (
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed" style={{ flex: 1, minWidth: 180 }}>
                {upcoming.cancel_note}
              </Text>
              <Button variant="default" color="red" size="xs" onClick={onCancel}>
                Cancel lesson
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {upcoming.cancel_note}
            </Text>
          )
        ) : null}
      </Stack>
    </Card>
  );
}

/** The parent's upcoming lessons (with Cancel while the policy allows) and past ones. */
function MyLessons() {
  const lessons = useMyLessons();
  const cancel = useCancelMyLesson();
  const [asking, setAsking] = useState<Upcoming | null>(null);
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);
  if (lessons.isPending) return <PageLoader />;
  if (lessons.isError)
    return (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  const { upcoming, past } = lessons.data;
  if (upcoming.length === 0 && past.length === 0 && !notice) return null;
  return (
    <Stack gap="md" component="section" aria-label="My private lessons">
      <Title order={2} size="h4">
        My private lessons
      </Title>
      {notice ? (
        <Alert color={notice.color} role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      ) : null}
      {upcoming.length === 0 ? <Text c="dimmed">No upcoming lessons.</Text> : null}
      {upcoming.map((lesson) => (
        <LessonCard key={lesson.id} lesson={lesson} onCancel={() => setAsking(lesson)} />
      ))}
      {past.length > 0 ? (
        <>
          <Text fw={700} size="sm" mt="sm">
            Past and cancelled
          </Text>
          {past.map((lesson) => (
            <LessonCard key={lesson.id} lesson={lesson} />
          ))}
        </>
      ) : null}
      <CancelLessonModal
        lesson={asking}
        onClose={() => setAsking(null)}
        busy={cancel.isPending}
        onConfirm={(lesson) =>
          cancel.mutate(lesson.id, {
            onSuccess: (answer) => setNotice({ color: 'green', text: answer.message }),
            onError: (error) => setNotice({ color: 'red', text: serverMessage(error) }),
            onSettled: () => setAsking(null),
          })
        }
      >
        {(lesson) => (
          <Text size="sm">
            {formatDayWithWeekday(lesson.date)} at {lesson.time} with {lesson.coach_name}.{' '}
            {lesson.cancel_note}
          </Text>
        )}
      </CancelLessonModal>
    </Stack>
  );
}

/** The checkout of one lesson: the children, a coupon or promotional code, the terms, the card. */
function LessonCheckout({ slotId, date }: { slotId: number; date: string }) {
  const available = useAvailableLessons(null);
  const children = useParentChildren();
  if (available.isPending || children.isPending) return <PageLoader />;
  const lesson = available.data?.lessons.find((l) => l.slot_id === slotId && l.date === date);
  if (!lesson || children.isError) {
    return (
      <Card maw={560} mx="auto">
        <Stack>
          <Alert color="orange" role="alert">
            {children.isError ? messages.formLoadFailed : privateLessonMessages.unavailable}
          </Alert>
          <Button component={Link} to={PRIVATE_CLASSES_PATH}>
            Back to private classes
          </Button>
        </Stack>
      </Card>
    );
  }
  return <CheckoutForm lesson={lesson} existing={children.data} />;
}

function CheckoutForm({ lesson, existing }: { lesson: AvailableLesson; existing: ParentChild[] }) {
  const navigate = useNavigate();
  const terms = useLessonPaymentTerms();
  const [chosen, setChosen] = useState<number[]>(existing.length === 1 ? [existing[0]!.id] : []);
  const [typed, setTyped] = useState('');
  const [coupon, setCoupon] = useState('');
  const [accepted, setAccepted] = useState(false);
  const charges = useLessonCharges({
    slotId: lesson.slot_id,
    date: lesson.date,
    children: chosen.length,
    coupon,
  });
  const pricing = charges.isPlaceholderData ? undefined : charges.data;
  const amountDue = pricing?.pricing_details.amount_due?.value;

  const finish = useCallback(() => navigate(`${PRIVATE_CLASSES_PATH}?status=true`), [navigate]);
  const problems: string[] = [];
  if (chosen.length === 0) problems.push('Please choose at least one child.');
  if (chosen.length > lesson.max_children) problems.push(privateLessonChildError(lesson.max_children));
  if (!accepted) problems.push(messages.acceptTerms);
  const step = useCardPayment({
    problems,
    finish,
    cancelledNotice: 'Payment cancelled. The lesson is no longer held for you; confirm again to pay.',
    send: () =>
      amountDue === undefined
        ? null
        : postLessonCheckout({
            slot_id: lesson.slot_id,
            date: lesson.date,
            child_ids: chosen,
            amount: amountDue,
            coupon_code: coupon,
            accept_terms: true,
          }),
  });

  const toggle = (id: number, on: boolean) =>
    setChosen((current) => (on ? [...current, id] : current.filter((c) => c !== id)));

  return (
    <CheckoutLayout
      header={null}
      title="Book a private lesson"
      change={{ to: PRIVATE_CLASSES_PATH, label: 'Choose another lesson' }}
      step={step}
      onComplete={finish}
      childrenTitle={lesson.max_children === 1 ? 'Child' : `Children (up to ${lesson.max_children})`}
      childrenForm={
        <Stack gap="md">
          {existing.length === 0 ? (
            <Text size="sm">
              Please{' '}
              <Anchor component={Link} to="/admin/students/children/add">
                add your child
              </Anchor>{' '}
              first.
            </Text>
          ) : (
            <Stack gap="xs">
              {existing.map((child) => (
                <Checkbox
                  key={child.id}
                  label={`${child.first_name} ${child.last_name}`}
                  checked={chosen.includes(child.id)}
                  disabled={!chosen.includes(child.id) && chosen.length >= lesson.max_children}
                  onChange={(event) => toggle(child.id, event.currentTarget.checked)}
                />
              ))}
            </Stack>
          )}
          <Divider />
          <CodeField
            label="Coupon or promotional code"
            applyLabel="Apply code"
            value={typed}
            onChange={setTyped}
            disabled={false}
            error={coupon ? pricing?.errors.invalid_coupon_code_message : undefined}
            onApply={() => setCoupon(typed.trim())}
          />
        </Stack>
      }
      discounts={null}
      terms={{
        loading: terms.isPending,
        html: terms.data?.payment_terms,
        accepted,
        onAcceptedChange: setAccepted,
      }}
      summaryTitle="Lesson summary"
      summary={
        <>
          <Stack gap={2}>
            <Text fw={700}>
              {formatDayWithWeekday(lesson.date)} · {lesson.time}
            </Text>
            <Text size="sm">
              {lesson.coach_name} · {lesson.duration_minutes} minutes
            </Text>
          </Stack>
          <Divider />
          <PriceLines pricing={pricing ?? null} loading={charges.isFetching} highlight="amount_due" />
        </>
      }
      priceError={charges.isError ? serverMessage(charges.error) : null}
      confirmLabel="Confirm Payment"
      confirmDisabled={charges.isFetching || amountDue === undefined}
    />
  );
}
