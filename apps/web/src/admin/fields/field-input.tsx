import { ColorInput, type MultiSelectProps, NumberInput, Select, Switch, TextInput } from '@mantine/core';
import { DateTimePicker, TimeInput } from '@mantine/dates';
import { useResourceOptions } from '../api/get-options';
import type { ResourceRef } from '../resource-ref';
import { DateField } from './date-field';
import { FileField } from './file-field';
import type { FormField } from './form-values';
import { MoneyField } from './money-field';
import { MultiSelectField } from './multi-select-field';
import { ReferenceSelect } from './reference-select';
import { RichTextField } from './rich-text-field';
import { TextareaField } from './textarea-field';

export interface FieldInputProps {
  field: FormField;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  /** The resource being edited (uploads go to its `/upload`). */
  owner: ResourceRef;
  /** Where a reference field's choices come from. */
  referenceTarget: (reference: string) => ResourceRef;
  /** Titles of the rows the stored references point at. */
  labels?: Record<string, string>;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** 'YYYY-MM-DD HH:mm:ss' in the browser's zone ⇄ the API's ISO instant. */
function isoToLocal(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:00`;
}
function localToIso(value: string | null): string | null {
  if (!value) return null;
  const d = new Date(value.replace(' ', 'T'));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** One field of a generated form, rendered by its type. */
export function FieldInput({
  field,
  value,
  onChange,
  error,
  owner,
  referenceTarget,
  labels,
}: FieldInputProps) {
  const common = {
    label: field.label,
    description: field.help,
    withAsterisk: field.required,
    error,
    name: field.name,
    'aria-required': field.required || undefined,
  };
  switch (field.type) {
    case 'textarea':
      return <TextareaField {...common} value={str(value)} onChange={onChange} max={field.max} />;
    case 'richtext':
      return (
        <RichTextField
          label={field.label}
          description={field.help}
          required={field.required}
          error={error}
          value={str(value)}
          onChange={onChange}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(next === '' ? '' : Number(next))}
          min={field.min}
          max={field.max}
        />
      );
    case 'percent':
      // Typed as a percentage (1.5); the server stores basis points and gives min/max in them.
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(next === '' ? '' : Number(next))}
          min={field.min === undefined ? undefined : field.min / 100}
          max={field.max === undefined ? undefined : field.max / 100}
          decimalScale={2}
          suffix="%"
          inputMode="decimal"
        />
      );
    case 'money':
      return (
        <MoneyField
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={onChange}
          minCents={field.min}
          maxCents={field.max}
        />
      );
    case 'date':
      return (
        <DateField {...common} value={strOrNull(value)} onChange={onChange} clearable={!field.required} />
      );
    case 'time':
      return (
        <TimeInput
          {...common}
          value={str(value)}
          onChange={(event) => onChange(event.currentTarget.value || null)}
        />
      );
    case 'datetime':
      return (
        <DateTimePicker
          {...common}
          value={isoToLocal(value)}
          onChange={(next) => onChange(localToIso(next))}
          valueFormat="DD/MM/YYYY HH:mm"
          firstDayOfWeek={1}
          clearable={!field.required}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={field.label}
          description={field.help}
          error={error}
          name={field.name}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          mt="xs"
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={(field.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
          value={strOrNull(value)}
          onChange={(next) => onChange(next)}
          clearable={!field.required}
          allowDeselect={!field.required}
        />
      );
    case 'multiselect':
      return field.reference ? (
        <ReferenceMultiSelect
          {...common}
          target={referenceTarget(field.reference)}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
        />
      ) : (
        <MultiSelectField
          {...common}
          data={(field.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
          clearable
        />
      );
    case 'reference':
      return (
        <ReferenceSelect
          {...common}
          target={referenceTarget(field.reference ?? '')}
          value={strOrNull(value)}
          onChange={onChange}
          initialLabel={labels?.[field.name]}
        />
      );
    case 'file':
    case 'image':
      return (
        <FileField
          target={owner}
          kind={field.type}
          label={field.label}
          description={field.help}
          required={field.required}
          error={error}
          value={strOrNull(value)}
          onChange={onChange}
        />
      );
    case 'colour':
      return (
        <ColorInput
          {...common}
          format="hex"
          value={str(value)}
          onChange={onChange}
          eyeDropperButtonProps={{ 'aria-label': 'Pick a colour from the screen' }}
        />
      );
    case 'email':
      return (
        <TextInput
          {...common}
          type="email"
          value={str(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
          maxLength={field.max}
        />
      );
    case 'phone':
      return (
        <TextInput
          {...common}
          type="tel"
          value={str(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
          maxLength={field.max}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={str(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
          maxLength={field.max}
        />
      );
  }
}

/** Several rows of another resource (stored as ids), from its `/options`. */
function ReferenceMultiSelect({
  target,
  value,
  onChange,
  ...props
}: Omit<MultiSelectProps, 'value' | 'onChange' | 'data'> & {
  target: ResourceRef;
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const options = useResourceOptions(target);
  const data = (options.data ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  for (const id of value) if (!data.some((o) => o.value === id)) data.push({ value: id, label: `#${id}` });
  return <MultiSelectField {...props} data={data} value={value} onChange={onChange} searchable clearable />;
}
