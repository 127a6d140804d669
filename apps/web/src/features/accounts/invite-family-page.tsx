import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  type FamilyInviteInput,
  familyInviteRequest,
  inviteFormsResponse,
} from '@tumble/contracts/class-students';
import { type FormEvent, useState } from 'react';
import { ResourceHeader } from '../../admin/resource-header';
import { api } from '../../api/client';
import { DateOfBirthInput } from '../../components/date-of-birth-input';
import { FormAlerts } from '../../components/form-alerts';
import { useFormPost } from '../../components/use-form-post';

type Child = { key: number; first_name: string; last_name: string; dob: string; dobText: string };
/** Rows have no id until the family exists: each gets its own key for React. */
let nextKey = 0;
const emptyChild = (lastName = ''): Child => ({
  key: ++nextKey,
  first_name: '',
  last_name: lastName,
  dob: '',
  dobText: '',
});
const emptyFamily = () => ({ full_name: '', email: '', phone: '', form_key: null as string | null });

/**
 * Invite a family (SPEC students/invite, `/admin/students/invite`): the parent and their children;
 * the parent gets a link to choose a password and lands on the registration form chosen here.
 */
export function InviteFamilyPage() {
  const forms = useQuery({
    queryKey: ['admin', 'invite', 'forms'],
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/students/invite/forms', { schema: inviteFormsResponse, signal }),
  });
  const [family, setFamily] = useState(emptyFamily);
  const [kids, setKids] = useState<Child[]>([emptyChild()]);
  const [sent, setSent] = useState<string>();
  const form = useFormPost(
    familyInviteRequest,
    (body) => api.postForm('/api/v1/admin/students/invite', body),
    {
      onAccepted: (response) => {
        setSent(response.info?.message);
        setFamily(emptyFamily());
        setKids([emptyChild()]);
      },
    },
  );
  const setKid = (i: number, change: Partial<Child>) =>
    setKids((all) => all.map((k, j) => (j === i ? { ...k, ...change } : k)));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSent(undefined);
    const body: FamilyInviteInput = {
      ...family,
      form_key: family.form_key ?? '',
      children: kids.map(({ key: _key, dobText, ...k }) => ({ ...k, dob: dobText || k.dob })),
    };
    form.submit(body);
  }

  return (
    <Stack maw={760} w="100%">
      <ResourceHeader
        title="Invite a family"
        crumbs={[{ label: 'Families' }, { label: 'Invite a family' }]}
      />
      <Text size="sm" c="dimmed">
        The parent gets an email to choose a password, then lands on the registration form with these children
        ready to enrol.
      </Text>
      {sent ? (
        <Alert color="teal" role="status">
          {sent}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormAlerts failure={form.failure} summary={form.summary} />
          <Card withBorder p={{ base: 'sm', sm: 'md' }}>
            <Stack gap="sm">
              <Title order={2} fz="lg">
                Parent
              </Title>
              <TextInput
                label="Full name"
                withAsterisk
                value={family.full_name}
                onChange={(e) => setFamily({ ...family, full_name: e.currentTarget.value })}
                error={form.fieldErrors.full_name}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Email"
                  type="email"
                  withAsterisk
                  value={family.email}
                  onChange={(e) => setFamily({ ...family, email: e.currentTarget.value })}
                  error={form.fieldErrors.email}
                />
                <TextInput
                  label="Phone"
                  type="tel"
                  value={family.phone}
                  onChange={(e) => setFamily({ ...family, phone: e.currentTarget.value })}
                  error={form.fieldErrors.phone}
                />
              </SimpleGrid>
              <Select
                label="Registration form"
                placeholder={forms.data?.length === 0 ? 'No published form yet' : 'Choose a form'}
                withAsterisk
                data={(forms.data ?? []).map((f) => ({ value: f.key, label: f.name }))}
                value={family.form_key}
                onChange={(value) => setFamily({ ...family, form_key: value })}
                error={form.fieldErrors.form_key}
              />
            </Stack>
          </Card>
          <Card withBorder p={{ base: 'sm', sm: 'md' }}>
            <Stack gap="sm">
              <Title order={2} fz="lg">
                Children
              </Title>
              {form.fieldErrors.children ? (
                <Text size="sm" c="red" role="alert">
                  {form.fieldErrors.children}
                </Text>
              ) : null}
              {kids.map((kid, i) => (
                <Group
                  key={kid.key}
                  align="flex-start"
                  gap="sm"
                  wrap="wrap"
                  aria-label={`Child ${i + 1}`}
                  role="group"
                >
                  <TextInput
                    label="First name"
                    withAsterisk
                    value={kid.first_name}
                    onChange={(e) => setKid(i, { first_name: e.currentTarget.value })}
                    style={{ flex: '1 1 150px' }}
                  />
                  <TextInput
                    label="Last name"
                    withAsterisk
                    value={kid.last_name}
                    onChange={(e) => setKid(i, { last_name: e.currentTarget.value })}
                    style={{ flex: '1 1 150px' }}
                  />
                  <div style={{ flex: '1 1 150px' }}>
                    <DateOfBirthInput
                      dob={kid.dob}
                      dobText={kid.dobText}
                      onChange={(value) => setKid(i, value)}
                    />
                  </div>
                  {kids.length > 1 ? (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mt={28}
                      aria-label={`Remove child ${i + 1}`}
                      onClick={() => setKids((all) => all.filter((_, j) => j !== i))}
                    >
                      ×
                    </ActionIcon>
                  ) : null}
                </Group>
              ))}
              <Group>
                <Button
                  variant="light"
                  size="xs"
                  onClick={() => setKids((all) => [...all, emptyChild(all[0]?.last_name ?? '')])}
                  disabled={kids.length >= 10}
                >
                  Add a child
                </Button>
              </Group>
            </Stack>
          </Card>
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
