import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * "Cancel this lesson?" for the lesson being asked about (closed while `lesson` is null): what the
 * page says about it, then Keep lesson and Cancel lesson. The parent's and the staff page use it.
 */
export function CancelLessonModal<L>({
  lesson,
  onClose,
  onConfirm,
  busy,
  children,
}: {
  lesson: L | null;
  onClose: () => void;
  onConfirm: (lesson: L) => void;
  busy: boolean;
  children: (lesson: L) => ReactNode;
}) {
  return (
    <Modal opened={lesson !== null} onClose={onClose} title="Cancel this lesson?" centered>
      {lesson !== null ? (
        <Stack gap="md">
          {children(lesson)}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Keep lesson
            </Button>
            <Button color="red" loading={busy} onClick={() => onConfirm(lesson)}>
              Cancel lesson
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
