import { z } from 'zod';

/** Staff to-dos and family tasks (SPEC tasks, task-lists, students/tasks; issue 17). */

export const TASK_FILTERS = ['mine', 'all', 'overdue'] as const;
export type TaskFilter = (typeof TASK_FILTERS)[number];

export const task = z.object({
  id: z.number(),
  title: z.string(),
  notes: z.string().nullable(),
  /** YYYY-MM-DD in the company's time zone, or null. */
  due_date: z.string().nullable(),
  status: z.enum(['open', 'done']),
  /** Open and due before the company's today. */
  overdue: z.boolean(),
  /** "Sam Staff", "Staff", "Admins", "Coaches" or "The family". */
  assignee: z.string(),
  for_family: z.boolean(),
  /** What the task is about, e.g. "Ruby Walker", "The Walker family", "Tuesday Tumblers", "Booking AB12CD". */
  about: z.string().nullable(),
  done_at: z.string().nullable(),
});
export type Task = z.infer<typeof task>;

/** GET /api/v1/admin/tasks?filter=mine|all|overdue */
export const tasksQuery = z.object({ filter: z.enum(TASK_FILTERS).default('mine') });
export const tasksResponse = z.object({ today: z.string(), tasks: z.array(task) });
export type TasksResponse = z.infer<typeof tasksResponse>;

/** GET /api/v1/admin/tasks/options: who a new task can be for, and the families it can be about. */
export const taskOptionsResponse = z.object({
  assignees: z.array(z.object({ value: z.string(), label: z.string() })),
  families: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type TaskOptionsResponse = z.infer<typeof taskOptionsResponse>;

const id = (message: string) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

/**
 * POST /api/v1/admin/tasks: a new task. `assignee` is a staff user's id, a staff role, or 'family'
 * (then the family is required: the parent sees it in their account).
 */
export const newTaskRequest = z
  .object({
    title: z
      .string({ error: 'Enter a title.' })
      .trim()
      .min(1, 'Enter a title.')
      .max(200, 'Keep the title under 200 characters.'),
    notes: z.string().trim().max(2000, 'Keep the notes under 2000 characters.').nullish(),
    due_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
      .refine((v) => {
        const at = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === v;
      }, 'Enter a real date.')
      .nullish()
      .or(z.literal('').transform(() => null)),
    assignee: z
      .string({ error: 'Choose who the task is for.' })
      .regex(/^(\d{1,9}|companyadmin|companystaff|companycoach|family)$/, 'Choose who the task is for.'),
    parent_id: id('Choose a family.').nullish(),
  })
  .refine((v) => v.assignee !== 'family' || Boolean(v.parent_id), {
    message: 'Choose the family the task is for.',
    path: ['parent_id'],
  });
export type NewTaskRequest = z.input<typeof newTaskRequest>;

/** GET /api/v1/students/tasks: the family's tasks (open first). */
export const familyTasksResponse = z.object({ tasks: z.array(task) });
export type FamilyTasksResponse = z.infer<typeof familyTasksResponse>;
