import { Card, Select } from '@mantine/core';
import type { Option } from '@tumble/contracts/resources';

/** The term a class screen works on (generate a term's sessions, copy classes into a term). */
export function TermSelect({
  label,
  placeholder,
  options,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  options: readonly Option[] | undefined;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  return (
    <Card p={{ base: 'sm', sm: 'md' }}>
      <Select
        label={label}
        placeholder={placeholder}
        data={(options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
        value={value}
        onChange={onChange}
        searchable
        maw={360}
      />
    </Card>
  );
}
