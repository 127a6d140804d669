import type { FieldMeta, FieldType, Option } from '@tumble/contracts/resources';
import { z } from 'zod';
import { sanitizeRichText } from '../html.ts';

/** A field of a resource, as declared in `defineResource({ fields })`. */
export interface FieldDef {
  type: FieldType;
  label: string;
  required?: boolean;
  help?: string;
  /** The Drizzle column key when it differs from the camelCase of the field name. */
  column?: string;
  /** Characters (text) or value (number, money in cents). */
  min?: number;
  max?: number;
  options?: readonly Option[];
  /** reference: the resource pointed at; its `titleField` labels the choice. */
  reference?: string;
  /** Shown in view and list, never written by the form (computed or system values). */
  readOnly?: boolean;
  default?: unknown;
  /**
   * Only while another field has this value is the field shown, required and saved (two fields
   * may then share a column: a surcharge's percent or fixed amount).
   */
  when?: { field: string; value: string };
}

type Opts = Omit<FieldDef, 'type' | 'label'>;

/**
 * Field builders. Example:
 *
 * ```ts
 * fields: {
 *   name: field.text('Name', { required: true, max: 120 }),
 *   capacity: field.number('Capacity', { required: true, min: 1, max: 500 }),
 *   venue_id: field.reference('Venue', 'venues'),
 * }
 * ```
 */
export const field = {
  text: (label: string, o: Opts = {}): FieldDef => ({ type: 'text', label, max: 255, ...o }),
  textarea: (label: string, o: Opts = {}): FieldDef => ({ type: 'textarea', label, max: 2000, ...o }),
  richtext: (label: string, o: Opts = {}): FieldDef => ({ type: 'richtext', label, max: 100_000, ...o }),
  number: (label: string, o: Opts = {}): FieldDef => ({ type: 'number', label, ...o }),
  money: (label: string, o: Opts = {}): FieldDef => ({
    type: 'money',
    label,
    min: 0,
    max: 100_000_000,
    ...o,
  }),
  /** Typed as a percentage (1.5), stored as basis points (150); `min`/`max` in basis points. */
  percent: (label: string, o: Opts = {}): FieldDef => ({ type: 'percent', label, min: 0, max: 10_000, ...o }),
  date: (label: string, o: Opts = {}): FieldDef => ({ type: 'date', label, ...o }),
  time: (label: string, o: Opts = {}): FieldDef => ({ type: 'time', label, ...o }),
  datetime: (label: string, o: Opts = {}): FieldDef => ({ type: 'datetime', label, ...o }),
  boolean: (label: string, o: Opts = {}): FieldDef => ({ type: 'boolean', label, default: false, ...o }),
  select: (label: string, options: readonly Option[], o: Opts = {}): FieldDef => ({
    type: 'select',
    label,
    options,
    ...o,
  }),
  multiselect: (label: string, options: readonly Option[], o: Opts = {}): FieldDef => ({
    type: 'multiselect',
    label,
    options,
    default: [],
    ...o,
  }),
  reference: (label: string, resource: string, o: Opts = {}): FieldDef => ({
    type: 'reference',
    label,
    reference: resource,
    ...o,
  }),
  /** Several rows of another resource, stored as an integer array. */
  references: (label: string, resource: string, o: Opts = {}): FieldDef => ({
    type: 'multiselect',
    label,
    reference: resource,
    default: [],
    ...o,
  }),
  file: (label: string, o: Opts = {}): FieldDef => ({ type: 'file', label, ...o }),
  image: (label: string, o: Opts = {}): FieldDef => ({ type: 'image', label, ...o }),
  email: (label: string, o: Opts = {}): FieldDef => ({ type: 'email', label, max: 254, ...o }),
  phone: (label: string, o: Opts = {}): FieldDef => ({ type: 'phone', label, max: 30, ...o }),
  colour: (label: string, o: Opts = {}): FieldDef => ({ type: 'colour', label, ...o }),
};

/** A calendar date that exists: 2025-02-30 is refused. */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === m - 1 &&
    date.getUTCDate() === d &&
    y >= 1900 &&
    y <= 2200
  );
}

const emptyToNull = (v: unknown) => (v === '' || v === undefined ? null : v);
const numberInput = (v: unknown) => {
  if (v === '' || v === null || v === undefined) return null;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return v;
};
const booleanInput = (v: unknown) => {
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0 || v === '' || v === null || v === undefined) return false;
  return v;
};

/**
 * The zod schema of one field's form value, giving the messages shown against the field. The
 * output is what the database column stores (null for an empty optional value).
 */
export function fieldSchema(name: string, def: FieldDef): z.ZodType {
  const required = `${def.label} is required.`;
  const tooLong = `${def.label} must be at most ${def.max} characters.`;
  /** Empty input becomes null; null passes unless the field is required. */
  const finish = (schema: z.ZodType, empty: (v: unknown) => unknown = emptyToNull) =>
    z.preprocess(empty, schema.nullable()).refine((v) => !def.required || v !== null, required);
  const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() || null : emptyToNull(v));
  const text = (schema: z.ZodString = z.string()) => {
    let s = schema;
    if (def.max !== undefined) s = s.max(def.max, tooLong);
    if (def.min !== undefined) s = s.min(def.min, `${def.label} must be at least ${def.min} characters.`);
    return finish(s, trimmed);
  };
  switch (def.type) {
    case 'text':
    case 'textarea':
      return text();
    case 'richtext':
      return finish(
        z
          .string()
          .max(def.max ?? 100_000, tooLong)
          .transform(sanitizeRichText),
        trimmed,
      );
    case 'email':
      return finish(z.email(`${def.label} must be a valid email address.`).max(254), (v) =>
        typeof v === 'string' ? v.trim().toLowerCase() || null : emptyToNull(v),
      );
    case 'phone':
      return text(z.string().regex(/^[0-9 +()-]*$/, `${def.label} must be a valid phone number.`));
    case 'colour':
      return finish(
        z.string().regex(/^#[0-9a-fA-F]{6}$/, `${def.label} must be a colour like #1e90ff.`),
        trimmed,
      );
    case 'number':
    case 'money': {
      const unit = def.type === 'money' ? 'a whole number of cents' : 'a number';
      let n = z.number(`${def.label} must be ${unit}.`);
      if (def.type === 'money') n = n.int(`${def.label} must be ${unit}.`);
      if (def.min !== undefined) n = n.min(def.min, `${def.label} must be at least ${def.min}.`);
      n = n.max(
        Math.min(def.max ?? 2_147_483_647, 2_147_483_647),
        `${def.label} must be at most ${def.max ?? 2_147_483_647}.`,
      );
      return finish(n, numberInput);
    }
    case 'percent': {
      // The form carries the percentage; the column stores basis points (1.5% → 150).
      const shown = (bp: number) => `${bp / 100}%`;
      const percent = z
        .number(`${def.label} must be a percentage like 1.5.`)
        .refine(
          (v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6,
          `${def.label} may have at most two decimals.`,
        )
        .transform((v) => Math.round(v * 100))
        .refine(
          (bp) => def.min === undefined || bp >= def.min,
          `${def.label} must be at least ${shown(def.min ?? 0)}.`,
        )
        .refine(
          (bp) => def.max === undefined || bp <= def.max,
          `${def.label} must be at most ${shown(def.max ?? 0)}.`,
        );
      return finish(percent, numberInput);
    }
    case 'reference':
      return finish(
        z.number(`Please choose a valid ${def.label.toLowerCase()}.`).int().positive().max(2_147_483_647),
        numberInput,
      );
    case 'date':
      return finish(
        z.string().refine(isRealDate, `${def.label} must be a valid date (YYYY-MM-DD).`),
        trimmed,
      );
    case 'time':
      return finish(
        z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${def.label} must be a time like 09:30.`),
        trimmed,
      );
    case 'datetime':
      return finish(
        z
          .string()
          .refine(
            (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
            `${def.label} must be a valid date and time.`,
          )
          .transform((v) => new Date(v)),
        trimmed,
      );
    case 'boolean':
      return z.preprocess(booleanInput, z.boolean(`${def.label} must be yes or no.`));
    case 'select': {
      const values = (def.options ?? []).map((o) => String(o.value));
      return finish(
        z.string().refine((v) => values.includes(v), `Please choose a valid ${def.label.toLowerCase()}.`),
        (v) => (typeof v === 'number' ? String(v) : emptyToNull(v)),
      );
    }
    case 'multiselect': {
      if (def.reference) {
        // Ids of another resource's rows; the engine checks each belongs to the tenant.
        return z.preprocess(
          (v) => (v === '' || v === null || v === undefined ? [] : v),
          z
            .array(
              z.coerce.number().int().positive().max(2_147_483_647),
              `Please choose valid ${def.label.toLowerCase()}.`,
            )
            .max(500)
            .transform((vs) => [...new Set(vs)])
            .refine((vs) => !def.required || vs.length > 0, required),
        );
      }
      const values = (def.options ?? []).map((o) => String(o.value));
      const invalidChoice = `Please choose valid ${def.label.toLowerCase()}.`;
      const list = z
        .array(z.union([z.string(), z.number()]).transform(String), invalidChoice)
        .max(100)
        .refine((vs) => vs.every((v) => values.includes(v)), invalidChoice)
        .transform((vs) => [...new Set(vs)])
        .refine((vs) => !def.required || vs.length > 0, required);
      return z.preprocess((v) => (v === '' || v === null || v === undefined ? [] : v), list);
    }
    case 'file':
    case 'image':
      // The key from the resource's upload endpoint; the engine checks it belongs to the tenant.
      return finish(z.string().max(200), trimmed);
  }
  throw new Error(`field ${name}: unknown type`);
}

/** A stored value as the API shows it (dates as ISO strings). */
export function toApiValue(def: FieldDef, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (def.type === 'time' && typeof value === 'string') return value.slice(0, 5);
  if (def.type === 'percent' && typeof value === 'number') return value / 100;
  if (value === undefined) return null;
  return value;
}

export function fieldMetaOf(name: string, def: FieldDef): FieldMeta {
  return {
    name,
    type: def.type,
    label: def.label,
    required: def.required ?? false,
    readOnly: def.readOnly ?? false,
    ...(def.help ? { help: def.help } : {}),
    ...(def.min !== undefined ? { min: def.min } : {}),
    ...(def.max !== undefined ? { max: def.max } : {}),
    ...(def.options ? { options: [...def.options] } : {}),
    ...(def.reference ? { reference: def.reference } : {}),
    ...(def.default !== undefined ? { default: def.default } : {}),
    ...(def.when ? { when: def.when } : {}),
  };
}
