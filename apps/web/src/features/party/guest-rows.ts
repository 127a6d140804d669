import type { FormDefinition } from '@tumble/contracts/resources';

export type GuestField = FormDefinition['fields'][number];

export interface GuestRow {
  /** 1-based, from the field names guest_<n>_… */
  position: number;
  fields: GuestField[];
}

const GUEST_FIELD = /^guest_(\d+)_/;

/**
 * The update-guest form definition's fields (guest_1_child_name, guest_1_parent_name, …) grouped
 * into one row per guest, in order. Fields that name no guest come back in `other`.
 */
export function guestRows(fields: readonly GuestField[]): { rows: GuestRow[]; other: GuestField[] } {
  const byPosition = new Map<number, GuestField[]>();
  const other: GuestField[] = [];
  for (const field of fields) {
    const match = GUEST_FIELD.exec(field.name);
    if (!match) {
      other.push(field);
      continue;
    }
    const position = Number(match[1]);
    byPosition.set(position, [...(byPosition.get(position) ?? []), field]);
  }
  const rows = [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .map(([position, rowFields]) => ({ position, fields: rowFields }));
  return { rows, other };
}

/** 'Guest 3: Parent’s email' shown as 'Parent’s email' where the row already says 'Guest 3'. */
export function shortLabel(label: string): string {
  return label.replace(/^Guest \d+:\s*/, '');
}

/** The form's starting values: each field's saved value as text. */
export function initialGuestValues(fields: readonly GuestField[]): Record<string, string> {
  return Object.fromEntries(
    fields.map((field) => [
      field.name,
      typeof field.value === 'string' || typeof field.value === 'number' ? String(field.value) : '',
    ]),
  );
}
