import type { DashboardResponse } from '@tumble/contracts/dashboard';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_COACHES } from '../../seed/classes-demo.ts';
import { seedDemo } from '../../seed/demo.ts';
import { sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { users } from '../accounts/accounts.tables.ts';

/**
 * The dashboard on the demo company (seed/demo.ts): the admin sees the company's cards (fill rate,
 * cover), a coach only their own. How fast it answers is for the benchmark, not this test.
 */
describe('the dashboard on the demo data', () => {
  let t: TestContext;
  const dashboardOf = async (email: string): Promise<DashboardResponse> => {
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    const { headers } = await sessionFor(t.database.db, user!);
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/admin/dashboard', headers });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemo(t.database.db, t.config);
  });
  afterAll(() => t.close());

  it("answers the demo admin's and the demo coach's dashboard", async () => {
    const admin = await dashboardOf('admin@demo.test');
    const coach = await dashboardOf(DEMO_COACHES.casey.email);
    expect(admin.fill_rate).not.toBeNull();
    expect(admin.cover).not.toBeNull();
    expect(coach.cover).toBeNull();
  });
});
