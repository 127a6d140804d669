import { Alert, Button, Card, Group, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { type StudentProfile, studentProfile } from '@tumble/contracts/students';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { ContactFields } from '../../components/contact-fields';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { studentKeys } from './api/keys';
import { updateStudentProfile, useStudentProfile } from './api/profile';

function ProfileForm({ profile }: { profile: StudentProfile }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    full_name: profile.full_name,
    email: profile.email,
    phone: profile.phone,
  });
  const form = useFormPost(studentProfile, updateStudentProfile, {
    onAccepted: (response) => {
      notifications.show({
        color: 'teal',
        title: response.info?.title ?? 'Saved',
        message: response.info?.message ?? 'Your details have been updated.',
      });
      void queryClient.invalidateQueries({ queryKey: studentKeys.profile });
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
    <form onSubmit={submit} noValidate aria-label="My profile">
      <Stack gap="md">
        <FormAlerts failure={form.failure} summary={form.summary} />
        <Card>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <ContactFields values={values} onChange={set} errors={form.fieldErrors} />
          </SimpleGrid>
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

/** /admin/students/profile: the parent's name, email address and phone. */
export function ProfilePage() {
  const profile = useStudentProfile();
  return (
    <Stack gap="md" maw={880} w="100%" mx="auto">
      <PageTitle title="My Profile" description="Your name and how the provider can reach you." />
      {profile.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : profile.data ? (
        <ProfileForm profile={profile.data} />
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
