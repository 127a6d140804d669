import { z } from 'zod';

/**
 * Importing families from another system (issue 17): a CSV, a mapping of its columns to our
 * fields, a dry run that lists every row's problems, then one all-or-nothing import.
 */

/** The fields a column can fill, in the order the mapping screen offers them. */
export const importFields = [
  'parent_first_name',
  'parent_last_name',
  'parent_full_name',
  'email',
  'phone',
  'child_first_name',
  'child_last_name',
  'dob',
  'medical_notes',
  'class_name',
] as const;
export type ImportField = (typeof importFields)[number];

export const importFieldLabels: Record<ImportField, string> = {
  parent_first_name: 'Parent first name',
  parent_last_name: 'Parent last name',
  parent_full_name: 'Parent full name',
  email: 'Parent email',
  phone: 'Parent phone',
  child_first_name: 'Child first name',
  child_last_name: 'Child last name',
  dob: 'Date of birth',
  medical_notes: 'Medical notes',
  class_name: 'Class to enrol in',
};

/** Field → the file's column header ('' or missing: not mapped). */
export const importMapping = z.partialRecord(z.enum(importFields), z.string().max(200));
export type ImportMapping = z.infer<typeof importMapping>;

export const importPresets = ['iclasspro', 'jackrabbit'] as const;
export type ImportPreset = (typeof importPresets)[number];

/** What the upload answers: the file's columns, the saved mapping and the presets. */
export const importColumnsResponse = z.object({
  columns: z.array(z.string()),
  rows: z.number().int(),
  /** The company's saved mapping, or the preset's matched to this file, or {}. */
  mapping: importMapping,
  presets: z.record(z.enum(importPresets), importMapping),
  /** Whether the company has classes to enrol in (the class field is offered then). */
  has_classes: z.boolean(),
});
export type ImportColumnsResponse = z.infer<typeof importColumnsResponse>;

export const importDryRunResponse = z.object({
  rows: z.number().int(),
  /** One sentence per problem, "Row 12: …"; empty: the file can be imported. */
  problems: z.array(z.string()),
  /** What the import would do, one sentence per family ("Row 3: adds 1 child to an existing family"). */
  actions: z.array(z.string()),
  summary: z.object({
    new_families: z.number().int(),
    existing_families: z.number().int(),
    children: z.number().int(),
    enrolments: z.number().int(),
  }),
});
export type ImportDryRunResponse = z.infer<typeof importDryRunResponse>;

export const importRunStatus = z.enum(['running', 'done', 'failed']);

export const importRunView = z.object({
  id: z.number().int(),
  status: importRunStatus,
  total_rows: z.number().int(),
  done_rows: z.number().int(),
  families: z.number().int(),
  children: z.number().int(),
  enrolments: z.number().int(),
  invitations: z.number().int(),
  message: z.string().nullable(),
});
export type ImportRunView = z.infer<typeof importRunView>;

export const importMessages = {
  noFile: 'Please choose a CSV file to upload.',
  tooBig: 'The file is larger than 10 MB.',
  notCsv: 'This file could not be read as CSV: ',
  noRows: 'The file has a header row but no families.',
  badMapping: 'Please choose which columns hold the fields.',
  hasProblems: 'The file still has problems; fix them and run the check again.',
} as const;
