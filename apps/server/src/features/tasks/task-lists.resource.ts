import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { applyTaskList } from './tasks.service.ts';
import { taskListItems, taskLists } from './tasks.tables.ts';

const permissions = { read: 'classes.read', write: 'classes.write' } as const;

const assignees = [
  { value: 'companystaff', label: 'Staff' },
  { value: 'companyadmin', label: 'Admins' },
  { value: 'companycoach', label: 'Coaches' },
  { value: 'family', label: 'The family' },
] as const;

/** Templates of tasks (SPEC task-lists), e.g. "New family": applied to one family in one action. */
export const taskListsResource = defineResource({
  name: 'task-lists',
  label: 'Task lists',
  nav: { group: 'Families', icon: 'check' },
  singular: 'Task list',
  table: taskLists,
  titleField: 'name',
  fields: { name: field.text('Name', { required: true, max: 120, help: 'e.g. New family' }) },
  list: { columns: ['name'], search: ['name'], defaultSort: { field: 'name', order: 'asc' } },
  permissions,
  deleteMode: 'archive',
  actions: {
    apply: {
      label: 'Create tasks',
      selection: 'one',
      fields: { parent_id: field.reference('Family', 'parents', { required: true }) },
      run: (ctx, [row], values) => applyTaskList(ctx.tx, ctx.auth, row!.id, values.parent_id as number),
    },
  },
});

/** The items of a task list: each becomes one task, due a number of days after it is applied. */
export const taskListItemsResource = defineResource({
  name: 'task-list-items',
  label: 'Items',
  singular: 'Item',
  table: taskListItems,
  parent: { resource: 'task-lists', column: 'taskListId' },
  titleField: 'title',
  fields: {
    title: field.text('Title', { required: true, max: 200, help: 'e.g. Call the family' }),
    notes: field.textarea('Notes'),
    due_days: field.number('Due after (days)', {
      required: true,
      min: 0,
      max: 365,
      default: 0,
      help: 'Days after the list is applied; 0 is the same day.',
    }),
    assignee_role: field.select('For', assignees, { required: true, default: 'companystaff' }),
    position: field.number('Order', { min: 0, max: 1000, default: 0 }),
  },
  list: {
    columns: ['position', 'title', 'due_days', 'assignee_role'],
    search: ['title'],
    defaultSort: { field: 'position', order: 'asc' },
  },
  permissions,
});

export const taskListResources = [taskListsResource, taskListItemsResource];
