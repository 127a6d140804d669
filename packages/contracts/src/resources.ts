import { z } from 'zod';

/**
 * The admin resource engine's wire format: what `GET /api/v1/admin/<resource>/meta` answers and what
 * the generic list, form and view screens render. See docs/decisions/003-resource-engine.md.
 */
export const fieldTypes = [
  'text',
  'textarea',
  'richtext',
  'number',
  'money',
  /** A percentage typed as 1.5, stored as basis points (150); min and max in basis points. */
  'percent',
  'date',
  'time',
  'datetime',
  'boolean',
  'select',
  'multiselect',
  'reference',
  'file',
  'image',
  'email',
  'phone',
  'colour',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export const optionSchema = z.object({ value: z.union([z.string(), z.number()]), label: z.string() });
export type Option = z.infer<typeof optionSchema>;

export const fieldMeta = z.object({
  name: z.string(),
  type: z.enum(fieldTypes),
  label: z.string(),
  required: z.boolean(),
  help: z.string().optional(),
  /** text/textarea: characters; number/money: value (money in cents). */
  min: z.number().optional(),
  max: z.number().optional(),
  options: z.array(optionSchema).optional(),
  /** reference: the resource whose `/options` list the choices. */
  reference: z.string().optional(),
  /** Shown in view and list only, never in the form. */
  readOnly: z.boolean(),
  default: z.unknown().optional(),
  /** Shown, required and saved only while another field has this value (a surcharge's kind). */
  when: z.object({ field: z.string(), value: z.string() }).optional(),
});
export type FieldMeta = z.infer<typeof fieldMeta>;

/** none: a toolbar action; one: exactly one selected row; many: one or more. */
export const selectionRules = ['none', 'one', 'many'] as const;
export type SelectionRule = (typeof selectionRules)[number];

export const actionMeta = z.object({
  name: z.string(),
  label: z.string(),
  selection: z.enum(selectionRules),
  /** Text of 'Are you sure to {action}?' or null for no confirmation. */
  confirm: z.string().nullable(),
  /** The confirmation's button that leaves without running; 'Cancel' when absent. */
  dismiss: z.string().optional(),
  /** A row action opens a custom screen instead of dispatching (e.g. the availability calendar). */
  screen: z.string().optional(),
  /** Values the action asks for before it runs (e.g. the new session of swap-session). */
  fields: z.array(fieldMeta).optional(),
});
export type ActionMeta = z.infer<typeof actionMeta>;

export const resourceMeta = z.object({
  name: z.string(),
  label: z.string(),
  singular: z.string(),
  /** Nested resources name their parent: events/:parentId/sessions. */
  parent: z.string().nullable(),
  children: z.array(z.object({ name: z.string(), label: z.string() })),
  titleField: z.string(),
  fields: z.array(fieldMeta),
  columns: z.array(z.string()),
  sortable: z.array(z.string()),
  defaultSort: z.object({ field: z.string(), order: z.enum(['asc', 'desc']) }),
  filters: z.array(z.string()),
  searchable: z.boolean(),
  actions: z.array(actionMeta),
  canWrite: z.boolean(),
  canCreate: z.boolean(),
  /** False for read-only resources (bookings, payments): no edit form. */
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  deleteMode: z.enum(['delete', 'archive', 'none']),
  /** Read-only lists shown under a row on its page (a booking's children and days), from `/:id/sections`. */
  sections: z.array(z.object({ name: z.string(), label: z.string() })).optional(),
});
export type ResourceMeta = z.infer<typeof resourceMeta>;

/** GET …/:id/sections: each section's columns and rows; a row's `href` links it to its admin page. */
export const recordSections = z.array(
  z.object({
    name: z.string(),
    label: z.string(),
    columns: z.array(z.object({ name: z.string(), label: z.string() })),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  }),
);
export type RecordSections = z.infer<typeof recordSections>;

export type ResourceRecord = { id: number } & Record<string, unknown>;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25),
  sort: z.string().max(64).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  q: z.string().trim().max(200).optional(),
  /** JSON object of field → value, e.g. {"published":true}. */
  filter: z.string().max(2000).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/**
 * One page and the total. Past `EXACT_TOTAL_LIMIT` matching rows the server stops counting:
 * `total` is then that limit and `totalIsEstimate` true ("10,000+"), so a big list costs a
 * bounded count. Optional so an older server's answer still parses.
 */
export const listResponse = z.object({
  data: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
  totalIsEstimate: z.boolean().optional(),
});
export type ListResponse = { data: ResourceRecord[]; total: number; totalIsEstimate?: boolean };

/** Lists count exactly up to this many rows; past it the total is "10,000+". */
export const EXACT_TOTAL_LIMIT = 10_000;

export const formDefinition = z.object({
  title: z.string(),
  fields: z.array(fieldMeta.extend({ value: z.unknown() })),
});
export type FormDefinition = z.infer<typeof formDefinition>;

export const dispatchRequest = z.object({
  ids: z.array(z.coerce.number().int().positive()).max(1000).default([]),
  /** The action's own fields, when it has any. */
  values: z.record(z.string(), z.unknown()).default({}),
});
export const dispatchResponse = z.object({ success: z.boolean(), message: z.string() });
export type DispatchResponse = z.infer<typeof dispatchResponse>;

export const uploadResponse = z.object({ key: z.string(), url: z.string(), name: z.string() });
