import { Alert, Button, Card, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type UserSummary, userUpdate } from '@tumble/contracts/admin-accounts';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { safeRedirect } from '../../components/safe-redirect';
import { useFormPost } from '../../components/use-form-post';
import { useUser } from './api/get-user';
import { accountKeys } from './api/keys';
import { updateUser } from './api/update-user';
import { roleChoices, StatusBadge } from './users-page';

const statusChoices = [
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
];

function UserForm({ user }: { user: UserSummary }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    full_name: user.full_name,
    role: user.role as string,
    // A pending user has not activated yet: saving asks for a deliberate choice.
    status: user.status === 'pending' ? '' : (user.status as string),
  });
  const form = useFormPost(userUpdate, (body) => updateUser(user.id, body), {
    onAccepted: (response) => {
      notifications.show({
        color: 'teal',
        title: response.info?.title ?? 'Saved',
        message: response.info?.message ?? 'The user has been saved.',
      });
      void queryClient.invalidateQueries({ queryKey: accountKeys.users });
      navigate(safeRedirect(response.redirect) ?? '/admin/users');
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit(values);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Edit user">
      <Stack gap="md">
        <FormAlerts failure={form.failure} summary={form.summary} />
        <Card>
          <Stack gap="md">
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {user.email}
              </Text>
              <StatusBadge user={user} />
            </Group>
            <TextInput
              label="Full name"
              name="full_name"
              withAsterisk
              value={values.full_name}
              onChange={(e) => setValues({ ...values, full_name: e.currentTarget.value })}
              error={form.fieldErrors.full_name}
            />
            <Select
              label="Role"
              name="role"
              withAsterisk
              data={roleChoices}
              value={values.role || null}
              onChange={(role) => setValues({ ...values, role: role ?? '' })}
              allowDeselect={false}
              error={form.fieldErrors.role}
            />
            <Select
              label="Status"
              name="status"
              withAsterisk
              description="Disabled users cannot sign in."
              data={statusChoices}
              value={values.status || null}
              onChange={(status) => setValues({ ...values, status: status ?? '' })}
              allowDeselect={false}
              error={form.fieldErrors.status}
            />
          </Stack>
        </Card>
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to="/admin/users" variant="default">
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /admin/users/:id: a staff member's name, role and status. */
export function UserEditPage() {
  const { id: raw } = useParams();
  const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const user = useUser(id);
  const notFound = id === null || (user.error instanceof ApiError && user.error.status === 404);
  return (
    <Stack gap="md" maw={720} w="100%" mx="auto">
      <PageTitle title={user.data ? `Edit ${user.data.full_name}` : 'Edit user'} />
      {notFound ? (
        <Alert color="red" role="alert">
          This user does not exist.
        </Alert>
      ) : user.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : user.data ? (
        <UserForm user={user.data} />
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
