import { Alert, Anchor, Button, Card, Checkbox, Group, NativeSelect, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { type StudentChild, studentChildForm } from '@tumble/contracts/students';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import type { DobValue } from '../../components/date-of-birth-input';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { ChildNameFields, ChildProfileFields } from '../student-directory/child-profile-fields';
import { saveStudentChild, useStudentChild } from './api/children';
import { studentKeys } from './api/keys';
import { insuranceLabels } from './student-format';

const CHILDREN_PATH = '/admin/students/children';

const insuranceChoices = Object.entries(insuranceLabels).map(([value, label]) => ({ value, label }));

function ChildForm({ child }: { child: StudentChild | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    first_name: child?.first_name ?? '',
    last_name: child?.last_name ?? '',
    consent: child?.consent === 1,
    insurance_type: child?.insurance_type ?? '',
  });
  const [dob, setDob] = useState<DobValue>({ dob: child?.dob ?? '', dobText: '' });
  // Medical notes, allergies, school and emergency contacts: the same fields staff edit.
  const [extras, setExtras] = useState({
    medical_notes: child?.medical_notes ?? '',
    allergies: child?.allergies ?? '',
    school: child?.school ?? '',
    emergency_contacts: child?.emergency_contacts ?? [],
  });
  const form = useFormPost(studentChildForm, (body) => saveStudentChild(child?.id ?? null, body), {
    onAccepted: (response, body) => {
      notifications.show({
        color: 'teal',
        title: response.info?.title ?? 'Saved',
        message:
          response.info?.message ??
          (child ? `${body.first_name}'s details have been saved.` : `${body.first_name} has been added.`),
      });
      // The checkouts list the children too (`childrenQuery` shares this key prefix).
      void queryClient.invalidateQueries({ queryKey: studentKeys.children });
      navigate(CHILDREN_PATH);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Text the picker could not read leaves dob empty, so the schema reports it.
    form.submit({ ...values, ...extras, dob: dob.dob, consent: values.consent ? 1 : 0 });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={child ? 'Edit child' : 'Add child'}>
      <Stack gap="md">
        <FormAlerts failure={form.failure} summary={form.summary} />
        <Card>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <ChildNameFields
                names={values}
                onNames={(names) => setValues({ ...values, ...names })}
                dob={dob}
                onDob={setDob}
                errors={form.fieldErrors}
              />
              <NativeSelect
                label="Insurance"
                name="insurance_type"
                description="Offered first when you book."
                data={insuranceChoices}
                value={values.insurance_type}
                onChange={(e) =>
                  setValues({
                    ...values,
                    insurance_type: e.currentTarget.value as StudentChild['insurance_type'],
                  })
                }
                error={form.fieldErrors.insurance_type}
              />
            </SimpleGrid>
            <ChildProfileFields values={extras} onChange={setExtras} errors={form.fieldErrors} />
            <Checkbox
              label="I consent to photos of this child being taken and shared by the provider"
              name="consent"
              checked={values.consent}
              onChange={(e) => setValues({ ...values, consent: e.currentTarget.checked })}
              error={form.fieldErrors.consent}
            />
          </Stack>
        </Card>
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to={CHILDREN_PATH} variant="default">
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            {child ? 'Save' : 'Add child'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function NotFound() {
  return (
    <Alert color="red" role="alert">
      <Stack gap="xs">
        This child does not exist, or is not one of yours.
        <Anchor component={Link} to={CHILDREN_PATH} size="sm">
          Back to my children
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** /admin/students/children/add and /admin/students/children/:id: one child's details. */
export function ChildFormPage() {
  const { id: raw } = useParams();
  const adding = raw === undefined;
  const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const child = useStudentChild(adding ? null : id);
  const notFound =
    (!adding && id === null) || (child.error instanceof ApiError && child.error.status === 404);
  return (
    <Stack gap="md" maw={880} w="100%" mx="auto">
      <PageTitle title={adding ? 'Add child' : child.data ? `Edit ${child.data.first_name}` : 'Edit child'} />
      {adding ? (
        <ChildForm child={null} />
      ) : notFound ? (
        <NotFound />
      ) : child.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : child.data ? (
        <ChildForm child={child.data} />
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
