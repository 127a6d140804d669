import { eq } from 'drizzle-orm';
import { integer, PgDialect, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { requireTenant, Tenant, TenantMissingError } from './tenancy.ts';

describe('Tenant', () => {
  it.each([0, -1, -42, Number.NaN, 1.5, Number.POSITIVE_INFINITY])('rejects the company id %s', (id) => {
    expect(() => new Tenant(id)).toThrow(TenantMissingError);
    expect(() => new Tenant(id)).toThrow('A tenant-scoped query ran without a tenant context.');
  });

  it('accepts a positive integer id', () => {
    expect(new Tenant(7).companyId).toBe(7);
  });

  it('stamps companyId onto insert values without dropping the others', () => {
    const values = new Tenant(7).values({ name: 'Main hall', capacity: 30 });
    expect(values).toEqual({ name: 'Main hall', capacity: 30, companyId: 7 });
  });

  it('overrides a companyId smuggled into the values with its own', () => {
    const smuggled = { name: 'Main hall', companyId: 99 };
    expect(new Tenant(7).values(smuggled).companyId).toBe(7);
  });
});

describe('Tenant.where', () => {
  const venues = pgTable('venues', {
    id: serial().primaryKey(),
    companyId: integer().notNull(),
    name: text(),
  });
  const dialect = new PgDialect({ casing: 'snake_case' });

  it('scopes by company_id and adds every given condition', () => {
    const query = dialect.sqlToQuery(new Tenant(7).where(venues, eq(venues.id, 12)));
    expect(query.sql).toBe('("venues"."company_id" = $1 and "venues"."id" = $2)');
    expect(query.params).toEqual([7, 12]);
  });

  it('scopes by company_id alone when no condition is given', () => {
    const query = dialect.sqlToQuery(new Tenant(7).where(venues));
    expect(query.sql).toBe('"venues"."company_id" = $1');
    expect(query.params).toEqual([7]);
  });

  it('byId scopes one row by company_id and id, plus any further condition', () => {
    const query = dialect.sqlToQuery(new Tenant(7).byId(venues, 12, eq(venues.name, 'Main hall')));
    expect(query.sql).toBe('("venues"."company_id" = $1 and "venues"."id" = $2 and "venues"."name" = $3)');
    expect(query.params).toEqual([7, 12, 'Main hall']);
  });
});

describe('requireTenant', () => {
  it.each([null, undefined])('throws TenantMissingError for %s', (missing) => {
    expect(() => requireTenant(missing)).toThrow(TenantMissingError);
  });

  it('returns the tenant it is given', () => {
    const tenant = new Tenant(3);
    expect(requireTenant(tenant)).toBe(tenant);
  });

  it('names the error so logs show what went wrong', () => {
    expect(new TenantMissingError().name).toBe('TenantMissingError');
  });
});
