import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { ancestorsOf, collectionPath, defineResource, fillPath } from './define.ts';
import { field } from './fields.ts';

const plain = pgTable('unit_things', { id: serial().primaryKey(), name: text().notNull() });
const parents = pgTable('unit_parents', {
  id: serial().primaryKey(),
  companyId: integer().notNull(),
  name: text().notNull(),
});
const owned = pgTable('unit_owned', {
  id: serial().primaryKey(),
  companyId: integer().notNull(),
  thingId: integer().notNull(),
  name: text().notNull(),
});
const base = {
  titleField: 'name',
  fields: { name: field.text('Name') },
  list: { columns: ['name'] },
};

describe('defineResource', () => {
  it('refuses an installation resource that a company permission could reach', () => {
    expect(() =>
      defineResource({
        ...base,
        name: 'unit-installation-open',
        label: 'Open',
        singular: 'Open',
        table: plain,
        scope: 'installation',
        permissions: { read: 'catalog.read', write: 'installation.operate' },
      }),
    ).toThrow('an installation resource needs installation.* permissions');
  });

  it('refuses a company resource without company_id', () => {
    expect(() =>
      defineResource({
        ...base,
        name: 'unit-no-company',
        label: 'No company',
        singular: 'No company',
        table: plain,
        permissions: { read: 'catalog.read', write: 'catalog.write' },
      }),
    ).toThrow("tenancy has no column 'companyId'");
  });

  it('names each ancestor id in a nested path, outermost first', () => {
    const things = defineResource({
      ...base,
      name: 'unit-things',
      label: 'Things',
      singular: 'Thing',
      table: parents,
      permissions: { read: 'catalog.read', write: 'catalog.write' },
    });
    const parts = defineResource({
      ...base,
      name: 'unit-parts',
      label: 'Parts',
      singular: 'Part',
      table: owned,
      parent: { resource: 'unit-things', column: 'thingId' },
      permissions: { read: 'catalog.read', write: 'catalog.write' },
    });
    expect(ancestorsOf(parts)).toEqual([things]);
    expect(collectionPath(parts)).toBe('/api/v1/admin/unit-things/:parentId/unit-parts');
    expect(fillPath(collectionPath(parts), [4])).toBe('/api/v1/admin/unit-things/4/unit-parts');
  });
});
