import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import type { StudentProfileScreen } from '@tumble/contracts/student-directory';
import { childProfileForm } from '@tumble/contracts/students';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDate, formatMoney } from '../../admin/format';
import { ApiError } from '../../api/client';
import type { DobValue } from '../../components/date-of-birth-input';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { MergeChildButton } from '../merge/merge-buttons';
import { ChildNameFields, ChildProfileFields } from './child-profile-fields';
import { saveStudentProfile, studentDirectoryKeys, useStudentProfile } from './student-directory-api';

const waiverLabels = { signed: 'Signed', needed: 'Needed', none: 'Not required' } as const;
const waiverColours = { signed: 'teal', needed: 'orange', none: 'gray' } as const;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

const Empty = ({ children }: { children: ReactNode }) => (
  <Text size="sm" c="dimmed">
    {children}
  </Text>
);

/** Staff edit the profile with the parent's child-form schema (`childProfileForm`). */
function ProfileForm({ child }: { child: StudentProfileScreen }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    first_name: child.first_name,
    last_name: child.last_name,
    consent: child.consent === 1,
  });
  const [extras, setExtras] = useState({
    medical_notes: child.medical_notes,
    allergies: child.allergies,
    school: child.school,
    emergency_contacts: child.emergency_contacts,
  });
  const [dob, setDob] = useState<DobValue>({ dob: child.dob, dobText: '' });
  const form = useFormPost(childProfileForm, (body) => saveStudentProfile(child.id, body), {
    onAccepted: (response) => {
      notifications.show({
        color: 'teal',
        title: response.info?.title ?? 'Saved',
        message: response.info?.message ?? 'The child’s details have been saved.',
      });
      void queryClient.invalidateQueries({ queryKey: studentDirectoryKeys.all });
    },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit({ ...values, ...extras, dob: dob.dob, consent: values.consent ? 1 : 0 });
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Child profile">
      <Stack gap="md">
        <FormAlerts failure={form.failure} summary={form.summary} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <ChildNameFields
            names={values}
            onNames={(names) => setValues({ ...values, ...names })}
            dob={dob}
            onDob={setDob}
            errors={form.fieldErrors}
          />
        </SimpleGrid>
        <ChildProfileFields values={extras} onChange={setExtras} errors={form.fieldErrors} />
        <Checkbox
          label="Photo consent given"
          name="consent"
          checked={values.consent}
          onChange={(e) => setValues({ ...values, consent: e.currentTarget.checked })}
          error={form.fieldErrors.consent}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.pending}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Family({ family }: { family: StudentProfileScreen['family'] }) {
  return (
    <Stack gap="xs">
      <Text fw={500}>{family.name}</Text>
      <Text size="sm">
        <Anchor href={`mailto:${family.email}`}>{family.email}</Anchor>
        {family.phone ? (
          <>
            {' · '}
            <Anchor href={`tel:${family.phone.replace(/\s/g, '')}`}>{family.phone}</Anchor>
          </>
        ) : null}
      </Text>
      <Anchor component={Link} to={family.account_path} size="sm">
        Family account
      </Anchor>
      {family.siblings.length > 0 ? (
        <Text size="sm">
          Siblings:{' '}
          {family.siblings.map((s, i) => (
            <span key={s.id}>
              {i > 0 ? ', ' : ''}
              <Anchor component={Link} to={`/admin/students/${s.id}`}>
                {s.name}
              </Anchor>
            </span>
          ))}
        </Text>
      ) : (
        <Empty>No siblings.</Empty>
      )}
    </Stack>
  );
}

function Screen({ child }: { child: StudentProfileScreen }) {
  const money = (cents: number) => formatMoney(cents, child.payments.currency);
  return (
    <Stack gap="md">
      <PageTitle
        title={`${child.first_name} ${child.last_name}`}
        description={`Age ${child.age} · born ${formatDate(child.dob)}`}
        actions={<MergeChildButton childId={child.id} />}
      />
      {child.flags.length > 0 ? (
        <Group gap="xs" aria-label="Flags">
          {child.flags.map((flag) => (
            // The flag's colour in the dot; its name readable in the text colour, whatever colour staff pick.
            <Badge key={flag.id} color={flag.colour} variant="dot">
              {flag.name}
            </Badge>
          ))}
        </Group>
      ) : null}
      {child.allergies || child.medical_notes ? (
        <Alert color="orange" title="Medical">
          {[child.allergies && `Allergies: ${child.allergies}`, child.medical_notes]
            .filter(Boolean)
            .join(' · ')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title="Family">
          <Family family={child.family} />
        </Section>
        <Section title="Payments">
          <Group gap="lg">
            <div>
              <Text size="xs" c="dimmed">
                Owing
              </Text>
              <Text fw={600}>{money(child.payments.owing)}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Overdue
              </Text>
              <Text fw={600} c={child.payments.overdue > 0 ? 'red' : undefined}>
                {money(child.payments.overdue)}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Credit
              </Text>
              <Text fw={600}>{money(child.payments.credit)}</Text>
            </div>
          </Group>
          {child.payments.invoices.length === 0 ? (
            <Empty>No invoices.</Empty>
          ) : (
            <Stack gap={4}>
              {child.payments.invoices.map((invoice) => (
                <Group key={invoice.id} justify="space-between" gap="xs">
                  <Anchor component={Link} to={`/admin/invoices/${invoice.id}`} size="sm">
                    {invoice.code ?? 'Draft'}
                  </Anchor>
                  <Text size="sm">
                    {money(invoice.total)} ·{' '}
                    {invoice.balance > 0 ? `${money(invoice.balance)} owing` : 'paid'}
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
        </Section>
      </SimpleGrid>
      <Section title="Classes and attendance">
        {child.classes.length === 0 ? (
          <Empty>No current classes.</Empty>
        ) : (
          // Three narrow columns (the day and time under the class) so a phone needs no sideways scroll.
          <Table verticalSpacing="xs" aria-label="Classes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Class</Table.Th>
                <Table.Th ta="right">Present</Table.Th>
                <Table.Th ta="right">Absent</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {child.classes.map((place) => (
                <Table.Tr key={place.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="sm">{place.class_name}</Text>
                    <Text size="xs" c="dimmed">
                      {place.when} · {place.term}
                      {place.kind === 'enrolled' ? '' : ` · ${place.kind}`}
                      {place.status === 'pending' ? ' · pending' : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{place.present}</Table.Td>
                  <Table.Td ta="right">{place.absent}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title="Event bookings">
          {child.bookings.length === 0 ? (
            <Empty>No event bookings.</Empty>
          ) : (
            child.bookings.map((b) => (
              <Group key={b.id} justify="space-between" gap="xs" wrap="nowrap">
                <div>
                  <Text size="sm">{b.event_name}</Text>
                  <Text size="xs" c="dimmed">
                    {b.code} · {formatDate(b.booked_on)} · {b.status}
                  </Text>
                </div>
                <Badge color={waiverColours[b.waiver]} variant="light">
                  Waiver: {waiverLabels[b.waiver]}
                </Badge>
              </Group>
            ))
          )}
        </Section>
        <Section title="Parties">
          {child.parties.length === 0 ? (
            <Empty>No parties.</Empty>
          ) : (
            child.parties.map((p) => (
              <Group key={p.id} justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm">
                  {p.code} · {formatDate(p.date)} · {p.status}
                </Text>
                <Badge color={waiverColours[p.waiver]} variant="light">
                  Waiver: {waiverLabels[p.waiver]}
                </Badge>
              </Group>
            ))
          )}
        </Section>
        <Section title="Waivers">
          <Text size="sm">
            {child.waivers.signed} signed · {child.waivers.needed} needed
          </Text>
        </Section>
        <Section title="Tasks">
          {child.tasks.length === 0 ? (
            <Empty>No tasks.</Empty>
          ) : (
            child.tasks.map((task) => (
              <Group key={task.id} justify="space-between" gap="xs" wrap="nowrap">
                <div>
                  <Text size="sm" td={task.status === 'done' ? 'line-through' : undefined}>
                    {task.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {task.assignee}
                    {task.due_date ? ` · due ${formatDate(task.due_date)}` : ''}
                  </Text>
                </div>
                {task.overdue ? (
                  <Badge color="red" variant="light">
                    Overdue
                  </Badge>
                ) : null}
              </Group>
            ))
          )}
        </Section>
        <Section title="Uniforms">
          {child.uniforms.length === 0 ? (
            <Empty>No uniform orders.</Empty>
          ) : (
            child.uniforms.map((order) => (
              <div key={order.id}>
                <Text size="sm">{order.items}</Text>
                <Text size="xs" c="dimmed">
                  {order.code} · {formatDate(order.created_at)} · {order.status.replace(/_/g, ' ')}
                </Text>
              </div>
            ))
          )}
        </Section>
      </SimpleGrid>
      <Section title="Profile">
        <ProfileForm key={child.id} child={child} />
      </Section>
    </Stack>
  );
}

/** /admin/students/:childId: one child's screen for staff (tablet first; works at 390px). */
export function StudentPage() {
  const { childId: raw } = useParams();
  const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const child = useStudentProfile(id);
  const notFound = id === null || (child.error instanceof ApiError && child.error.status === 404);
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      {notFound ? (
        <Alert color="red" role="alert">
          <Stack gap="xs">
            This child could not be found.
            <Anchor component={Link} to="/admin/students" size="sm">
              Back to students
            </Anchor>
          </Stack>
        </Alert>
      ) : child.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : child.data ? (
        <Screen child={child.data} />
      ) : (
        <PageLoader />
      )}
      {child.data ? (
        <Anchor component={Link} to="/admin/students" size="sm">
          Back to students
        </Anchor>
      ) : null}
    </Stack>
  );
}
