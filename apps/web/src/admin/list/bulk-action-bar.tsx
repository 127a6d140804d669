import { Button, Group, Text } from '@mantine/core';
import type { ActionMeta } from '@tumble/contracts/resources';
import { Link } from 'react-router';
import { PlusIcon } from '../../components/icons';

interface BulkActionBarProps {
  actions: ActionMeta[];
  selectedCount: number;
  onAction: (action: ActionMeta) => void;
  /** The Add button's target, when the role may create. */
  addPath: string | null;
  addLabel: string;
  busy: boolean;
}

/**
 * The bar above a list: the resource's actions, applied to the selected rows, and Add. It wraps
 * onto several lines on a phone.
 */
export function BulkActionBar({
  actions,
  selectedCount,
  onAction,
  addPath,
  addLabel,
  busy,
}: BulkActionBarProps) {
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" role="toolbar" aria-label="Actions">
      <Group gap="xs" wrap="wrap">
        {actions.map((action) => (
          <Button
            key={action.name}
            variant="default"
            size="xs"
            color={action.name === 'delete' ? 'red' : undefined}
            c={action.name === 'delete' ? 'red.7' : undefined}
            disabled={busy}
            onClick={() => onAction(action)}
          >
            {action.label}
          </Button>
        ))}
        <Text size="xs" c="dimmed" aria-live="polite">
          {selectedCount === 0 ? 'No rows selected' : `${selectedCount} selected`}
        </Text>
      </Group>
      {addPath ? (
        <Button component={Link} to={addPath} size="xs" leftSection={<PlusIcon size={14} />}>
          {addLabel}
        </Button>
      ) : null}
    </Group>
  );
}
