import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getTableColumns, isTable } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

/**
 * How an unscoped query is caught (docs/decisions/011-tenancy-and-feature-boundaries.md): every
 * `.where(` on a tenant table (one with a `company_id`) must hold the tenant helper
 * (`tenant.where`, `tenant.byId`, or the resource engine's `scope`/`rowsOf`, which start from
 * it), or say `// cross-tenant: <why>` within the three lines above (a webhook names only the
 * provider's id, a session is found by its token, the mail sweep serves every company). Tests,
 * seeds, backups and migrations work across tenants by design and are not scanned.
 */
const root = path.resolve(import.meta.dirname, '..');
const skipped = /(\.test\.ts|\.tables\.ts)$|^(testing|seed|ops|db)\//;
const SCOPED = /(\btenant|Tenant\([\w.]*\))\.(where|byId)\(|\b(scope|rowsOf)\(/;

function filesUnder(dir: string, keep: (relative: string) => boolean): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(relative, keep);
    return keep(relative) ? [relative] : [];
  });
}

/** The text up to the parenthesis that closes the one opened just before `from`. */
function balanced(text: string, from: number): string {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

/**
 * `file:line` of every `.where(` whose condition is not scoped. `installationTables` names the
 * tables without a company (companies, the sign-in throttle): queries on them are not tenant
 * queries.
 */
export function unscopedWheres(file: string, text: string, installationTables: Set<string>): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  for (const match of text.matchAll(/\.where\(/g)) {
    // The helper itself, or a tenant made on the spot: `new Tenant(row.companyId).byId(…)`.
    if (/(\btenant|\bthis|Tenant\([\w.]*\)|tenantOf\(\w*\))$/.test(text.slice(0, match.index))) continue;
    const condition = balanced(text, match.index + match[0].length).trim();
    if (condition === '' || SCOPED.test(condition)) continue;
    // A condition built just before: `const where = scope(resource, call, …)`.
    if (/^\w+$/.test(condition) && new RegExp(`\\bconst ${condition} = (${SCOPED.source})`).test(text))
      continue;
    const statement = text.slice(text.lastIndexOf(';', match.index) + 1, match.index);
    const target = [...statement.matchAll(/\.(?:from|update|delete)\((\w+)\)/g)].at(-1)?.[1];
    if (target && installationTables.has(target)) continue;
    // A subquery made by a tenant-scoped read (`const cover = eventCoverQuery(db, tenant)`, the
    // reports' joins) is scoped inside that read, whose own `.where(` is checked here.
    if (target && new RegExp(`\\bconst ${target} = (await )?\\w+\\(\\w+, tenant\\b`).test(text)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    if (
      lines
        .slice(Math.max(0, line - 4), line)
        .join('\n')
        .includes('// cross-tenant:')
    )
      continue;
    found.push(`${file}:${line}`);
  }
  return found;
}

/** Every exported Drizzle table of the server without a `companyId` column, by its export name. */
async function tablesWithoutCompany(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of filesUnder('.', (f) => f.endsWith('.tables.ts'))) {
    const module: Record<string, unknown> = await import(path.join(root, file));
    for (const [name, value] of Object.entries(module)) {
      if (isTable(value) && !('companyId' in getTableColumns(value))) names.add(name);
    }
  }
  return names;
}

describe('tenant scoping', () => {
  it('finds an unscoped by-id query and accepts a scoped, marked or installation-wide one', () => {
    const code = [
      'await tx.update(bookings).set(x).where(eq(bookings.id, id));',
      'await tx.update(bookings).set(x).where(tenant.byId(bookings, id));',
      'await db.select().from(v).where(\n  auth.tenant.where(v, eq(v.id, 1)),\n);',
      '// cross-tenant: the webhook names only the provider id',
      'await db.select().from(payments).where(eq(payments.providerRef, ref));',
      'await db.delete(authThrottle).where(eq(authThrottle.key, key));',
      'const where = scope(resource, call);',
      'await db.select().from(resource.table).where(where);',
      'await db.select().from(resource.table).where(other);',
      'const cover = eventCoverQuery(db, tenant);',
      'await db.select().from(cover).where(eq(cover.childId, 1));',
      'await db.select().from(loose).where(eq(loose.childId, 1));',
    ].join('\n');
    expect(unscopedWheres('x.ts', code, new Set(['authThrottle']))).toEqual(['x.ts:1', 'x.ts:11', 'x.ts:14']);
  });

  it('every query in server code is scoped by the tenant helper or says why not', async () => {
    const installation = await tablesWithoutCompany();
    expect(installation).toContain('companies');
    expect(installation).not.toContain('bookings');
    const unscoped = filesUnder('.', (f) => f.endsWith('.ts') && !skipped.test(f)).flatMap((file) =>
      unscopedWheres(file, readFileSync(path.join(root, file), 'utf8'), installation),
    );
    expect(unscoped).toEqual([]);
  });
});
