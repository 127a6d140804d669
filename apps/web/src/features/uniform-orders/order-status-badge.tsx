import { Badge } from '@mantine/core';
import { type UniformOrderStatus, uniformOrderStatusLabels } from '@tumble/contracts/uniform-orders';

const colors: Record<UniformOrderStatus, string> = {
  pending_payment: 'yellow',
  paid: 'green',
  to_be_collected: 'blue',
  collected: 'gray',
  cancelled: 'red',
  refund_due: 'orange',
};

/** An order's status in words and colour, the same on the parent's and the staff pages. */
export function OrderStatusBadge({ status }: { status: UniformOrderStatus }) {
  return (
    <Badge color={colors[status]} variant="light">
      {uniformOrderStatusLabels[status]}
    </Badge>
  );
}
