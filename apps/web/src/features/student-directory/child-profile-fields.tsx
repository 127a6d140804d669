import { ActionIcon, Button, Fieldset, Group, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { type EmergencyContact, MAX_EMERGENCY_CONTACTS } from '@tumble/contracts/students';
import { DateOfBirthInput, type DobValue } from '../../components/date-of-birth-input';
import type { FieldErrors } from '../../components/form-errors';
import { PlusIcon, TrashIcon } from '../../components/icons';

export interface ChildProfileExtras {
  medical_notes: string;
  allergies: string;
  school: string;
  emergency_contacts: EmergencyContact[];
}

export const emptyExtras = (): ChildProfileExtras => ({
  medical_notes: '',
  allergies: '',
  school: '',
  emergency_contacts: [],
});

/** First name, last name and date of birth: the start of the parent's child form and the staff screen's profile. */
export function ChildNameFields({
  names,
  onNames,
  dob,
  onDob,
  errors,
}: {
  names: { first_name: string; last_name: string };
  onNames: (names: { first_name: string; last_name: string }) => void;
  dob: DobValue;
  onDob: (dob: DobValue) => void;
  errors: FieldErrors;
}) {
  return (
    <>
      <TextInput
        label="First name"
        name="first_name"
        autoComplete="off"
        withAsterisk
        maxLength={80}
        value={names.first_name}
        onChange={(e) => onNames({ ...names, first_name: e.currentTarget.value })}
        error={errors.first_name}
      />
      <TextInput
        label="Last name"
        name="last_name"
        autoComplete="off"
        withAsterisk
        maxLength={80}
        value={names.last_name}
        onChange={(e) => onNames({ ...names, last_name: e.currentTarget.value })}
        error={errors.last_name}
      />
      <DateOfBirthInput dob={dob.dob} dobText={dob.dobText} onChange={onDob} error={errors.dob} />
    </>
  );
}

/**
 * The profile fields the parent's child form and the staff Students screen share (one schema,
 * `childProfileForm`): medical notes, allergies, school and up to three emergency contacts.
 */
export function ChildProfileFields({
  values,
  onChange,
  errors,
}: {
  values: ChildProfileExtras;
  onChange: (values: ChildProfileExtras) => void;
  errors: FieldErrors;
}) {
  const contacts = values.emergency_contacts;
  const setContact = (index: number, change: Partial<EmergencyContact>) =>
    onChange({
      ...values,
      emergency_contacts: contacts.map((c, i) => (i === index ? { ...c, ...change } : c)),
    });
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Textarea
          label="Medical notes"
          name="medical_notes"
          description="Conditions coaches should know about."
          autosize
          minRows={2}
          maxLength={1000}
          value={values.medical_notes}
          onChange={(e) => onChange({ ...values, medical_notes: e.currentTarget.value })}
          error={errors.medical_notes}
        />
        <Textarea
          label="Allergies"
          name="allergies"
          autosize
          minRows={2}
          maxLength={1000}
          value={values.allergies}
          onChange={(e) => onChange({ ...values, allergies: e.currentTarget.value })}
          error={errors.allergies}
        />
        <TextInput
          label="School"
          name="school"
          maxLength={120}
          value={values.school}
          onChange={(e) => onChange({ ...values, school: e.currentTarget.value })}
          error={errors.school}
        />
      </SimpleGrid>
      <Fieldset legend="Emergency contacts" variant="unstyled">
        <Stack gap="sm">
          {contacts.map((contact, index) => (
            // Contacts have no ids; their place in the list is who they are while editing.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ flex: 1 }} spacing="xs">
                <TextInput
                  label="Name"
                  aria-label={`Emergency contact ${index + 1} name`}
                  maxLength={120}
                  value={contact.name}
                  onChange={(e) => setContact(index, { name: e.currentTarget.value })}
                  error={errors[`emergency_contacts.${index}.name`]}
                />
                <TextInput
                  label="Relationship"
                  aria-label={`Emergency contact ${index + 1} relationship`}
                  maxLength={60}
                  value={contact.relationship}
                  onChange={(e) => setContact(index, { relationship: e.currentTarget.value })}
                  error={errors[`emergency_contacts.${index}.relationship`]}
                />
                <TextInput
                  label="Phone"
                  aria-label={`Emergency contact ${index + 1} phone`}
                  type="tel"
                  maxLength={30}
                  value={contact.phone}
                  onChange={(e) => setContact(index, { phone: e.currentTarget.value })}
                  error={errors[`emergency_contacts.${index}.phone`]}
                />
              </SimpleGrid>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={`Remove emergency contact ${index + 1}`}
                onClick={() =>
                  onChange({ ...values, emergency_contacts: contacts.filter((_, i) => i !== index) })
                }
              >
                <TrashIcon size={16} />
              </ActionIcon>
            </Group>
          ))}
          {errors.emergency_contacts ? (
            <div
              role="alert"
              style={{ color: 'var(--mantine-color-error)', fontSize: 'var(--mantine-font-size-sm)' }}
            >
              {errors.emergency_contacts}
            </div>
          ) : null}
          {contacts.length < MAX_EMERGENCY_CONTACTS ? (
            <Group>
              <Button
                variant="light"
                size="xs"
                leftSection={<PlusIcon size={14} />}
                onClick={() =>
                  onChange({
                    ...values,
                    emergency_contacts: [...contacts, { name: '', relationship: '', phone: '' }],
                  })
                }
              >
                Add emergency contact
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Fieldset>
    </Stack>
  );
}
