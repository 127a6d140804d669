import {
  companyDataMessages,
  type EraseFamilyRequest,
  type EraseFamilyResponse,
  eraseConfirmationWord,
} from '@tumble/contracts/company-data';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { withdrawMailTo, withdrawnForErasure } from '../../platform/mail/mail.service.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { eraseParentAccount, lockFamily } from '../accounts/erase-family.service.ts';
import { openInvoicesOf } from '../billing/ledger.service.ts';
import { upcomingBookingCount } from '../bookings/erasure-reads.service.ts';
import { childClassPlaces } from '../classes/child-classes.service.ts';
import { setMarketingConsent } from '../communications/consent.service.ts';
import { eraseFamilyContacts } from '../crm/erase-contact.service.ts';
import { upcomingPartyCount } from '../parties/erasure-reads.service.ts';
import { eraseChildren } from '../students/erase-children.service.ts';
import { eraseSignatures } from '../waivers/erase-signatures.service.ts';

/**
 * Erasing a family on request (issue 18, a company's data). The family's personal details become
 * placeholders ("Erased family 123"); its rows stay, so invoices, payments, refunds and credit notes
 * keep their amounts, numbers and dates (the ATO asks for five years) and bookings keep their counts.
 * Refused while the family owes money or has something still to come.
 *
 * Each feature erases its own columns (the *erase* services it owns); then, as a net for details
 * copied into other rows (an invoice's buyer name, a party booking's parent name, a booking form's
 * answers), every text and JSON column of the rows that point at the parent or a child (foreign
 * keys read from the catalogue, so a table added later is covered) has the old values replaced, and
 * the mail outbox and audit log lose them too.
 */
export async function eraseFamily(
  deps: AppDeps,
  auth: AuthContext,
  parentId: number,
  request: EraseFamilyRequest,
): Promise<EraseFamilyResponse> {
  if (request.confirmation.trim() !== eraseConfirmationWord)
    throw new BadRequestError(companyDataMessages.confirmation);
  const { tenant } = auth;
  const placeholder = `Erased family ${parentId}`;
  await deps.database.db.transaction(async (tx) => {
    const family = await lockFamily(tx, tenant, parentId);
    if (!family) throw new NotFoundError();
    if (family.erased) throw new ConflictError(companyDataMessages.erased);
    const today = todayIn((await companyOf(tx, tenant)).timeZone);
    if ((await openInvoicesOf(tx, tenant, parentId)).length > 0)
      throw new ConflictError(companyDataMessages.balance);
    const upcoming =
      (await upcomingBookingCount(tx, tenant, parentId, today)) +
      (await upcomingPartyCount(tx, tenant, parentId, today));
    if (upcoming > 0) throw new ConflictError(companyDataMessages.upcoming);

    const kids = await eraseChildren(tx, tenant, parentId);
    for (const child of kids) {
      // Thrown inside the transaction: the children's erasure above is rolled back with it.
      if ((await childClassPlaces(tx, tenant, child.id, today)).length > 0) {
        throw new ConflictError(companyDataMessages.upcoming);
      }
    }
    const childIds = kids.map((c) => c.id);
    await eraseParentAccount(tx, tenant, parentId, placeholder);
    await eraseSignatures(tx, tenant, parentId, childIds, placeholder);
    await eraseFamilyContacts(tx, tenant, parentId, placeholder);
    await setMarketingConsent(tx, tenant, parentId, false, 'staff');
    // Mail still waiting for the family is not sent: they asked to be forgotten, and once swept
    // below its address is a placeholder no mail server takes.
    await withdrawMailTo(tx, tenant, family.email, withdrawnForErasure);

    const oldValues = [family.fullName, family.email, family.phone ?? '', ...kids.flatMap((c) => c.names)];
    await sweepLinkedRows(tx, tenant, { users: [parentId], children: childIds }, oldValues, placeholder);
    // Rows addressed to the family's email (its mail, its child as another family's party guest)
    // are about the family: every old value goes there too.
    await sweepAddressedRows(tx, tenant, family.email, oldValues, placeholder);
    // Other mail and the audit log name people by text only: there the whole name, email and phone are searched for.
    await sweepTables(
      tx,
      tenant,
      ['mail_outbox', 'audit_log'],
      [family.fullName, family.email, family.phone ?? '', ...kids.map((c) => c.names[0]!)],
      placeholder,
    );
    // Who and why; never what was erased.
    await recordAudit(tx, auth, {
      action: 'erase',
      entity: 'users',
      entityId: parentId,
      after: { reason: request.reason },
    });
  });
  return { name: placeholder };
}

/** Tables whose rows the owning feature's erase service handled column by column. */
const ERASED_BY_OWNER = new Set(['users', 'children', 'signed_waivers']);

/** A case-insensitive pattern matching any of the values as a whole word (PostgreSQL ARE). */
function wordsPattern(values: string[]): string | null {
  const words = [...new Set(values.map((v) => v.trim()).filter((v) => v.length >= 2))].sort(
    (a, b) => b.length - a.length,
  );
  if (words.length === 0) return null;
  const escaped = words.map((w) => w.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'));
  return `(?<![[:alnum:]])(?:${escaped.join('|')})(?![[:alnum:]])`;
}

interface TextColumn {
  table: string;
  column: string;
  json: boolean;
}

/** The text and JSON columns of the given tables (or of all company tables), from the catalogue. */
async function textColumns(tx: Db, tables: string[]): Promise<TextColumn[]> {
  const { rows } = await tx.execute<{ table_name: string; column_name: string; data_type: string }>(sql`
    select table_name, column_name, data_type from information_schema.columns
     where table_schema = current_schema() and data_type in ('text', 'character varying', 'json', 'jsonb')
       and table_name in (${sql.join(
         tables.map((t) => sql`${t}`),
         sql`, `,
       )})`);
  return rows.map((r) => ({
    table: r.table_name,
    column: r.column_name,
    json: r.data_type.startsWith('json'),
  }));
}

/** Replaces the pattern in one column of the rows `where` picks (a company's rows, always). */
async function replaceIn(
  tx: Db,
  tenant: Tenant,
  target: TextColumn,
  pattern: string,
  placeholder: string,
  where = sql``,
) {
  const table = sql.identifier(target.table);
  const column = sql.identifier(target.column);
  const asText = target.json ? sql`${column}::text` : column;
  const replaced = sql`regexp_replace(${asText}, ${pattern}, ${placeholder}, 'gi')`;
  await tx.execute(sql`
    update ${table} set ${column} = ${target.json ? sql`${replaced}::jsonb` : replaced}
     where company_id = ${tenant.companyId} and ${asText} ~* ${pattern} ${where}`);
}

/** In every row that references one of these parents or children, the old values become the placeholder. */
async function sweepLinkedRows(
  tx: Db,
  tenant: Tenant,
  ids: { users: number[]; children: number[] },
  oldValues: string[],
  placeholder: string,
) {
  const pattern = wordsPattern(oldValues);
  if (!pattern) return;
  const { rows: links } = await tx.execute<{
    table_name: string;
    column_name: string;
    target: 'users' | 'children';
  }>(sql`
    select kcu.table_name, kcu.column_name, ccu.table_name as target
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      join information_schema.constraint_column_usage ccu
        on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      join information_schema.columns scoped
        on scoped.table_schema = tc.table_schema and scoped.table_name = kcu.table_name and scoped.column_name = 'company_id'
     where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()
       and ccu.table_name in ('users', 'children') and ccu.column_name = 'id'`);
  // Their own services erased these (a signed waiver's evidence columns may not change at all).
  const tables = [...new Set(links.map((l) => l.table_name))].filter((t) => !ERASED_BY_OWNER.has(t));
  if (tables.length === 0) return;
  const columns = await textColumns(tx, tables);
  for (const link of links.filter((l) => tables.includes(l.table_name))) {
    const linked = ids[link.target];
    if (linked.length === 0) continue;
    const where = sql`and ${sql.identifier(link.column_name)} in (${sql.join(
      linked.map((id) => sql`${id}`),
      sql`, `,
    )})`;
    for (const column of columns.filter((c) => c.table === link.table_name)) {
      await replaceIn(tx, tenant, column, pattern, placeholder, where);
    }
  }
}

/**
 * Rows whose email column (any text column named like `email` or `to_address`, from the catalogue)
 * holds the family's address: every text column of those rows loses the old values, the address
 * column last (it picks the rows).
 */
async function sweepAddressedRows(
  tx: Db,
  tenant: Tenant,
  email: string,
  oldValues: string[],
  placeholder: string,
) {
  const pattern = wordsPattern(oldValues);
  if (!pattern) return;
  const { rows: tables } = await tx.execute<{ table_name: string }>(sql`
    select distinct c.table_name from information_schema.columns c
      join information_schema.columns scoped
        on scoped.table_schema = c.table_schema and scoped.table_name = c.table_name and scoped.column_name = 'company_id'
     where c.table_schema = current_schema() and c.data_type = 'text'
       and (c.column_name like '%email%' or c.column_name = 'to_address')`);
  const names = tables.map((t) => t.table_name).filter((t) => !ERASED_BY_OWNER.has(t));
  if (names.length === 0) return;
  const columns = await textColumns(tx, names);
  const isAddress = (c: TextColumn) => !c.json && (c.column.includes('email') || c.column === 'to_address');
  for (const name of names) {
    const own = columns.filter((c) => c.table === name);
    for (const address of own.filter(isAddress)) {
      const picks = sql`and lower(${sql.identifier(address.column)}) = ${email.toLowerCase()}`;
      // Every other column first: once the address is replaced the rows can no longer be found.
      for (const column of [...own.filter((c) => c !== address), address]) {
        await replaceIn(tx, tenant, column, pattern, placeholder, picks);
      }
    }
  }
}

/** In every text column of these tables, the company's rows lose the old values. */
async function sweepTables(
  tx: Db,
  tenant: Tenant,
  tables: string[],
  oldValues: string[],
  placeholder: string,
) {
  const pattern = wordsPattern(oldValues);
  if (!pattern) return;
  for (const column of await textColumns(tx, tables))
    await replaceIn(tx, tenant, column, pattern, placeholder);
}
