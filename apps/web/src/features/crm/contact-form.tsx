import {
  ActionIcon,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type Contact, type ContactRequest, type CrmStage, contactRequest } from '@tumble/contracts/crm';
import type { FormResponse } from '@tumble/contracts/http';
import { useState } from 'react';
import { FormAlerts } from '../../components/form-alerts';
import { useFormPost } from '../../components/use-form-post';

interface ChildRow {
  name: string;
  age: string;
  dob: string;
}

export interface ContactValues {
  full_name: string;
  email: string;
  phone: string;
  children: ChildRow[];
  interest: string;
  source: string;
  stage: string;
  follow_up_on: string;
  note: string;
}

export function valuesOf(
  contact: Contact | null,
  defaults: { source: string; stage: string },
): ContactValues {
  return {
    full_name: contact?.full_name ?? '',
    email: contact?.email ?? '',
    phone: contact?.phone ?? '',
    children: contact?.children.map((c) => ({
      name: c.name,
      age: c.age === null ? '' : String(c.age),
      dob: c.dob ?? '',
    })) ?? [{ name: '', age: '', dob: '' }],
    interest: contact?.interest ?? '',
    source: contact?.source ?? defaults.source,
    stage: contact?.stage ?? defaults.stage,
    follow_up_on: contact?.follow_up_on ?? '',
    note: '',
  };
}

/** The body as the contract reads it: an empty age is no age. */
const bodyOf = (values: ContactValues): ContactRequest => ({
  ...values,
  children: values.children.map((c) => ({ name: c.name, age: c.age === '' ? null : c.age, dob: c.dob })),
});

/** The add and edit form of a contact: one field list (SPEC contacts). */
export function ContactForm(props: {
  initial: ContactValues;
  sources: string[];
  stages: CrmStage[];
  submitLabel: string;
  /** A new contact takes a first note; an existing one has its log beside the form. */
  withNote: boolean;
  post: (body: ContactRequest) => Promise<FormResponse>;
  onAccepted: (response: FormResponse) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState(props.initial);
  const form = useFormPost(contactRequest, props.post, {
    onAccepted: (response) => props.onAccepted(response),
  });
  const set = (name: keyof ContactValues) => (value: string | null) =>
    setValues((v) => ({ ...v, [name]: value ?? '' }));
  const setChild = (index: number, change: Partial<ChildRow>) =>
    setValues((v) => ({ ...v, children: v.children.map((c, i) => (i === index ? { ...c, ...change } : c)) }));
  const childError = (index: number, field: keyof ChildRow) =>
    form.fieldErrors[`children.${index}.${field}`] ?? undefined;
  // A choice the settings no longer list (renamed since) stays selectable on the contact that has it.
  const withCurrent = (names: string[], current: string) =>
    current && !names.includes(current) ? [...names, current] : names;
  return (
    <form
      // The form's own messages (the contract's), not the browser's bubbles for required fields.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        form.submit(bodyOf(values));
      }}
    >
      <Stack gap="sm">
        <FormAlerts failure={form.failure} summary={form.summary} />
        <TextInput
          label="Parent’s name"
          required
          value={values.full_name}
          onChange={(e) => set('full_name')(e.currentTarget.value)}
          error={form.fieldErrors.full_name}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Email"
            type="email"
            value={values.email}
            onChange={(e) => set('email')(e.currentTarget.value)}
            error={form.fieldErrors.email}
          />
          <TextInput
            label="Phone"
            type="tel"
            value={values.phone}
            onChange={(e) => set('phone')(e.currentTarget.value)}
            error={form.fieldErrors.phone}
          />
        </SimpleGrid>
        <Card withBorder padding="sm">
          <Stack gap="xs">
            <Text fw={600} size="sm">
              Children
            </Text>
            {form.fieldErrors.children ? (
              <Text c="red" size="sm">
                {form.fieldErrors.children}
              </Text>
            ) : null}
            {values.children.map((child, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, never reordered
              <Group key={index} gap="xs" align="flex-start" wrap="wrap">
                <TextInput
                  label={`Child ${index + 1} name`}
                  value={child.name}
                  onChange={(e) => setChild(index, { name: e.currentTarget.value })}
                  error={childError(index, 'name')}
                  w={{ base: '100%', xs: 180 }}
                />
                <TextInput
                  label="Age"
                  inputMode="numeric"
                  value={child.age}
                  onChange={(e) => setChild(index, { age: e.currentTarget.value })}
                  error={childError(index, 'age')}
                  w={80}
                />
                <TextInput
                  label="or date of birth"
                  type="date"
                  value={child.dob}
                  onChange={(e) => setChild(index, { dob: e.currentTarget.value })}
                  error={childError(index, 'dob')}
                  w={160}
                />
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  mt={26}
                  aria-label={`Remove child ${index + 1}`}
                  onClick={() =>
                    setValues((v) => ({ ...v, children: v.children.filter((_, i) => i !== index) }))
                  }
                >
                  ×
                </ActionIcon>
              </Group>
            ))}
            <Group>
              <Button
                variant="light"
                size="xs"
                onClick={() =>
                  setValues((v) => ({ ...v, children: [...v.children, { name: '', age: '', dob: '' }] }))
                }
              >
                Add a child
              </Button>
            </Group>
          </Stack>
        </Card>
        <TextInput
          label="Interest"
          description="A class type, or what they are looking for"
          value={values.interest}
          onChange={(e) => set('interest')(e.currentTarget.value)}
          error={form.fieldErrors.interest}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Select
            label="Source"
            required
            data={withCurrent(props.sources, values.source)}
            value={values.source || null}
            onChange={set('source')}
            error={form.fieldErrors.source}
            allowDeselect={false}
          />
          <Select
            label="Stage"
            required
            data={withCurrent(
              props.stages.map((s) => s.name),
              values.stage,
            )}
            value={values.stage || null}
            onChange={set('stage')}
            error={form.fieldErrors.stage}
            allowDeselect={false}
          />
          <TextInput
            label="Follow up on"
            type="date"
            value={values.follow_up_on}
            onChange={(e) => set('follow_up_on')(e.currentTarget.value)}
            error={form.fieldErrors.follow_up_on}
          />
        </SimpleGrid>
        {props.withNote ? (
          <Textarea
            label="Note"
            autosize
            minRows={2}
            value={values.note}
            onChange={(e) => set('note')(e.currentTarget.value)}
            error={form.fieldErrors.note}
          />
        ) : null}
        <Group justify="flex-end">
          {props.onCancel ? (
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" loading={form.pending}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
