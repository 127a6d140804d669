import { Badge } from '@mantine/core';
import { type InvoiceStatus, invoiceStatusLabels } from '@tumble/contracts/billing';

/** Colours staff read at a glance: owing in blue, part-paid yellow, paid green, overdue red. */
export const invoiceStatusColours: Record<InvoiceStatus, string> = {
  draft: 'gray',
  issued: 'blue',
  part_paid: 'yellow',
  paid: 'teal',
  overdue: 'red',
  void: 'dark',
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return (
    <Badge color={invoiceStatusColours[status]} variant={status === 'void' ? 'outline' : 'light'}>
      {invoiceStatusLabels[status]}
    </Badge>
  );
}
