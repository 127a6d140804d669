import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../auth.ts';
import { auditLog } from './audit.tables.ts';

type Row = Record<string, unknown>;

/** Secrets never go into the log, even hashed. */
const HIDDEN = new Set(['passwordHash', 'tokenHash']);

/** A row as JSON-safe values (dates as ISO strings), secrets left out. */
function plain(row: Row | null | undefined): Row | null {
  if (!row) return null;
  return Object.fromEntries(
    Object.entries(row)
      .filter(([key]) => !HIDDEN.has(key))
      .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  );
}

const shown = (value: unknown) => {
  const text =
    value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** "field: before → after" for each field that differs; every field of a created or removed row. */
export function describeChange(before: Row | null, after: Row | null): string {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (key) => key !== 'companyId',
  );
  return (
    keys
      // A field that is empty on both sides (a new row's unset columns) is no change.
      .filter((key) => JSON.stringify(before?.[key] ?? null) !== JSON.stringify(after?.[key] ?? null))
      .map((key) => `${key}: ${shown(before?.[key])} → ${shown(after?.[key])}`)
      .join('\n')
  );
}

/** Records one staff change in the same transaction as the change itself. */
export async function recordAudit(
  tx: Db,
  auth: AuthContext,
  entry: { action: string; entity: string; entityId: number | null; before?: Row | null; after?: Row | null },
) {
  const before = plain(entry.before);
  const after = plain(entry.after);
  await tx.insert(auditLog).values(
    auth.tenant.values({
      userId: auth.userId,
      actorName: auth.fullName,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId,
      summary: describeChange(before, after) || '(no field changed)',
      before,
      after,
    }),
  );
}
