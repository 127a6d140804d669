import { TextInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import type { FieldErrors } from './form-errors';

export type ContactField = 'full_name' | 'email' | 'phone';

interface ContactFieldsProps {
  values: Record<ContactField, string>;
  onChange: (field: ContactField) => (event: ChangeEvent<HTMLInputElement>) => void;
  errors: FieldErrors;
  /** Parents give a phone at signup; elsewhere it is optional. */
  phoneRequired?: boolean;
}

/** A person's full name, email address and phone: the same three fields on every profile and signup form. */
export function ContactFields({ values, onChange, errors, phoneRequired = false }: ContactFieldsProps) {
  return (
    <>
      <TextInput
        label="Full name"
        name="full_name"
        autoComplete="name"
        withAsterisk
        value={values.full_name}
        onChange={onChange('full_name')}
        error={errors.full_name}
      />
      <TextInput
        label="Email address"
        name="email"
        type="email"
        autoComplete="email"
        withAsterisk
        value={values.email}
        onChange={onChange('email')}
        error={errors.email}
      />
      <TextInput
        label="Phone"
        name="phone"
        type="tel"
        autoComplete="tel"
        withAsterisk={phoneRequired}
        value={values.phone}
        onChange={onChange('phone')}
        error={errors.phone}
      />
    </>
  );
}
