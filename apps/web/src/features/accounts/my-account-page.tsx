import { Alert, Button, Card, Group, PasswordInput, SimpleGrid, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type MyAccount, myAccountUpdate } from '@tumble/contracts/admin-accounts';
import { messages } from '@tumble/contracts/messages';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { aclKeys } from '../../api/acl';
import { ContactFields } from '../../components/contact-fields';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { useMyAccount } from './api/get-my-account';
import { accountKeys } from './api/keys';
import { updateMyAccount } from './api/update-my-account';

function MyAccountForm({ account }: { account: MyAccount }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    full_name: account.full_name,
    email: account.email,
    phone: account.phone,
    current_password: '',
    new_password: '',
  });
  const form = useFormPost(myAccountUpdate, updateMyAccount, {
    onAccepted: (response) => {
      notifications.show({
        color: 'teal',
        title: response.info?.title ?? 'Saved',
        message: response.info?.message ?? 'Your account has been updated.',
      });
      setValues((v) => ({ ...v, current_password: '', new_password: '' }));
      void queryClient.invalidateQueries({ queryKey: accountKeys.myAccount });
      // The top bar greets the user by name.
      void queryClient.invalidateQueries({ queryKey: aclKeys.all });
    },
  });
  const set = (field: keyof typeof values) => (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setValues((v) => ({ ...v, [field]: value }));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit({ ...values, email: values.email.trim() });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="My Account">
      <Stack gap="md">
        <FormAlerts failure={form.failure} summary={form.summary} />
        <Card>
          <Stack gap="md">
            <Title order={2} fz="lg">
              Profile
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <ContactFields values={values} onChange={set} errors={form.fieldErrors} />
            </SimpleGrid>
          </Stack>
        </Card>
        <Card>
          <Stack gap="md">
            <Title order={2} fz="lg">
              Change password
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <PasswordInput
                label="Current password"
                name="current_password"
                autoComplete="current-password"
                value={values.current_password}
                onChange={set('current_password')}
                error={form.fieldErrors.current_password}
                aria-invalid={Boolean(form.fieldErrors.current_password)}
              />
              <PasswordInput
                label="New password"
                name="new_password"
                autoComplete="new-password"
                description={
                  account.role === 'student' ? 'At least 8 characters.' : 'At least 12 characters.'
                }
                value={values.new_password}
                onChange={set('new_password')}
                error={form.fieldErrors.new_password}
                aria-invalid={Boolean(form.fieldErrors.new_password)}
              />
            </SimpleGrid>
          </Stack>
        </Card>
        <Group justify="flex-end">
          <Button type="submit" loading={form.pending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /admin/my-account: the signed-in user's profile and password. */
export function MyAccountPage() {
  const account = useMyAccount();
  return (
    <Stack gap="md" maw={880} w="100%" mx="auto">
      <PageTitle title="My Account" description="Your name, contact details and password." />
      {account.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : account.data ? (
        <MyAccountForm account={account.data} />
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
