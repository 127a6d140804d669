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
    // Never cut to "ISSU…" in a narrow table cell: the badge is as wide as its word.
    <Badge
      color={invoiceStatusColours[status]}
      variant={status === 'void' ? 'outline' : 'light'}
      style={{ minWidth: 'max-content' }}
    >
      {invoiceStatusLabels[status]}
    </Badge>
  );
}
