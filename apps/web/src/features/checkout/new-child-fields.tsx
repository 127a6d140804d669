import { SimpleGrid, TextInput } from '@mantine/core';
import { DateOfBirthInput, type DobValue } from '../../components/date-of-birth-input';

/** A new child as every checkout asks for one. */
export interface NewChildValue extends DobValue {
  first_name: string;
  last_name: string;
}

interface NewChildFieldsProps {
  value: NewChildValue;
  onChange: (change: Partial<NewChildValue>) => void;
}

/**
 * First name, last name and date of birth of a child not yet in the family (event and party
 * checkout). `dobText` is kept so the checkout rules can say which child's date of birth is invalid.
 */
export function NewChildFields({ value, onChange }: NewChildFieldsProps) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label="First name"
          value={value.first_name}
          onChange={(event) => onChange({ first_name: event.currentTarget.value })}
          autoComplete="off"
          maxLength={80}
        />
        <TextInput
          label="Last name"
          value={value.last_name}
          onChange={(event) => onChange({ last_name: event.currentTarget.value })}
          autoComplete="off"
          maxLength={80}
        />
      </SimpleGrid>
      <DateOfBirthInput dob={value.dob} dobText={value.dobText} onChange={onChange} />
    </>
  );
}
