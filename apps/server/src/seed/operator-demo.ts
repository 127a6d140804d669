import type { Db } from '../db/client.ts';
import { companies, users } from '../features/accounts/accounts.tables.ts';
import { installationCompany } from '../features/accounts/companies.service.ts';
import { hashPassword } from '../platform/secrets.ts';
import { Tenant } from '../platform/tenancy.ts';

/** The demo's installation operator (decision 018): signs in at /admin/login and sees Customers. */
export const DEMO_OPERATOR = { email: 'operator@demo.test', password: 'demo-operator-1' } as const;

/**
 * The installation's own company with one operator, and a company that signed up and waits for
 * approval, so Customers shows each status. Once: rows already there are left as they are.
 */
export async function seedOperatorDemo(db: Db): Promise<void> {
  const home = new Tenant((await installationCompany(db)).id);
  await db
    .insert(users)
    .values(
      home.values({
        role: 'operator' as const,
        email: DEMO_OPERATOR.email,
        fullName: 'Olive Operator',
        passwordHash: await hashPassword(DEMO_OPERATOR.password),
        status: 'active' as const,
      }),
    )
    .onConflictDoNothing();
  const [waiting] = await db
    .insert(companies)
    .values({
      name: 'Cartwheel Kids (demo sign-up)',
      authhash: 'demo-pending',
      email: 'owner@cartwheel.test',
      status: 'pending',
    })
    .onConflictDoNothing()
    .returning({ id: companies.id });
  if (!waiting) return;
  await db.insert(users).values(
    new Tenant(waiting.id).values({
      role: 'companyadmin' as const,
      email: 'owner@cartwheel.test',
      fullName: 'Cara Cartwheel',
      passwordHash: await hashPassword('demo-cartwheel-1'),
      status: 'active' as const,
    }),
  );
}
