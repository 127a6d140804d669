import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import type { CancellationTarget } from '@tumble/contracts/cancellation';
import { useState } from 'react';
import { useCancel, useCancellationPreview, useRefreshAccount } from './cancellation-api';

/**
 * A parent's "Cancel" for one booked thing (an event day, a party, a class place): the dialog
 * shows what the company's policy gives back before the parent confirms, then the outcome.
 */
export function CancelButton({
  target,
  label = 'Cancel',
  title,
  keepLabel,
  confirmLabel,
}: {
  target: CancellationTarget;
  label?: string;
  /** e.g. "Cancel this day?" */
  title: string;
  /** e.g. "Keep this day" */
  keepLabel: string;
  /** e.g. "Cancel this day" */
  confirmLabel: string;
}) {
  const [open, setOpen] = useState(false);
  const preview = useCancellationPreview(open ? target : null);
  const cancel = useCancel();
  const refreshAccount = useRefreshAccount();
  const close = () => {
    setOpen(false);
    if (cancel.isSuccess) void refreshAccount();
    cancel.reset();
  };
  return (
    <>
      <Button variant="subtle" color="red" size="compact-sm" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={close} title={title} centered>
        {cancel.isSuccess ? (
          <Stack gap="md">
            <Alert color="green" role="status">
              {cancel.data.message}
            </Alert>
            <Group justify="flex-end">
              <Button onClick={close}>Done</Button>
            </Group>
          </Stack>
        ) : preview.isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" aria-label="Working out what you get back" />
          </Group>
        ) : preview.isError ? (
          <Alert color="red" role="alert">
            {preview.error.message}
          </Alert>
        ) : (
          <Stack gap="md">
            <Text fw={600}>{preview.data.what}</Text>
            <Text>{preview.data.message}</Text>
            {cancel.isError ? (
              <Alert color="red" role="alert">
                {cancel.error.message}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={close}>
                {keepLabel}
              </Button>
              {preview.data.allowed ? (
                <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate(target)}>
                  {confirmLabel}
                </Button>
              ) : null}
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
