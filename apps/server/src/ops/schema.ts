import type pg from 'pg';

/** What backup and restore need to know about one table of the `public` schema. */
export interface TableInfo {
  name: string;
  /** Every column, in table order. */
  columns: string[];
  /** Columns an INSERT may name: generated columns are computed by PostgreSQL. */
  insertable: string[];
  primaryKey: string[];
  /** Tables this one points at with foreign keys (itself excluded). */
  references: string[];
  /** Serial and identity columns with their sequences. */
  sequences: { column: string; sequence: string }[];
  /** Triggers written by us (not PostgreSQL's own foreign-key triggers). */
  hasUserTriggers: boolean;
}

export type Queryable = Pick<pg.ClientBase, 'query'>;

/** Drizzle keeps its bookkeeping in schema `drizzle`; skipped here too should it ever move to public. */
const BOOKKEEPING = new Set(['__drizzle_migrations']);

export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
export const qualified = (table: string) => `"public".${quote(table)}`;

async function rows<T>(db: Queryable, text: string): Promise<T[]> {
  return (await db.query(text)).rows as T[];
}

function groupBy<T extends { table: string }>(items: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(item.table, [...(map.get(item.table) ?? []), item]);
  return map;
}

const TABLES = `
  select c.relname as table from pg_class c
  where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition`;

const COLUMNS = `
  select c.relname as table, a.attname as column, a.attgenerated <> '' as generated,
    pg_get_serial_sequence(format('public.%I', c.relname), a.attname) as sequence
  from pg_attribute a join pg_class c on c.oid = a.attrelid
  where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
    and a.attnum > 0 and not a.attisdropped
  order by c.relname, a.attnum`;

const PRIMARY_KEYS = `
  select c.relname as table, a.attname as column
  from pg_index i join pg_class c on c.oid = i.indrelid
  cross join lateral unnest(i.indkey) with ordinality k(attnum, position)
  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
  where c.relnamespace = 'public'::regnamespace and i.indisprimary
  order by c.relname, k.position`;

const FOREIGN_KEYS = `
  select c.relname as table, r.relname as target
  from pg_constraint f join pg_class c on c.oid = f.conrelid join pg_class r on r.oid = f.confrelid
  where f.contype = 'f' and c.relnamespace = 'public'::regnamespace`;

const USER_TRIGGERS = `
  select distinct c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
  where c.relnamespace = 'public'::regnamespace and not t.tgisinternal`;

interface ColumnRow {
  table: string;
  column: string;
  generated: boolean;
  sequence: string | null;
}

/** The business tables of `public`, parents before children (see `dependencyOrder`). */
export async function listTables(db: Queryable): Promise<TableInfo[]> {
  const names = (await rows<{ table: string }>(db, TABLES))
    .map((r) => r.table)
    .filter((t) => !BOOKKEEPING.has(t));
  const columns = groupBy(await rows<ColumnRow>(db, COLUMNS));
  const keys = groupBy(await rows<{ table: string; column: string }>(db, PRIMARY_KEYS));
  const foreign = groupBy(await rows<{ table: string; target: string }>(db, FOREIGN_KEYS));
  const triggered = new Set((await rows<{ table: string }>(db, USER_TRIGGERS)).map((r) => r.table));
  const tables = names.map((name): TableInfo => {
    const own = columns.get(name) ?? [];
    return {
      name,
      columns: own.map((c) => c.column),
      insertable: own.filter((c) => !c.generated).map((c) => c.column),
      primaryKey: (keys.get(name) ?? []).map((k) => k.column),
      references: [...new Set((foreign.get(name) ?? []).map((f) => f.target))].filter((t) => t !== name),
      sequences: own.flatMap((c) => (c.sequence ? [{ column: c.column, sequence: c.sequence }] : [])),
      hasUserTriggers: triggered.has(name),
    };
  });
  return dependencyOrder(tables);
}

/**
 * Topological order of the foreign keys (Kahn), alphabetical among equals so every run agrees. A
 * table's rows are then inserted after the rows they point at. A self-reference is left out: rows
 * go in primary-key order, parents first in practice. A cycle between tables has no insert order
 * without deferrable constraints, so it stops the backup with the tables named.
 */
export function dependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const pending = new Map(tables.map((t) => [t.name, t.references.filter((r) => byName.has(r))]));
  const ordered: TableInfo[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter(([, refs]) => refs.every((r) => !pending.has(r))).map(([name]) => name);
    if (ready.length === 0) {
      throw new Error(`foreign keys form a cycle between: ${[...pending.keys()].sort().join(', ')}`);
    }
    for (const name of ready.sort()) {
      pending.delete(name);
      ordered.push(byName.get(name)!);
    }
  }
  return ordered;
}
