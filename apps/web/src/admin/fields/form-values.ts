import type { FieldMeta, FormDefinition } from '@tumble/contracts/resources';
import { centsToDollars, dollarsToCents } from '../format';

export type FormField = FormDefinition['fields'][number];
export type FormValues = Record<string, unknown>;

/**
 * A stored value as its input edits it: money in dollars, ids and choices as strings (Mantine's
 * selects work with strings), empty numbers as ''.
 */
export function toInputValue(field: FieldMeta, value: unknown): unknown {
  switch (field.type) {
    case 'money':
      return centsToDollars(value);
    case 'number':
    case 'percent':
      return typeof value === 'number' ? value : '';
    case 'boolean':
      return value === true;
    case 'select':
    case 'reference':
      return value === null || value === undefined || value === '' ? null : String(value);
    case 'multiselect':
      return Array.isArray(value) ? value.map(String) : [];
    case 'date':
    case 'time':
    case 'datetime':
    case 'file':
    case 'image':
      return typeof value === 'string' && value !== '' ? value : null;
    default:
      return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  }
}

/** An input's value as the API takes it: money in cents, reference ids as numbers, empty as null. */
export function toApiValue(field: FieldMeta, value: unknown): unknown {
  switch (field.type) {
    case 'money':
      return dollarsToCents(value);
    case 'number':
    case 'percent':
      return value === '' || value === null || value === undefined ? null : Number(value);
    case 'boolean':
      return value === true;
    case 'reference':
      return value === null || value === '' || value === undefined ? null : Number(value);
    case 'multiselect': {
      const list = Array.isArray(value) ? value.map(String) : [];
      return field.reference ? list.map(Number) : list;
    }
    default:
      return value === undefined || value === '' ? null : value;
  }
}

export function initialValues(fields: readonly FormField[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, toInputValue(f, f.value)]));
}

/** Whether a conditional field applies: its `when` field has the value named (a surcharge's kind). */
export function isShown(field: FieldMeta, values: FormValues): boolean {
  return !field.when || String(values[field.when.field] ?? '') === field.when.value;
}

export function payloadOf(fields: readonly FormField[], values: FormValues): Record<string, unknown> {
  return Object.fromEntries(
    fields.filter((f) => isShown(f, values)).map((f) => [f.name, toApiValue(f, values[f.name])]),
  );
}
