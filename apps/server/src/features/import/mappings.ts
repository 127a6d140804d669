import type { ImportField, ImportMapping, ImportPreset } from '@tumble/contracts/import';

/**
 * Column presets for the two systems providers most often leave. Neither publishes its export
 * layout, so these are the headers of their family/student list exports as providers describe
 * them (assumed; a header a file does not have simply stays unmapped, and staff pick it by hand):
 * - iClassPro's student export: "Guardian First Name", "Guardian Last Name", "Guardian Email",
 *   "Guardian Phone", "Student First Name", "Student Last Name", "Birth Date" (M/D/YYYY or
 *   D/M/YYYY by locale), "Medical Notes", "Class".
 * - Jackrabbit's "All Students" export: "Family", "Contact Email", "Contact Phone", "First Name",
 *   "Last Name", "Birth Date", "Medical Info", "Classes" (the family name carries the parent).
 */
export const presets: Record<ImportPreset, Partial<Record<ImportField, string[]>>> = {
  iclasspro: {
    parent_first_name: ['Guardian First Name', 'Primary Guardian First Name'],
    parent_last_name: ['Guardian Last Name', 'Primary Guardian Last Name'],
    email: ['Guardian Email', 'Primary Email', 'Email'],
    phone: ['Guardian Phone', 'Primary Phone', 'Phone'],
    child_first_name: ['Student First Name'],
    child_last_name: ['Student Last Name'],
    dob: ['Birth Date', 'Birthdate', 'Student Birth Date'],
    medical_notes: ['Medical Notes', 'Health Concerns'],
    class_name: ['Class', 'Class Name'],
  },
  jackrabbit: {
    parent_full_name: ['Family', 'Family Name', 'Primary Contact'],
    email: ['Contact Email', 'Family Email', 'Email'],
    phone: ['Contact Phone', 'Family Phone', 'Phone'],
    child_first_name: ['First Name', 'Student First Name'],
    child_last_name: ['Last Name', 'Student Last Name'],
    dob: ['Birth Date', 'Birthdate'],
    medical_notes: ['Medical Info', 'Medical', 'Allergies/Medical'],
    class_name: ['Classes', 'Class'],
  },
};

const comparable = (header: string) => header.trim().toLowerCase().replace(/\s+/g, ' ');

/** The preset's mapping for this file's columns: each field takes the first alias the file has. */
export function presetMapping(preset: ImportPreset, columns: string[]): ImportMapping {
  const byName = new Map(columns.map((c) => [comparable(c), c]));
  const mapping: ImportMapping = {};
  for (const [field, aliases] of Object.entries(presets[preset]) as [ImportField, string[]][]) {
    const found = aliases.map((a) => byName.get(comparable(a))).find((c) => c !== undefined);
    if (found) mapping[field] = found;
  }
  return mapping;
}

/**
 * A date of birth as exported: DD/MM/YYYY (also with - or .), YYYY-MM-DD, or D/M/YY (a two-digit
 * year is this century unless that would be in the future). The day comes first: the providers we
 * serve write dates that way. Null when it is not a real date.
 */
export function parseDob(value: string, today: string): string | null {
  const text = value.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dmy) {
    [d, m, y] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
    if (dmy[3]!.length === 2) y += 2000 + y > Number(today.slice(0, 4)) ? 1900 : 2000;
  } else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  const iso8601 = date.toISOString().slice(0, 10);
  return iso8601 > today || y < 1900 ? null : iso8601;
}
