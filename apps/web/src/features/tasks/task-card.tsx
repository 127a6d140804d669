import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { Task } from '@tumble/contracts/tasks';

const dayText = (date: string) =>
  new Date(`${date}T00:00:00`).toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  });

/** One task: title, due day (overdue in red), who it is for and what about (staff only: a family sees its own); Mark done while open. */
export function TaskCard({
  task,
  onDone,
  pending,
  showAssignee = true,
}: {
  task: Task;
  onDone: () => void;
  pending: boolean;
  showAssignee?: boolean;
}) {
  const open = task.status === 'open';
  return (
    <Card withBorder padding="sm" component="section" aria-label={task.title}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={700} td={open ? undefined : 'line-through'}>
            {task.title}
          </Text>
          {task.notes ? (
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {task.notes}
            </Text>
          ) : null}
          <Group gap={6}>
            {task.due_date ? (
              <Badge variant="light" color={task.overdue ? 'red' : 'gray'}>
                {task.overdue ? 'Overdue · ' : 'Due '}
                {dayText(task.due_date)}
              </Badge>
            ) : null}
            {showAssignee ? (
              <Badge variant="light" color={task.for_family ? 'grape' : 'blue'}>
                {task.assignee}
              </Badge>
            ) : null}
            {task.about && showAssignee ? (
              <Text size="sm" c="dimmed">
                {task.about}
              </Text>
            ) : null}
          </Group>
        </Stack>
        {open ? (
          <Button
            size="xs"
            variant="light"
            style={{ flexShrink: 0 }}
            loading={pending}
            onClick={onDone}
            // The visible words lead the spoken name (WCAG 2.5.3: speech users say what they see).
            aria-label={`Mark done: ${task.title}`}
          >
            Mark done
          </Button>
        ) : (
          <Badge color="green" variant="light" style={{ flexShrink: 0 }}>
            Done
          </Badge>
        )}
      </Group>
    </Card>
  );
}
