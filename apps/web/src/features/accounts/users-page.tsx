import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Modal,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type UserSummary, userCreate } from '@tumble/contracts/admin-accounts';
import { roleLabels, staffRoles } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { FormAlerts } from '../../components/form-alerts';
import { PencilIcon, PlusIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { SearchInput } from '../../components/search-input';
import { useFormPost } from '../../components/use-form-post';
import { USERS_PER_PAGE, useUsers } from './api/get-users';
import { inviteUser } from './api/invite-user';
import { accountKeys } from './api/keys';
import { usePageQuery } from './use-page-query';

export const roleChoices = staffRoles.map((role) => ({ value: role, label: roleLabels[role] }));

const statusColours: Record<UserSummary['status'], string> = {
  active: 'teal',
  pending: 'yellow',
  disabled: 'gray',
};

/** A staff member's status; an invited one who has never signed in is "Invited", not yet "Active". */
export function StatusBadge({ user }: { user: Pick<UserSummary, 'status' | 'invited'> }) {
  if (user.invited) {
    return (
      <Badge color="blue" variant="light">
        Invited
      </Badge>
    );
  }
  return (
    <Badge color={statusColours[user.status]} variant="light">
      {user.status === 'active' ? 'Active' : user.status === 'pending' ? 'Pending' : 'Disabled'}
    </Badge>
  );
}

/** '2025-03-01T09:30:00Z' → '01/03/2025 20:30' in the browser's time zone. */
function lastLogin(value: string | null): string {
  if (!value) return 'Never';
  const d = new Date(value);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function InviteForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ full_name: '', email: '', role: 'companystaff' as string });
  const form = useFormPost(userCreate, inviteUser, {
    onAccepted: (response) => {
      notifications.show({
        color: 'teal',
        title: response.info?.title ?? 'Invitation sent',
        message: response.info?.message ?? `An invitation has been sent to ${values.email}.`,
      });
      void queryClient.invalidateQueries({ queryKey: accountKeys.users });
      onDone();
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit({ ...values, email: values.email.trim() });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Invite a user">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          We email them a link to choose their password.
        </Text>
        <FormAlerts failure={form.failure} summary={form.summary} />
        <TextInput
          label="Full name"
          name="full_name"
          withAsterisk
          value={values.full_name}
          onChange={(e) => setValues({ ...values, full_name: e.currentTarget.value })}
          error={form.fieldErrors.full_name}
        />
        <TextInput
          label="Email address"
          name="email"
          type="email"
          withAsterisk
          value={values.email}
          onChange={(e) => setValues({ ...values, email: e.currentTarget.value })}
          error={form.fieldErrors.email}
        />
        <Select
          label="Role"
          name="role"
          withAsterisk
          data={roleChoices}
          value={values.role}
          onChange={(role) => setValues({ ...values, role: role ?? '' })}
          allowDeselect={false}
          error={form.fieldErrors.role}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /admin/users: the company's staff, with search and an invitation form. */
export function UsersPage() {
  const query = usePageQuery();
  const users = useUsers({ page: query.page, q: query.q });
  const [inviting, setInviting] = useState(false);
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / USERS_PER_PAGE));

  return (
    <Stack gap="md" maw={1200} w="100%" mx="auto">
      <PageTitle
        title="Users"
        description="Administrators, staff and coaches of your company."
        actions={
          <Button size="xs" leftSection={<PlusIcon size={14} />} onClick={() => setInviting(true)}>
            Invite user
          </Button>
        }
      />
      <Card p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="sm">
          <SearchInput
            value={query.q}
            onSearch={query.setSearch}
            placeholder="Search by name or email"
            w={{ base: '100%', xs: 300 }}
            size="sm"
          />
          {users.isError ? (
            <Alert color="red" role="alert">
              {users.error instanceof ApiError
                ? (users.error.serverMessage ?? messages.communicationError)
                : messages.communicationError}
            </Alert>
          ) : users.isPending ? (
            <PageLoader />
          ) : users.data.data.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed">{query.q ? 'No users match your search.' : 'No users yet.'}</Text>
            </Center>
          ) : (
            <Table.ScrollContainer minWidth={640} type="native">
              <Table striped highlightOnHover verticalSpacing="xs" aria-label="Users">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Last sign-in</Table.Th>
                    <Table.Th w={100} ta="right">
                      Actions
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {users.data.data.map((user) => (
                    <Table.Tr key={user.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Anchor component={Link} to={`/admin/users/${user.id}`} size="sm" fw={500}>
                          {user.full_name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{user.email}</Table.Td>
                      <Table.Td>{roleLabels[user.role]}</Table.Td>
                      <Table.Td>
                        <StatusBadge user={user} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{lastLogin(user.last_login_at)}</Table.Td>
                      <Table.Td ta="right">
                        <Button
                          component={Link}
                          to={`/admin/users/${user.id}`}
                          size="compact-sm"
                          variant="subtle"
                          leftSection={<PencilIcon size={12} />}
                          aria-label={`Edit ${user.full_name}`}
                        >
                          Edit
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {total === 1 ? '1 user' : `${total} users`}
            </Text>
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={Math.min(query.page, pages)}
                onChange={query.setPage}
                size="sm"
              />
            ) : null}
          </Group>
        </Stack>
      </Card>
      <Modal opened={inviting} onClose={() => setInviting(false)} title="Invite a user" centered>
        {inviting ? <InviteForm onDone={() => setInviting(false)} /> : null}
      </Modal>
    </Stack>
  );
}
