import { errorResponse } from '@tumble/contracts/http';
import type { ImportMapping } from '@tumble/contracts/import';
import { and, count, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { users } from '../accounts/accounts.tables.ts';
import { classEnrolments, termClasses } from '../classes/classes.tables.ts';
import { children } from '../students/students.tables.ts';
import { importMappings, importRuns } from './import.tables.ts';
import { parseDob, presetMapping } from './mappings.ts';

type Headers = Record<string, string>;

/** A multipart body with the CSV and, when given, the mapping. */
function multipart(csv: string, mapping?: ImportMapping) {
  const boundary = '----import-test';
  const parts = [
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="families.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`,
  ];
  if (mapping)
    parts.unshift(
      `--${boundary}\r\nContent-Disposition: form-data; name="mapping"\r\n\r\n${JSON.stringify(mapping)}\r\n`,
    );
  return {
    payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const iclass: ImportMapping = {
  parent_first_name: 'Guardian First Name',
  parent_last_name: 'Guardian Last Name',
  email: 'Guardian Email',
  phone: 'Guardian Phone',
  child_first_name: 'Student First Name',
  child_last_name: 'Student Last Name',
  dob: 'Birth Date',
  medical_notes: 'Medical Notes',
  class_name: 'Class',
};
const header =
  'Guardian First Name,Guardian Last Name,Guardian Email,Guardian Phone,Student First Name,Student Last Name,Birth Date,Medical Notes,Class';
// A BOM, CRLF line ends and a quoted field with a comma, as spreadsheets export them.
const goodRows = [
  'Jo,Walker,jo@example.test,0400 000 001,Ava,Walker,03/04/2018,"Asthma, carries a puffer",Kinder Gym Tue',
  'Jo,Walker,jo@example.test,0400 000 001,Ben,Walker,2020-01-09,,',
  'Kim,Lee,existing@example.test,,Cleo,Lee,5/6/19,,Kinder Gym Tue',
];
const file = (rows: string[]) => `\uFEFF${[header, ...rows].join('\r\n')}\r\n`;

describe('importing families from a CSV', () => {
  let t: TestContext;
  let companyId: number;
  let staff: Headers;
  let foreignStaff: Headers;
  let existingParent: number;

  const post = (url: string, headers: Headers, csv: string, mapping?: ImportMapping) => {
    const body = multipart(csv, mapping);
    return t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };
  const counts = async () => {
    const { db } = t.database;
    const n = async (table: typeof users | typeof children | typeof classEnrolments | typeof mailOutbox) =>
      (await db.select({ n: count() }).from(table).where(eq(table.companyId, companyId)))[0]!.n;
    return {
      users: await n(users),
      children: await n(children),
      places: await n(classEnrolments),
      mails: await n(mailOutbox),
    };
  };
  const finished = async (id: number, headers: Headers) => {
    for (let i = 0; i < 200; i++) {
      const run = (
        await t.app.inject({ method: 'GET', url: `/api/v1/admin/import/runs/${id}`, headers })
      ).json();
      if (run.status !== 'running') return run;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import never finished');
  };

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    companyId = (await createCompany(db)).id;
    const foreign = await createCompany(db);
    staff = (await sessionFor(db, await createUser(db, companyId, { role: 'companystaff' }))).headers;
    foreignStaff = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companystaff' }))).headers;
    existingParent = (await createUser(db, companyId, { role: 'student', email: 'existing@example.test' }))
      .id;
    await createClassWithSessions(db, companyId, {
      coachId: null,
      dates: ['2030-02-05', '2030-02-12'],
      name: 'Kinder Gym Tue',
    });
    // The other company's class of the same name must not be found.
    await createClassWithSessions(db, foreign.id, {
      coachId: null,
      dates: ['2030-02-05'],
      name: 'Tiny Tumblers',
    });
  });
  afterAll(() => t.close());

  it('maps the iClassPro and Jackrabbit export columns by their presets', () => {
    expect(presetMapping('iclasspro', header.split(','))).toEqual(iclass);
    expect(
      presetMapping('jackrabbit', [
        'Family',
        'Contact Email',
        'Contact Phone',
        'First Name',
        'Last Name',
        'Birth Date',
        'Medical Info',
        'Classes',
      ]),
    ).toEqual({
      parent_full_name: 'Family',
      email: 'Contact Email',
      phone: 'Contact Phone',
      child_first_name: 'First Name',
      child_last_name: 'Last Name',
      dob: 'Birth Date',
      medical_notes: 'Medical Info',
      class_name: 'Classes',
    });
    expect(parseDob('31/02/2016', '2026-11-24')).toBeNull();
    expect(parseDob('5/6/19', '2026-11-24')).toBe('2019-06-05');
    expect(parseDob('5/6/95', '2026-11-24')).toBe('1995-06-05');
    expect(parseDob('2016-02-29', '2026-11-24')).toBe('2016-02-29');
  });

  it('answers the columns and the preset that fits the file', async () => {
    const res = await post('/api/v1/admin/import/columns', staff, file(goodRows));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 3, mapping: iclass, has_classes: true });
  });

  it('lists every bad row in a dry run, and the import of that file writes nothing', async () => {
    const bad = [
      ...goodRows,
      'Ann,Bell,ann@example.test,,Dan,Bell,31/02/2016,,',
      'Ann,Bell,,,Eve,Bell,01/02/2016,,',
      'Cat,Dunn,cat@example.test,,Fay,Dunn,01/02/2016,,Kinder Gym Wed',
      'Other,Person,jo@example.test,,Gus,Person,01/02/2016,,',
      'Zed,Foreign,zed@example.test,,Hal,Foreign,01/02/2016,,Tiny Tumblers',
    ];
    const before = await counts();
    const dry = await post('/api/v1/admin/import/dry-run', staff, file(bad), iclass);
    expect(dry.statusCode).toBe(200);
    expect(dry.json().problems).toEqual([
      'Row 5: the date of birth 31/02/2016 is not a date',
      'Row 6: no parent email',
      "Row 7: the class 'Kinder Gym Wed' does not exist",
      'Row 8: the email jo@example.test is also on row 2 for Jo Walker',
      "Row 9: the class 'Tiny Tumblers' does not exist",
    ]);
    const refused = await post('/api/v1/admin/import/runs', staff, file(bad), iclass);
    expect(refused.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses a class that the file would overfill, in the dry run and the import', async () => {
    await t.database.db.update(termClasses).set({ capacity: 1 }).where(eq(termClasses.companyId, companyId));
    try {
      const dry = (await post('/api/v1/admin/import/dry-run', staff, file(goodRows), iclass)).json();
      expect(dry.problems).toEqual(["Row 4: the class 'Kinder Gym Tue' is full"]);
      const before = await counts();
      expect((await post('/api/v1/admin/import/runs', staff, file(goodRows), iclass)).statusCode).toBe(400);
      expect(await counts()).toEqual(before);
    } finally {
      await t.database.db
        .update(termClasses)
        .set({ capacity: 10 })
        .where(eq(termClasses.companyId, companyId));
    }
  });

  it('imports the fixed file in one go: families invited once, children, places, an existing family extended', async () => {
    const dry = (await post('/api/v1/admin/import/dry-run', staff, file(goodRows), iclass)).json();
    expect(dry).toMatchObject({
      problems: [],
      actions: [
        'Rows 2, 3: new family Jo Walker (jo@example.test) with 2 children, 1 class place',
        'Row 4: adds 1 child to an existing family (existing@example.test), 1 class place',
      ],
      summary: { new_families: 1, existing_families: 1, children: 3, enrolments: 2 },
    });
    const before = await counts();
    expect(before).toEqual(await counts()); // the dry run wrote nothing
    const started = await post('/api/v1/admin/import/runs', staff, file(goodRows), iclass);
    expect(started.statusCode).toBe(200);
    const run = await finished(started.json().id, staff);
    expect(run).toMatchObject({
      status: 'done',
      total_rows: 3,
      done_rows: 3,
      families: 2,
      children: 3,
      enrolments: 2,
      invitations: 1,
    });
    const after = await counts();
    expect(after).toEqual({
      users: before.users + 1,
      children: before.children + 3,
      places: before.places + 2,
      mails: before.mails + 1,
    });
    const { db } = t.database;
    const [jo] = await db
      .select()
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.email, 'jo@example.test')));
    expect(jo).toMatchObject({
      role: 'student',
      status: 'pending',
      fullName: 'Jo Walker',
      phone: '0400 000 001',
    });
    const kids = await db.select().from(children).where(eq(children.parentId, jo!.id));
    expect(kids.map((k) => [k.firstName, k.dob, k.medicalNotes]).sort()).toEqual([
      ['Ava', '2018-04-03', 'Asthma, carries a puffer'],
      ['Ben', '2020-01-09', null],
    ]);
    const [cleo] = await db.select().from(children).where(eq(children.parentId, existingParent));
    expect(cleo).toMatchObject({ firstName: 'Cleo', dob: '2019-06-05' });
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.kind, 'family-invitation')));
    expect(mails.map((m) => m.toAddress)).toEqual(['jo@example.test']);
    const [saved] = await db.select().from(importMappings).where(eq(importMappings.companyId, companyId));
    expect(saved!.mapping).toEqual(iclass);
    // The next upload starts from the saved mapping.
    expect((await post('/api/v1/admin/import/columns', staff, file(goodRows))).json().mapping).toEqual(
      iclass,
    );
  });

  it("keeps companies apart: another company cannot read a run, nor find this company's families or classes", async () => {
    const [run] = await t.database.db.select().from(importRuns).where(eq(importRuns.companyId, companyId));
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/import/runs/${run!.id}`,
      headers: foreignStaff,
    });
    expect(res.statusCode).toBe(404);
    const dry = (
      await post('/api/v1/admin/import/dry-run', foreignStaff, file(goodRows.slice(2)), iclass)
    ).json();
    expect(dry.problems).toEqual(["Row 2: the class 'Kinder Gym Tue' does not exist"]);
    const latest = (
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/import/runs/latest', headers: foreignStaff })
    ).json();
    expect(latest).toEqual({ run: null });
  });

  it('two imports racing for the last place: one family gets it, the other import writes nothing', async () => {
    const { db } = t.database;
    await createClassWithSessions(db, companyId, {
      coachId: null,
      dates: ['2030-03-05'],
      name: 'Last Place Tue',
    });
    await db.update(termClasses).set({ capacity: 1 }).where(eq(termClasses.name, 'Last Place Tue'));
    const one = (who: string) =>
      file([`${who},Race,${who}@race.test,,${who}kid,Race,01/02/2019,,Last Place Tue`]);
    const [a, b] = await Promise.all([
      post('/api/v1/admin/import/runs', staff, one('amy'), iclass),
      post('/api/v1/admin/import/runs', staff, one('bob'), iclass),
    ]);
    const outcomes = [];
    for (const res of [a, b])
      outcomes.push(res.statusCode === 200 ? (await finished(res.json().id, staff)).status : res.statusCode);
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
    // The loser was either refused by its check (400) or rolled back whole under the class lock.
    expect(outcomes.filter((o) => o === 'failed' || o === 400)).toHaveLength(1);
    const families = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, companyId), inArray(users.email, ['amy@race.test', 'bob@race.test'])));
    expect(families).toHaveLength(1);
    const kids = await db.select().from(children).where(eq(children.lastName, 'Race'));
    expect(kids).toHaveLength(1);
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.companyId, companyId),
          inArray(mailOutbox.toAddress, ['amy@race.test', 'bob@race.test']),
        ),
      );
    expect(mails).toHaveLength(1);
  });

  it('never answers 5xx to a hostile file, and a check writes nothing', async () => {
    const cellText = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        '"',
        '""',
        '"a,b',
        '\uFEFF',
        '\r',
        '\n',
        '=cmd()',
        '31/02/2016',
        '0/0/00',
        '9999-99-99',
        'a@b',
        '',
      ),
    );
    const before = await counts();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cellText, { maxLength: 10 }), { maxLength: 6 }), async (rows) => {
        const body = [header, ...rows.map((r) => r.join(','))].join('\r\n');
        const res = await post('/api/v1/admin/import/dry-run', staff, body, iclass);
        expect(res.statusCode, body).toBeLessThan(500);
        if (res.statusCode >= 400) expect(errorResponse.safeParse(res.json()).success, body).toBe(true);
      }),
      { numRuns: 40, seed: 20261124 },
    );
    expect(await counts()).toEqual(before);
  });

  it('answers a missing file, a broken CSV and an unmapped file with a clear 400', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/import/dry-run',
      headers: staff,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const broken = await post('/api/v1/admin/import/dry-run', staff, 'a,b\n"unclosed,1\n', iclass);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/could not be read as CSV/);
    const unmapped = await post('/api/v1/admin/import/dry-run', staff, file(goodRows), {});
    expect(unmapped.statusCode).toBe(400);
    expect(unmapped.json().message).toBe('Please choose which columns hold the fields.');
  });
});
