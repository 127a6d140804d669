import { ActionIcon, Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { enquiryRequest } from '@tumble/contracts/crm';
import { useState } from 'react';
import { FormAlerts } from '../../components/form-alerts';
import { useFormPost } from '../../components/use-form-post';
import { postEnquiry } from './crm-api';

interface ChildRow {
  name: string;
  age: string;
}

/**
 * "Enquire" on the public registration form (issue 16): a parent not ready to enrol leaves their
 * details, children's ages and a message; the company gets it as a lead in Contacts.
 */
export function EnquireButton({ authhash, formKey }: { authhash: string; formKey: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" fullWidth onClick={() => setOpen(true)}>
        Not ready to enrol? Enquire
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Send an enquiry" size="lg">
        <EnquiryForm authhash={authhash} formKey={formKey} onClose={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function EnquiryForm({
  authhash,
  formKey,
  onClose,
}: {
  authhash: string;
  formKey: string;
  onClose: () => void;
}) {
  const [values, setValues] = useState({ full_name: '', email: '', phone: '', message: '' });
  const [kids, setKids] = useState<ChildRow[]>([{ name: '', age: '' }]);
  const form = useFormPost(enquiryRequest, (body) => postEnquiry(authhash, formKey, body));
  const set = (name: keyof typeof values) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setValues((v) => ({ ...v, [name]: value }));
  };
  if (form.accepted)
    return (
      <Stack gap="md">
        <Alert color="green" title={form.accepted.info?.title}>
          {form.accepted.info?.message}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    );
  const childError = (index: number) =>
    form.fieldErrors[`children.${index}.age`] ?? form.fieldErrors[`children.${index}.name`];
  return (
    <form
      // The form's own messages (the contract's), not the browser's bubbles for required fields.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        form.submit({
          ...values,
          children: kids
            .filter((k) => k.name.trim() !== '' || k.age.trim() !== '')
            .map((k) => ({ name: k.name, age: k.age.trim() === '' ? null : k.age })),
        });
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Leave your details and we will get back to you. Nothing is booked or paid.
        </Text>
        <FormAlerts failure={form.failure} summary={form.summary} />
        <TextInput
          label="Your name"
          required
          autoComplete="name"
          value={values.full_name}
          onChange={set('full_name')}
          error={form.fieldErrors.full_name}
        />
        <TextInput
          label="Email"
          type="email"
          required
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={form.fieldErrors.email}
        />
        <TextInput
          label="Phone"
          type="tel"
          autoComplete="tel"
          value={values.phone}
          onChange={set('phone')}
          error={form.fieldErrors.phone}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Children
          </Text>
          {kids.map((kid, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, never reordered
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                aria-label={`Child ${index + 1} first name`}
                placeholder="First name"
                value={kid.name}
                onChange={(e) => {
                  const name = e.currentTarget.value;
                  setKids((k) => k.map((x, i) => (i === index ? { ...x, name } : x)));
                }}
                style={{ flex: 1 }}
              />
              <TextInput
                aria-label={`Child ${index + 1} age`}
                placeholder="Age"
                inputMode="numeric"
                value={kid.age}
                onChange={(e) => {
                  const age = e.currentTarget.value;
                  setKids((k) => k.map((x, i) => (i === index ? { ...x, age } : x)));
                }}
                error={childError(index)}
                w={90}
              />
              {kids.length > 1 ? (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  mt={4}
                  aria-label={`Remove child ${index + 1}`}
                  onClick={() => setKids((k) => k.filter((_, i) => i !== index))}
                >
                  ×
                </ActionIcon>
              ) : null}
            </Group>
          ))}
          {form.fieldErrors.children ? (
            <Text c="red" size="xs">
              {form.fieldErrors.children}
            </Text>
          ) : null}
          <Group>
            <Button variant="subtle" size="xs" onClick={() => setKids((k) => [...k, { name: '', age: '' }])}>
              Add another child
            </Button>
          </Group>
        </Stack>
        <Textarea
          label="Message"
          autosize
          minRows={3}
          value={values.message}
          onChange={set('message')}
          error={form.fieldErrors.message}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            Send enquiry
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
