import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { roleLabels } from '@tumble/contracts/auth';
import type { DashboardResponse } from '@tumble/contracts/dashboard';
import type { RollSession } from '@tumble/contracts/roll';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { formatDate, formatMoney } from '../../admin/format';
import { useAcl } from '../../api/acl';
import { PageLoader } from '../../components/page-loader';
import { PlanLimitBanner } from '../plans/plan-limit-banner';
import { dayText } from '../roll/roll-day-page';
import { useDashboard } from './dashboard-api';

/** 1 → '1 session', 2 → '2 sessions'. */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const plainList = { listStyle: 'none', padding: 0, margin: 0 } as const;

/** A card: its title, what it says, and a link to where the work is done. */
function DashCard({
  title,
  to,
  action,
  children,
}: {
  title: string;
  to: string;
  action: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
          <Title order={2} fz="md">
            {title}
          </Title>
          <Anchor component={Link} to={to} size="sm" style={{ flexShrink: 0 }}>
            {action}
          </Anchor>
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/** One of today's sessions: its time and class, and how far its roll is (a link to the roll). */
function SessionRow({ session }: { session: RollSession }) {
  const cancelled = session.status === 'cancelled';
  const done = session.expected > 0 && session.marked === session.expected;
  return (
    <Group component="li" justify="space-between" gap="xs" wrap="nowrap" py={6}>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Anchor
          component={Link}
          to={`/admin/roll/${session.id}`}
          fw={600}
          td={cancelled ? 'line-through' : undefined}
        >
          {session.start_time} {session.class_name}
        </Anchor>
        <Text size="sm" c="dimmed" truncate>
          {[session.room, session.coach].filter(Boolean).join(' · ') || 'No room or coach yet'}
        </Text>
      </Stack>
      {cancelled ? (
        <Badge color="gray">Cancelled</Badge>
      ) : (
        <Badge
          color={done ? 'teal' : session.marked > 0 ? 'yellow' : 'orange'}
          variant="light"
          size="lg"
          style={{ flexShrink: 0 }}
        >
          {done ? 'Roll taken' : `${session.marked}/${session.expected} marked`}
        </Badge>
      )}
    </Group>
  );
}

function TodayCard({ data }: { data: DashboardResponse }) {
  const open = data.sessions.filter((s) => s.status === 'scheduled');
  // A session nobody is expected in has no roll to take.
  const toTake = open.filter((s) => s.marked < s.expected).length;
  return (
    <DashCard title="Today's sessions" to="/admin/roll" action="Roll">
      <Text size="sm" c="dimmed">
        {dayText(data.today)}
        {open.length > 0
          ? ` · ${toTake === 0 ? 'every roll taken' : `${count(toTake, 'roll', 'rolls')} not yet taken`}`
          : ''}
      </Text>
      {data.sessions.length === 0 ? (
        <Text>No class sessions today.</Text>
      ) : (
        <Stack component="ul" gap={0} style={plainList} aria-label="Today's sessions">
          {data.sessions.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </Stack>
      )}
    </DashCard>
  );
}

function TasksCard({ tasks }: { tasks: DashboardResponse['my_tasks'] }) {
  return (
    <DashCard title="My tasks" to="/admin/tasks" action="Tasks">
      {tasks.length === 0 ? (
        <Text c="dimmed" size="sm">
          No open tasks.
        </Text>
      ) : (
        <Stack component="ul" gap={6} style={plainList} aria-label="My open tasks">
          {tasks.slice(0, 6).map((task) => (
            <Group component="li" key={task.id} justify="space-between" gap="xs" wrap="nowrap">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {task.title}
                </Text>
                {task.about ? (
                  <Text size="xs" c="dimmed">
                    {task.about}
                  </Text>
                ) : null}
              </Stack>
              {task.due_date ? (
                <Badge color={task.overdue ? 'red' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
                  {task.overdue ? `Overdue ${formatDate(task.due_date)}` : formatDate(task.due_date)}
                </Badge>
              ) : null}
            </Group>
          ))}
          {tasks.length > 6 ? (
            <Text component="li" size="sm" c="dimmed">
              and {count(tasks.length - 6, 'more', 'more')}
            </Text>
          ) : null}
        </Stack>
      )}
    </DashCard>
  );
}

/** A big figure with its sentence. */
function Figure({ value, children, alert }: { value: string; children: ReactNode; alert?: boolean }) {
  return (
    <Group gap="sm" wrap="nowrap" align="center">
      <Text fz={28} fw={700} lh={1} c={alert ? 'orange.8' : undefined}>
        {value}
      </Text>
      <Text size="sm">{children}</Text>
    </Group>
  );
}

/** The company's cards: each null card is one this role does not see. */
function CompanyCards({ data }: { data: DashboardResponse }) {
  const cards: ReactNode[] = [];
  if (data.cover) {
    const n = data.cover.count;
    cards.push(
      <DashCard key="cover" title="Cover" to="/admin/cover" action="Assign cover">
        <Text fw={n > 0 ? 600 : undefined} c={n > 0 ? 'orange.8' : undefined}>
          {n === 0
            ? 'No class sessions need cover.'
            : `${count(n, 'class session needs', 'class sessions need')} cover.`}
        </Text>
        {data.cover.next.length > 0 ? (
          <Stack component="ul" gap={4} style={plainList} aria-label="Sessions needing cover">
            {data.cover.next.map((s) => (
              <Text component="li" size="sm" key={s.session_id}>
                {formatDate(s.date)} {s.start_time} {s.class_name} · {s.coach_name}
              </Text>
            ))}
          </Stack>
        ) : null}
      </DashCard>,
    );
  }
  if (data.checks) {
    cards.push(
      <DashCard key="checks" title="Working With Children Checks" to="/admin/coaches" action="Coaches">
        {data.checks.length === 0 ? (
          <Text c="dimmed" size="sm">
            No check expires in the next 30 days.
          </Text>
        ) : (
          <Stack component="ul" gap={6} style={plainList} aria-label="Checks to renew">
            {data.checks.map((check) => (
              <Group component="li" key={check.coach_id} justify="space-between" gap="xs" wrap="nowrap">
                <Anchor component={Link} to={`/admin/coaches/${check.coach_id}`} size="sm">
                  {check.name}
                </Anchor>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm">{formatDate(check.expires_on)}</Text>
                  <Badge color={check.expired ? 'red' : 'yellow'} variant="light">
                    {check.expired ? 'Expired' : 'Expiring'}
                  </Badge>
                </Group>
              </Group>
            ))}
          </Stack>
        )}
      </DashCard>,
    );
  }
  if (data.overdue_invoices) {
    const { count: n, amount } = data.overdue_invoices;
    cards.push(
      <DashCard key="overdue" title="Overdue invoices" to="/admin/invoices?status=overdue" action="Invoices">
        <Figure value={String(n)} alert={n > 0}>
          {n === 0
            ? 'No invoice is overdue.'
            : `${n === 1 ? 'invoice is' : 'invoices are'} overdue: ${formatMoney(amount)} to collect.`}
        </Figure>
      </DashCard>,
    );
  }
  if (data.this_week) {
    const { enrolments, trials, since } = data.this_week;
    cards.push(
      <DashCard key="week" title="This week" to="/admin/term-classes" action="Classes">
        <Figure value={String(enrolments)}>{`new ${enrolments === 1 ? 'enrolment' : 'enrolments'}`}</Figure>
        <Figure value={String(trials)}>{`${trials === 1 ? 'trial' : 'trials'} booked`}</Figure>
        <Text size="xs" c="dimmed">
          Since Monday {formatDate(since)}
        </Text>
      </DashCard>,
    );
  }
  if (data.waitlist_offers) {
    const { classes, events } = data.waitlist_offers;
    cards.push(
      <DashCard key="offers" title="Waitlist offers" to="/admin/term-classes" action="Classes">
        <Figure
          value={String(classes)}
        >{`class ${classes === 1 ? 'place' : 'places'} offered, waiting for the family`}</Figure>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Figure
            value={String(events)}
          >{`event ${events === 1 ? 'invitation' : 'invitations'} open`}</Figure>
          <Anchor component={Link} to="/admin/events" size="sm">
            Events
          </Anchor>
        </Group>
      </DashCard>,
    );
  }
  if (data.open_anomalies !== null) {
    const open = data.open_anomalies;
    cards.push(
      <DashCard
        key="anomalies"
        title="Registrations"
        to="/admin/registration-anomalies"
        action="Registration anomalies"
      >
        <Text fw={open > 0 ? 600 : undefined} c={open > 0 ? 'orange.8' : undefined}>
          {open === 0
            ? 'No registrations need a decision.'
            : `${count(open, 'registration needs', 'registrations need')} a decision.`}
        </Text>
      </DashCard>,
    );
  }
  if (data.fill_rate) {
    const { places, capacity, term_name, term_id } = data.fill_rate;
    const rate = capacity > 0 ? Math.round((places / capacity) * 100) : 0;
    cards.push(
      <DashCard key="fill" title="Fill rate this term" to={`/admin/terms/${term_id}`} action={term_name}>
        <Figure value={`${rate}%`}>{`${places} of ${capacity} places taken`}</Figure>
      </DashCard>,
    );
  }
  if (cards.length === 0) return null;
  return <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{cards}</SimpleGrid>;
}

/** /admin/dashboard: where staff land after signing in, with what they act on today. */
export function DashboardPage() {
  useDocumentTitle('Dashboard · Tumble');
  const acl = useAcl();
  const isParent = acl.data?.meta.role === 'student';
  const dashboard = useDashboard(Boolean(acl.data) && !isParent);
  if (!acl.data) return <PageLoader />;
  const { name, meta } = acl.data;
  // Parents have their own home.
  if (isParent) return <Navigate to="/admin/students/profile" replace />;
  const data = dashboard.data;
  return (
    <Stack gap="lg" maw={1200}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {meta.company_name ?? 'Dashboard'}
        </Title>
        <Text c="dimmed">
          Welcome{name ? `, ${name}` : ''}
          {meta.role ? ` · ${roleLabels[meta.role]}` : ''}
        </Text>
      </Stack>
      <PlanLimitBanner />
      {dashboard.isError ? (
        <Text c="red">The dashboard could not be loaded. Reload the page to try again.</Text>
      ) : !data ? (
        <PageLoader />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <TodayCard data={data} />
            <TasksCard tasks={data.my_tasks} />
          </SimpleGrid>
          <CompanyCards data={data} />
        </>
      )}
    </Stack>
  );
}
