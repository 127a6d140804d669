import { Alert, Stack, Text } from '@mantine/core';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { TaskCard } from './task-card';
import { useCompleteTask, useFamilyTasks } from './tasks-api';

/** /admin/students/tasks: what the provider asked the family to do (SPEC students/tasks). */
export function FamilyTasksPage() {
  const tasks = useFamilyTasks();
  const done = useCompleteTask('students');
  return (
    <Stack gap="md" maw={760}>
      <PageTitle
        title="Tasks"
        description="Things we have asked your family to do. Mark each one done when it is."
      />
      {done.isError ? <Alert color="red">That task could not be marked done. Please try again.</Alert> : null}
      {tasks.data ? (
        tasks.data.tasks.length === 0 ? (
          <Text c="dimmed">Nothing to do right now.</Text>
        ) : (
          <Stack gap="xs">
            {tasks.data.tasks.map((task) => (
              <TaskCard
                key={task.id}
                task={task}
                showAssignee={false}
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
