import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { authPlugin } from '../auth.ts';
import { AppError } from '../errors.ts';
import { collectionPath, defineResource, fillPath } from './define.ts';
import { resourceRoutes } from './engine.routes.ts';
import { field } from './fields.ts';

/**
 * Nesting two levels deep (term → class → lessons), as classes will need. The three resources
 * exist only in this test: their tables are made here, and a small app mounts just them beside
 * the real sign-in.
 */
const terms = pgTable('test_terms', {
  id: serial().primaryKey(),
  companyId: integer().notNull(),
  name: text().notNull(),
});
const classes = pgTable('test_classes', {
  id: serial().primaryKey(),
  companyId: integer().notNull(),
  termId: integer().notNull(),
  name: text().notNull(),
});
const lessons = pgTable('test_lessons', {
  id: serial().primaryKey(),
  companyId: integer().notNull(),
  classId: integer().notNull(),
  name: text().notNull(),
});
const common = {
  titleField: 'name',
  fields: { name: field.text('Name', { required: true }) },
  list: { columns: ['name'] },
  permissions: { read: 'catalog.read', write: 'catalog.write' },
} as const;
const termsResource = defineResource({
  ...common,
  name: 'test-terms',
  label: 'Terms',
  singular: 'Term',
  table: terms,
  fields: { ...common.fields },
  list: { columns: ['name'] },
});
const classesResource = defineResource({
  ...common,
  name: 'test-classes',
  label: 'Classes',
  singular: 'Class',
  table: classes,
  parent: { resource: 'test-terms', column: 'termId' },
  fields: { ...common.fields },
  list: { columns: ['name'] },
});
const lessonsResource = defineResource({
  ...common,
  name: 'test-lessons',
  label: 'Lessons',
  singular: 'Lesson',
  table: lessons,
  parent: { resource: 'test-classes', column: 'classId' },
  fields: { ...common.fields },
  list: { columns: ['name'] },
});

type Headers = Record<string, string>;

describe('resource engine: nesting two levels deep', () => {
  let t: TestContext;
  let app: FastifyInstance;
  let adminA: Headers;
  let adminB: Headers;
  let companyA: number;
  /** Company A: term 1 with class 1 (lesson 1); term 2 with class 2. */
  const ids = { term1: 0, term2: 0, class1: 0, class2: 0, lesson1: 0 };

  const lessonsPath = (termId: number, classId: number) =>
    fillPath(collectionPath(lessonsResource), [termId, classId]);

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    await db.execute(sql`
      create table test_terms (id serial primary key, company_id integer not null, name text not null);
      create table test_classes (id serial primary key, company_id integer not null, term_id integer not null, name text not null);
      create table test_lessons (id serial primary key, company_id integer not null, class_id integer not null, name text not null);
    `);
    companyA = (await createCompany(db)).id;
    const companyB = (await createCompany(db)).id;
    const password = 'a long enough password';
    adminA = (await signIn(t.app, await createUser(db, companyA, { role: 'companyadmin', password })))
      .headers;
    adminB = (await signIn(t.app, await createUser(db, companyB, { role: 'companyadmin', password })))
      .headers;

    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorate('deps', t.deps);
    app.setErrorHandler((error, _request, reply) =>
      error instanceof AppError
        ? reply.code(error.statusCode).send({ message: error.message })
        : reply.code(500).send({ message: String(error) }),
    );
    await app.register(authPlugin);
    await app.register(resourceRoutes([termsResource, classesResource, lessonsResource]));
    await app.ready();

    const create = async (url: string, name: string) => {
      const response = await app.inject({ method: 'POST', url, headers: adminA, payload: { name } });
      expect(response.json(), `${url}: ${response.body}`).toMatchObject({ valid: true });
      return response.json().redirect as string;
    };
    const newest = async (table: string) =>
      Number((await db.execute<{ id: number }>(sql.raw(`select max(id) as id from ${table}`))).rows[0]!.id);
    await create('/api/v1/admin/test-terms', 'Term 1');
    ids.term1 = await newest('test_terms');
    await create('/api/v1/admin/test-terms', 'Term 2');
    ids.term2 = await newest('test_terms');
    await create(`/api/v1/admin/test-terms/${ids.term1}/test-classes`, 'Class 1');
    ids.class1 = await newest('test_classes');
    await create(`/api/v1/admin/test-terms/${ids.term2}/test-classes`, 'Class 2');
    ids.class2 = await newest('test_classes');
    const redirect = await create(lessonsPath(ids.term1, ids.class1), 'Lesson 1');
    ids.lesson1 = await newest('test_lessons');
    // The saved form goes back to the nested list, every ancestor in its path.
    expect(redirect).toBe(`/admin/test-terms/${ids.term1}/test-classes/${ids.class1}/test-lessons`);
  });
  afterAll(async () => {
    await app?.close();
    await t.close();
  });

  it('derives the route of every level from the parent chain', () => {
    expect(collectionPath(lessonsResource)).toBe(
      '/api/v1/admin/test-terms/:ancestor1Id/test-classes/:parentId/test-lessons',
    );
    expect(app.routeAccess.some((r) => r.url === `${collectionPath(lessonsResource)}/:id`)).toBe(true);
  });

  it('lists, shows and edits a lesson under its own class and term', async () => {
    const base = lessonsPath(ids.term1, ids.class1);
    const list = await app.inject({ method: 'GET', url: base, headers: adminA });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toEqual([{ id: ids.lesson1, name: 'Lesson 1', _labels: {} }]);
    const view = await app.inject({ method: 'GET', url: `${base}/${ids.lesson1}`, headers: adminA });
    expect(view.json()).toMatchObject({ id: ids.lesson1, name: 'Lesson 1' });
    const edit = await app.inject({
      method: 'POST',
      url: `${base}/${ids.lesson1}`,
      headers: adminA,
      payload: { name: 'Lesson one' },
    });
    expect(edit.json()).toMatchObject({ valid: true });
  });

  it('answers 404 when a class is named under a term that is not its own, and changes nothing', async () => {
    // Class 1 is term 1's: under term 2 (also company A's) it does not exist.
    const base = lessonsPath(ids.term2, ids.class1);
    const before = await t.database.db.select().from(lessons);
    for (const call of [
      { method: 'GET', url: base },
      { method: 'GET', url: `${base}/add` },
      { method: 'GET', url: `${base}/options` },
      { method: 'GET', url: `${base}/${ids.lesson1}` },
      { method: 'GET', url: `${base}/${ids.lesson1}/edit` },
      { method: 'POST', url: base, payload: { name: 'Sneaked in' } },
      { method: 'POST', url: `${base}/${ids.lesson1}`, payload: { name: 'Renamed' } },
      { method: 'POST', url: `${base}/dispatch/delete`, payload: { ids: [ids.lesson1] } },
      { method: 'DELETE', url: `${base}/${ids.lesson1}` },
    ] as const) {
      const response = await app.inject({ ...call, headers: adminA });
      expect(response.statusCode, `${call.method} ${call.url}: ${response.body}`).toBe(404);
    }
    expect(await t.database.db.select().from(lessons)).toEqual(before);
  });

  it("answers 404 to another company for every level of company A's chain", async () => {
    const before = await t.database.db.select().from(lessons);
    for (const url of [
      `/api/v1/admin/test-terms/${ids.term1}`,
      `/api/v1/admin/test-terms/${ids.term1}/test-classes`,
      `/api/v1/admin/test-terms/${ids.term1}/test-classes/${ids.class1}`,
      lessonsPath(ids.term1, ids.class1),
      `${lessonsPath(ids.term1, ids.class1)}/${ids.lesson1}`,
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: adminB });
      expect(response.statusCode, url).toBe(404);
    }
    const post = await app.inject({
      method: 'POST',
      url: lessonsPath(ids.term1, ids.class1),
      headers: adminB,
      payload: { name: 'Foreign' },
    });
    expect(post.statusCode).toBe(404);
    expect(await t.database.db.select().from(lessons)).toEqual(before);
  });

  it('lists a class’s nested resources in its meta, so the SPA shows their tabs', async () => {
    const meta = await app.inject({
      method: 'GET',
      url: `/api/v1/admin/test-terms/${ids.term1}/test-classes/meta`,
      headers: adminA,
    });
    expect(meta.json()).toMatchObject({
      parent: 'test-terms',
      children: [{ name: 'test-lessons', label: 'Lessons' }],
    });
  });
});
