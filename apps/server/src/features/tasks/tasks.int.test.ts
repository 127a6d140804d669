import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { myOpenTasks, tasksOf } from './tasks.service.ts';
import { taskListItems, taskLists, tasks } from './tasks.tables.ts';

type Headers = Record<string, string>;

/**
 * A zone whose date differs from UTC's right now (UTC−11 before 11:00 UTC, UTC+14 after 10:00),
 * so due dates computed from the server's UTC date would be a day out.
 */
const zone = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';

describe('tasks and task lists', () => {
  let t: TestContext;
  let companyId: number;
  let staffId: number;
  let staff: Headers;
  let foreignAdmin: Headers;
  let parentId: number;
  let parent: Headers;
  let otherParent: Headers;
  let listId: number;
  let foreignTask: number;

  const post = (url: string, headers: Headers, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
  const apply = (headers: Headers, id: number, family: number) =>
    post('/api/v1/admin/task-lists/dispatch/apply', headers, { ids: [id], values: { parent_id: family } });
  const tasksOfCompany = () => t.database.db.select().from(tasks).where(eq(tasks.companyId, companyId));

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    companyId = (await createCompany(db, { timeZone: zone })).id;
    const foreign = await createCompany(db);
    const staffUser = await createUser(db, companyId, { role: 'companystaff', fullName: 'Sam Staff' });
    staffId = staffUser.id;
    staff = (await sessionFor(db, staffUser)).headers;
    const foreignUser = await createUser(db, foreign.id, { role: 'companyadmin' });
    foreignAdmin = (await sessionFor(db, foreignUser)).headers;
    const family = await createUser(db, companyId, { role: 'student', fullName: 'Jo Walker' });
    parentId = family.id;
    parent = (await sessionFor(db, family)).headers;
    otherParent = (await sessionFor(db, await createUser(db, companyId, { role: 'student' }))).headers;
    const [list] = await db.insert(taskLists).values({ companyId, name: 'New family' }).returning();
    listId = list!.id;
    await db.insert(taskListItems).values([
      { companyId, taskListId: listId, title: 'Call the family', dueDays: 0, position: 1 },
      { companyId, taskListId: listId, title: 'Send the welcome pack', dueDays: 2, position: 2 },
      {
        companyId,
        taskListId: listId,
        title: 'Upload the anaphylaxis plan',
        dueDays: 7,
        assigneeRole: 'family',
        position: 3,
      },
    ]);
    const [theirs] = await db
      .insert(tasks)
      .values({ companyId: foreign.id, title: 'Theirs', assigneeId: foreignUser.id })
      .returning();
    foreignTask = theirs!.id;
  });

  afterAll(() => t.close());

  it('a task list creates its tasks for one family once per action, due from today in the company’s zone', async () => {
    const answer = await apply(staff, listId, parentId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ success: true, message: '3 tasks created for Jo Walker.' });
    const today = todayIn(zone);
    expect(today).not.toBe(new Date().toISOString().slice(0, 10));
    const created = await tasksOfCompany();
    expect(
      created
        .sort((a, b) => a.id - b.id)
        .map((r) => [r.title, r.dueDate, r.assigneeRole, r.parentId, r.taskListId, r.status]),
    ).toEqual([
      ['Call the family', today, 'companystaff', parentId, listId, 'open'],
      ['Send the welcome pack', addDays(today, 2), 'companystaff', parentId, listId, 'open'],
      ['Upload the anaphylaxis plan', addDays(today, 7), 'family', parentId, listId, 'open'],
    ]);
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'task_lists'), eq(auditLog.action, 'apply-task-list')));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.after).toMatchObject({ parentId, taskIds: created.map((r) => r.id) });
  });

  it('refuses another company’s list or family and creates nothing', async () => {
    const before = (await tasksOfCompany()).length;
    expect((await apply(foreignAdmin, listId, parentId)).statusCode).toBe(404);
    expect((await apply(staff, listId, staffId)).statusCode).not.toBe(200);
    expect((await tasksOfCompany()).length).toBe(before);
  });

  it('the parent sees and completes only their own family’s tasks', async () => {
    const mine = (await get('/api/v1/students/tasks', parent)).json().tasks as {
      id: number;
      title: string;
    }[];
    expect(mine.map((x) => x.title)).toEqual(['Upload the anaphylaxis plan']);
    expect((await get('/api/v1/students/tasks', otherParent)).json().tasks).toEqual([]);
    const staffTask = (await tasksOfCompany()).find((r) => r.title === 'Call the family')!;
    // Another family's task, a staff task about the family, another company's: not found.
    expect((await post(`/api/v1/students/tasks/${mine[0]!.id}/done`, otherParent)).statusCode).toBe(404);
    expect((await post(`/api/v1/students/tasks/${staffTask.id}/done`, parent)).statusCode).toBe(404);
    expect((await post(`/api/v1/students/tasks/${foreignTask}/done`, parent)).statusCode).toBe(404);
    expect((await tasksOfCompany()).every((r) => r.status === 'open')).toBe(true);

    expect((await post(`/api/v1/students/tasks/${mine[0]!.id}/done`, parent)).statusCode).toBe(204);
    const done = (await get('/api/v1/students/tasks', parent)).json().tasks;
    expect(done).toMatchObject([{ title: 'Upload the anaphylaxis plan', status: 'done' }]);
    // Staff endpoints are not the parent's.
    expect((await get('/api/v1/admin/tasks', parent)).statusCode).toBe(403);
  });

  it('staff add a task, see it under mine, all and overdue, and mark it done; foreign ids answer 404', async () => {
    const bad = await post('/api/v1/admin/tasks', staff, { title: ' ', assignee: 'family' });
    expect(bad.json().valid).toBe(false);
    expect(JSON.stringify(bad.json())).toContain('Enter a title.');
    expect(JSON.stringify(bad.json())).toContain('Choose the family the task is for.');
    const badDate = await post('/api/v1/admin/tasks', staff, {
      title: 'X',
      assignee: 'companystaff',
      due_date: '2026-02-30',
    });
    expect(JSON.stringify(badDate.json())).toContain('Enter a real date.');

    const yesterday = addDays(todayIn(zone), -1);
    const added = await post('/api/v1/admin/tasks', staff, {
      title: 'Chase the medical plan',
      assignee: String(staffId),
      due_date: yesterday,
      parent_id: parentId,
    });
    expect(added.json()).toMatchObject({ valid: true });
    // Another company's user or family.
    expect(
      (await post('/api/v1/admin/tasks', foreignAdmin, { title: 'X', assignee: String(staffId) })).statusCode,
    ).toBe(404);
    expect(
      (
        await post('/api/v1/admin/tasks', foreignAdmin, {
          title: 'X',
          assignee: 'family',
          parent_id: parentId,
        })
      ).statusCode,
    ).toBe(404);

    const list = async (filter: string) =>
      ((await get(`/api/v1/admin/tasks?filter=${filter}`, staff)).json().tasks as { title: string }[]).map(
        (x) => x.title,
      );
    // Mine: named for me, and the tasks for every staff member.
    expect(await list('mine')).toEqual([
      'Chase the medical plan',
      'Call the family',
      'Send the welcome pack',
    ]);
    expect(await list('overdue')).toEqual(['Chase the medical plan']);
    expect((await list('all')).length).toBe(4);
    expect(
      (await get('/api/v1/admin/tasks', foreignAdmin)).json().tasks.map((x: { title: string }) => x.title),
    ).toEqual(['Theirs']);

    const tenant = new Tenant(companyId);
    const open = await myOpenTasks(t.database.db, tenant, staffId);
    expect(open.map((x) => [x.title, x.overdue])).toEqual([
      ['Chase the medical plan', true],
      ['Call the family', false],
      ['Send the welcome pack', false],
    ]);
    expect((await tasksOf(t.database.db, tenant, { parentId })).length).toBe(4);
    expect((await tasksOf(t.database.db, tenant, { assigneeId: staffId })).map((x) => x.about)).toEqual([
      'The Walker family',
    ]);

    const chase = open[0]!.id;
    expect((await post(`/api/v1/admin/tasks/${chase}/done`, foreignAdmin)).statusCode).toBe(404);
    expect((await post(`/api/v1/admin/tasks/${foreignTask}/done`, staff)).statusCode).toBe(404);
    expect((await post(`/api/v1/admin/tasks/${chase}/done`, staff)).statusCode).toBe(204);
    expect(await list('overdue')).toEqual([]);
    expect((await myOpenTasks(t.database.db, tenant, staffId)).length).toBe(2);
  });
});
