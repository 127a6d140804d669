import {
  Alert,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { newTaskRequest, TASK_FILTERS, type TaskFilter } from '@tumble/contracts/tasks';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { TaskCard } from './task-card';
import { createTask, useCompleteTask, useTaskOptions, useTasks } from './tasks-api';

const FILTER_LABELS: Record<TaskFilter, string> = { mine: 'Mine', all: 'All', overdue: 'Overdue' };

function NewTaskForm({ onClose }: { onClose: () => void }) {
  const options = useTaskOptions(true);
  const client = useQueryClient();
  const [values, setValues] = useState({ title: '', notes: '', due_date: '', assignee: '', parent_id: '' });
  const form = useFormPost(newTaskRequest, createTask, {
    onAccepted: () => {
      void client.invalidateQueries({ queryKey: ['admin', 'tasks'] });
      onClose();
    },
  });
  if (!options.data) return <PageLoader />;
  const set = (name: keyof typeof values) => (value: string | null) =>
    setValues((v) => ({ ...v, [name]: value ?? '' }));
  return (
    <Card withBorder padding="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          form.submit({ ...values, parent_id: values.parent_id || null });
        }}
      >
        <Stack gap="sm">
          <Text fw={700}>New task</Text>
          <FormAlerts failure={form.failure} summary={form.summary} />
          <TextInput
            label="Title"
            required
            value={values.title}
            onChange={(e) => set('title')(e.currentTarget.value)}
            error={form.fieldErrors.title}
          />
          <Textarea
            label="Notes"
            autosize
            minRows={2}
            value={values.notes}
            onChange={(e) => set('notes')(e.currentTarget.value)}
            error={form.fieldErrors.notes}
          />
          <TextInput
            label="Due date"
            type="date"
            value={values.due_date}
            onChange={(e) => set('due_date')(e.currentTarget.value)}
            error={form.fieldErrors.due_date}
          />
          <Select
            label="For"
            required
            data={options.data.assignees}
            value={values.assignee || null}
            onChange={set('assignee')}
            searchable
            error={form.fieldErrors.assignee}
          />
          <Select
            label="Family"
            description="What the task is about; required when it is for the family (they see it in their account)."
            data={options.data.families}
            value={values.parent_id || null}
            onChange={set('parent_id')}
            searchable
            clearable
            error={form.fieldErrors.parent_id}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.pending}>
              Add task
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** /admin/tasks: my tasks, everyone's, the overdue ones; mark done; a new task (SPEC tasks). */
export function TasksPage() {
  const [params, setParams] = useSearchParams();
  const filter = (TASK_FILTERS as readonly string[]).includes(params.get('filter') ?? '')
    ? (params.get('filter') as TaskFilter)
    : 'mine';
  const tasks = useTasks(filter);
  const done = useCompleteTask('admin');
  const [adding, setAdding] = useState(false);
  return (
    <Stack gap="md" maw={760}>
      <PageTitle
        title="Tasks"
        description="To-dos for staff and families. Task lists create a family’s set of tasks in one go."
        actions={
          <Group gap="xs">
            <Button component={Link} to="/admin/task-lists" variant="default">
              Task lists
            </Button>
            <Button onClick={() => setAdding(true)} disabled={adding}>
              New task
            </Button>
          </Group>
        }
      />
      {adding ? <NewTaskForm onClose={() => setAdding(false)} /> : null}
      <SegmentedControl
        aria-label="Show"
        value={filter}
        onChange={(value) => setParams({ filter: value })}
        data={TASK_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }))}
      />
      {done.isError ? <Alert color="red">That task could not be marked done. Please try again.</Alert> : null}
      {tasks.data ? (
        tasks.data.tasks.length === 0 ? (
          <Text c="dimmed">{filter === 'overdue' ? 'Nothing is overdue.' : 'No tasks here.'}</Text>
        ) : (
          <Stack gap="xs">
            {tasks.data.tasks.map((task) => (
              <TaskCard
                key={task.id}
                task={task}
                pending={done.isPending && done.variables === task.id}
                onDone={() => done.mutate(task.id)}
              />
            ))}
          </Stack>
        )
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
