import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { useResourceOptions } from '../api/get-options';
import type { ResourceRef } from '../resource-ref';

interface ReferenceSelectProps extends Omit<SelectProps, 'value' | 'onChange' | 'data'> {
  /** The resource whose rows are the choices. */
  target: ResourceRef;
  /** The chosen id as a string, or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  /** The chosen row's title when it is already known (from the row's `_labels`). */
  initialLabel?: string;
}

/**
 * A searchable choice of another resource's rows, from its `/options` (at most 50 per search; the
 * server searches by title).
 */
export function ReferenceSelect({ target, value, onChange, initialLabel, ...props }: ReferenceSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const known = useRef(new Map<string, string>());
  if (value && initialLabel && !known.current.has(value)) known.current.set(value, initialLabel);
  const selectedLabel = value ? known.current.get(value) : undefined;
  // While the input shows the chosen row's title, list every choice rather than that one.
  const q = debounced === selectedLabel ? '' : debounced.trim();
  const options = useResourceOptions(target, q);

  const data = (options.data ?? []).map((o) => {
    known.current.set(String(o.value), o.label);
    return { value: String(o.value), label: o.label };
  });
  if (value && !data.some((o) => o.value === value)) {
    data.unshift({ value, label: known.current.get(value) ?? `#${value}` });
  }

  return (
    <Select
      {...props}
      data={data}
      value={value}
      onChange={(next) => onChange(next)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={options.isFetching ? 'Loading…' : 'Nothing found'}
      clearable={!props.withAsterisk}
    />
  );
}
