import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { Tenant } from '../../platform/tenancy.ts';
import { navigationFor } from './accounts.navigation.ts';
import { linkState, ownCompany } from './accounts.service.ts';

describe('linkState (SPEC.md point 4: 0 invalid, 2 timed out, otherwise valid)', () => {
  const future = new Date(Date.now() + 60_000);
  const past = new Date(Date.now() - 1);
  it.each([
    ['unknown link', null, 0],
    ['used link', { expiresAt: future, usedAt: new Date() }, 0],
    ['used and expired link', { expiresAt: past, usedAt: new Date() }, 0],
    ['expired link', { expiresAt: past, usedAt: null }, 2],
    ['fresh link', { expiresAt: future, usedAt: null }, 1],
  ] as const)('%s → %i', (_label, link, expected) => {
    expect(linkState(link)).toBe(expected);
  });
});

describe('navigationFor', () => {
  it('shows Users and My Company only to administrators', () => {
    const paths = (role: Parameters<typeof navigationFor>[0]) => navigationFor(role).top.map((i) => i.path);
    expect(paths('companyadmin')).toEqual(['/admin/my-account', '/admin/my-company', '/admin/users']);
    expect(paths('companystaff')).toEqual(['/admin/my-account']);
    expect(paths('companycoach')).toEqual(['/admin/my-account']);
    expect(paths('student')).toEqual(['/admin/students/profile']);
  });
});

describe('ownCompany', () => {
  it("scopes the companies table to the tenant's own row", () => {
    const query = new PgDialect({ casing: 'snake_case' }).sqlToQuery(new Tenant(7).where(ownCompany));
    expect(query.sql).toBe('"companies"."id" = $1');
    expect(query.params).toEqual([7]);
  });
});
