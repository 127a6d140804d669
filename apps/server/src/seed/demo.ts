import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { companies, users } from '../features/accounts/accounts.tables.ts';
import { hashPassword } from '../platform/secrets.ts';
import { Tenant } from '../platform/tenancy.ts';

/**
 * The demo company, with fixed ids and the documented logins (README.md). Idempotent: a second
 * start finds the rows and changes nothing. Real companies get unguessable authhashes.
 */
export const DEMO = {
  companyId: 1,
  authhash: 'demo',
  admin: { email: 'admin@demo.test', password: 'demo-admin-1' },
  parent: { email: 'parent@demo.test', password: 'demo-parent-1' },
} as const;

export async function seedDemo(db: Db, config: Config): Promise<{ created: boolean; summary: string[] }> {
  const created = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(companies)
      .values({
        id: DEMO.companyId,
        name: 'Bounce Gymnastics Parramatta',
        authhash: DEMO.authhash,
        timeZone: 'Australia/Sydney',
        currency: 'AUD',
        paymentMethod: 'test',
        email: 'hello@bounce.demo.test',
        phone: '02 9635 0000',
      })
      .onConflictDoNothing()
      .returning({ id: companies.id });
    if (inserted.length === 0) return false;
    // Fixed ids above; move the sequence past them so real signups never collide.
    await tx.execute(
      sql`select setval(pg_get_serial_sequence('companies', 'id'), greatest(max(id), 1)) from companies`,
    );
    const tenant = new Tenant(DEMO.companyId);
    await tx.insert(users).values([
      tenant.values({
        role: 'companyadmin' as const,
        email: DEMO.admin.email,
        fullName: 'Alex Admin',
        phone: '0400 000 001',
        passwordHash: await hashPassword(DEMO.admin.password),
        status: 'active' as const,
      }),
      tenant.values({
        role: 'student' as const,
        email: DEMO.parent.email,
        fullName: 'Pat Parent',
        phone: '0400 000 002',
        passwordHash: await hashPassword(DEMO.parent.password),
        status: 'active' as const,
      }),
    ]);
    return true;
  });
  const url = config.publicUrl;
  return {
    created,
    summary: [
      created ? 'demo company created' : 'demo company already present',
      `staff sign-in:  ${url}/admin/login  ${DEMO.admin.email} / ${DEMO.admin.password}`,
      `parent sign-in: ${url}/admin/students/login?authhash=${DEMO.authhash}  ${DEMO.parent.email} / ${DEMO.parent.password}`,
      `API reference:  ${url}/api/docs`,
    ],
  };
}
