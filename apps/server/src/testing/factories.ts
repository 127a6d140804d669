import type { Role } from '@tumble/contracts/auth';
import { TOKEN_HEADER } from '@tumble/contracts/http';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { authSessions, companies, users } from '../features/accounts/accounts.tables.ts';
import { hashPassword, randomToken, sha256 } from '../platform/secrets.ts';

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(++sequence).toString(36)}`;

export type CompanyRow = typeof companies.$inferSelect;
export type UserRow = typeof users.$inferSelect & { password: string };

/** A company with overrides; a random unguessable authhash unless given. */
export async function createCompany(db: Db, overrides: Partial<typeof companies.$inferInsert> = {}) {
  const [company] = await db
    .insert(companies)
    .values({ name: `Company ${next()}`, authhash: randomToken(24), ...overrides })
    .returning();
  return company!;
}

// Hashing is deliberately slow; tests reuse one hash per password.
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
};

/** An active user of `companyId`; the password is returned alongside the row. */
export async function createUser(
  db: Db,
  companyId: number,
  overrides: Partial<typeof users.$inferInsert> & { role?: Role; password?: string } = {},
): Promise<UserRow> {
  const { password = 'correct horse battery', ...rest } = overrides;
  const [user] = await db
    .insert(users)
    .values({
      companyId,
      role: 'companyadmin',
      email: `user-${next()}@example.test`,
      fullName: 'Test User',
      status: 'active',
      passwordHash: await hashOnce(password),
      ...rest,
    })
    .returning();
  return { ...user!, password };
}

/** Signs in through POST /rest and returns the bearer header to send. */
export async function signIn(
  app: FastifyInstance,
  user: { email: string; password: string },
  authhash?: string,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/rest',
    payload: { username: user.email, password: user.password, ...(authhash ? { authhash } : {}) },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const token = response.headers[TOKEN_HEADER] as string;
  return { token, headers: { authorization: `Bearer ${token}` } };
}

/** A signed-in session made directly in the database (fast, for tests that need many users). */
export async function sessionFor(db: Db, user: { id: number; companyId: number }) {
  const token = randomToken();
  await db.insert(authSessions).values({
    companyId: user.companyId,
    userId: user.id,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  return { token, headers: { authorization: `Bearer ${token}` } };
}
