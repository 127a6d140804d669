import type { FormResponse } from '@tumble/contracts/http';
import type { Task, TaskFilter, TaskOptionsResponse } from '@tumble/contracts/tasks';
import { and, asc, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { familyChoices, staffChoices, usersWithRoles } from '../accounts/people.service.ts';
import { classNames } from '../classes/class-names.service.ts';
import { childNames } from '../students/children.service.ts';
import { taskListItems, taskLists, tasks } from './tasks.tables.ts';

type TaskRow = typeof tasks.$inferSelect;
type Role = (typeof tasks.$inferSelect)['assigneeRole'];

const ROLE_WORDS: Record<NonNullable<Role>, string> = {
  companyadmin: 'Admins',
  companystaff: 'Staff',
  companycoach: 'Coaches',
  family: 'The family',
};

async function companyToday(db: Db, tenant: Tenant) {
  return todayIn((await companyOf(db, tenant)).timeZone);
}

/** Rows as the screens show them: who it is for and what it is about, in words. */
async function describe(db: Db, tenant: Tenant, rows: TaskRow[], today: string): Promise<Task[]> {
  const [kids, people, classes] = await Promise.all([
    childNames(
      db,
      tenant,
      rows.flatMap((r) => (r.childId ? [r.childId] : [])),
    ),
    usersWithRoles(
      db,
      tenant,
      rows.flatMap((r) => [r.assigneeId, r.parentId].filter((id): id is number => id !== null)),
    ),
    classNames(
      db,
      tenant,
      rows.flatMap((r) => (r.termClassId ? [r.termClassId] : [])),
    ),
  ]);
  const family = (id: number) => `The ${people.get(id)?.fullName.split(' ').at(-1) ?? ''} family`;
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    notes: r.notes,
    due_date: r.dueDate,
    status: r.status,
    overdue: r.status === 'open' && r.dueDate !== null && r.dueDate < today,
    assignee: r.assigneeId ? (people.get(r.assigneeId)?.fullName ?? '') : ROLE_WORDS[r.assigneeRole!],
    for_family: r.assigneeRole === 'family',
    about: r.childId
      ? (kids.get(r.childId) ?? null)
      : r.parentId
        ? family(r.parentId)
        : r.termClassId
          ? (classes.get(r.termClassId) ?? null)
          : r.bookingId
            ? `Booking #${r.bookingId}`
            : null,
    done_at: r.doneAt?.toISOString() ?? null,
  }));
}

const order = [sql`${tasks.status} = 'done'`, sql`${tasks.dueDate} asc nulls last`, asc(tasks.id)] as const;

/** Tasks about a child, a family, or for one staff user (the student screen, the dashboard). */
export async function tasksOf(
  db: Db,
  tenant: Tenant,
  of: { childId?: number; parentId?: number; assigneeId?: number },
): Promise<Task[]> {
  const rows = await db
    .select()
    .from(tasks)
    .where(
      tenant.where(
        tasks,
        of.childId ? eq(tasks.childId, of.childId) : undefined,
        of.parentId ? eq(tasks.parentId, of.parentId) : undefined,
        of.assigneeId ? eq(tasks.assigneeId, of.assigneeId) : undefined,
      ),
    )
    .orderBy(...order);
  return describe(db, tenant, rows, await companyToday(db, tenant));
}

/** Open tasks for this staff user: named for them, or for everyone of their role. */
function mineWhere(userId: number, role: string): SQL {
  return or(
    eq(tasks.assigneeId, userId),
    and(isNull(tasks.assigneeId), eq(tasks.assigneeRole, role as NonNullable<Role>)),
  )!;
}

/** "My tasks" on the dashboard: open, soonest due first. */
export async function myOpenTasks(db: Db, tenant: Tenant, userId: number): Promise<Task[]> {
  const role = (await usersWithRoles(db, tenant, [userId])).get(userId)?.role;
  if (!role || role === 'student') return [];
  const rows = await db
    .select()
    .from(tasks)
    .where(tenant.where(tasks, eq(tasks.status, 'open'), mineWhere(userId, role)))
    .orderBy(...order);
  return describe(db, tenant, rows, await companyToday(db, tenant));
}

/** /admin/tasks: mine (open and done), all, or overdue (open, due before today). */
export async function listTasks(db: Db, auth: AuthContext, filter: TaskFilter) {
  const today = await companyToday(db, auth.tenant);
  const where =
    filter === 'mine'
      ? mineWhere(auth.userId, auth.role)
      : filter === 'overdue'
        ? and(eq(tasks.status, 'open'), lt(tasks.dueDate, today))
        : undefined;
  const rows = await db
    .select()
    .from(tasks)
    .where(auth.tenant.where(tasks, where))
    .orderBy(...order)
    .limit(500);
  return { today, tasks: await describe(db, auth.tenant, rows, today) };
}

export async function taskOptions(db: Db, tenant: Tenant): Promise<TaskOptionsResponse> {
  const [staff, families] = await Promise.all([staffChoices(db, tenant), familyChoices(db, tenant)]);
  return {
    assignees: [
      ...staff.map((s) => ({ value: String(s.id), label: s.fullName })),
      { value: 'companystaff', label: 'Any staff member' },
      { value: 'companyadmin', label: 'Any admin' },
      { value: 'companycoach', label: 'Any coach' },
      { value: 'family', label: 'The family' },
    ],
    families: families.map((f) => ({ value: String(f.id), label: `${f.fullName} · ${f.email}` })),
  };
}

/** A new task from /admin/tasks. Another company's user or family: 404. */
export async function createTask(
  db: Db,
  auth: AuthContext,
  input: {
    title: string;
    notes?: string | null;
    due_date?: string | null;
    assignee: string;
    parent_id?: number | null;
  },
): Promise<FormResponse> {
  const person = /^\d+$/.test(input.assignee) ? Number(input.assignee) : null;
  const people = await usersWithRoles(
    db,
    auth.tenant,
    [person, input.parent_id ?? null].filter((id): id is number => id !== null),
  );
  if (person !== null && (people.get(person)?.role ?? 'student') === 'student') {
    throw new NotFoundError('User not found.');
  }
  if (input.parent_id && people.get(input.parent_id)?.role !== 'student') {
    throw new NotFoundError('Family not found.');
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tasks)
      .values(
        auth.tenant.values({
          title: input.title,
          notes: input.notes || null,
          dueDate: input.due_date || null,
          assigneeId: person,
          assigneeRole: person === null ? (input.assignee as NonNullable<Role>) : null,
          parentId: input.parent_id ?? null,
          createdById: auth.userId,
        }),
      )
      .returning();
    await recordAudit(tx, auth, { action: 'create', entity: 'tasks', entityId: row!.id, after: row });
  });
  return { valid: true, info: { title: 'Task added', message: `${input.title} added.` } };
}

async function markDone(db: Db, auth: AuthContext, id: number, ...only: SQL[]): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(tasks)
      .where(auth.tenant.byId(tasks, id, ...only))
      .for('update');
    if (!before) throw new NotFoundError('Task not found.');
    if (before.status === 'done') return;
    const [after] = await tx
      .update(tasks)
      .set({ status: 'done', doneAt: new Date(), doneById: auth.userId })
      .where(auth.tenant.byId(tasks, before.id))
      .returning();
    await recordAudit(tx, auth, { action: 'done', entity: 'tasks', entityId: before.id, before, after });
  });
}

/** Staff mark a task of their company done (again: nothing changes). */
export function completeTask(db: Db, auth: AuthContext, id: number): Promise<void> {
  return markDone(db, auth, id);
}

/** The parent's family tasks (SPEC students/tasks). */
export async function familyTasks(db: Db, auth: AuthContext): Promise<Task[]> {
  const rows = await db
    .select()
    .from(tasks)
    .where(auth.tenant.where(tasks, eq(tasks.assigneeRole, 'family'), eq(tasks.parentId, auth.userId)))
    .orderBy(...order);
  return describe(db, auth.tenant, rows, await companyToday(db, auth.tenant));
}

/** A parent completes one of their own family's tasks; any other task is not found. */
export function completeFamilyTask(db: Db, auth: AuthContext, id: number): Promise<void> {
  return markDone(db, auth, id, eq(tasks.assigneeRole, 'family'), eq(tasks.parentId, auth.userId));
}

/**
 * A task list's items become tasks for one family, in one transaction (audited): due dates count
 * from the company's today. Used by the task-lists resource's "Create tasks" action.
 */
export async function applyTaskList(
  tx: Db,
  auth: AuthContext,
  taskListId: number,
  parentId: number,
): Promise<string> {
  const { tenant } = auth;
  const [list] = await tx
    .select()
    .from(taskLists)
    .where(tenant.byId(taskLists, taskListId, isNull(taskLists.archivedAt)));
  if (!list) throw new NotFoundError('Task list not found.');
  const family = (await usersWithRoles(tx, tenant, [parentId])).get(parentId);
  if (family?.role !== 'student') throw new NotFoundError('Family not found.');
  const items = await tx
    .select()
    .from(taskListItems)
    .where(tenant.where(taskListItems, eq(taskListItems.taskListId, list.id)))
    .orderBy(asc(taskListItems.position), asc(taskListItems.id));
  if (items.length === 0) return `${list.name} has no items yet: nothing was created.`;
  const today = await companyToday(tx, tenant);
  const created = await tx
    .insert(tasks)
    .values(
      items.map((item) =>
        tenant.values({
          title: item.title,
          notes: item.notes,
          dueDate: addDays(today, item.dueDays),
          assigneeRole: item.assigneeRole,
          parentId,
          taskListId: list.id,
          createdById: auth.userId,
        }),
      ),
    )
    .returning({ id: tasks.id });
  await recordAudit(tx, auth, {
    action: 'apply-task-list',
    entity: 'task_lists',
    entityId: list.id,
    after: { family: family.fullName, parentId, taskIds: created.map((t) => t.id) },
  });
  return `${created.length} ${created.length === 1 ? 'task' : 'tasks'} created for ${family.fullName}.`;
}
