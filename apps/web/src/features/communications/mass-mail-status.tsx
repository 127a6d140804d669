import { Badge } from '@mantine/core';
import type { MassMailStatus, RecipientStatus } from '@tumble/contracts/communications';

const MAIL_STATUS: Record<MassMailStatus, { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'gray' },
  scheduled: { label: 'Scheduled', color: 'blue' },
  sending: { label: 'Sending', color: 'orange' },
  sent: { label: 'Sent', color: 'green' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

export function MassMailStatusBadge({ status }: { status: MassMailStatus }) {
  const s = MAIL_STATUS[status];
  return (
    <Badge color={s.color} variant="light">
      {s.label}
    </Badge>
  );
}

const RECIPIENT_STATUS: Record<RecipientStatus, { label: string; color: string }> = {
  waiting: { label: 'Waiting', color: 'gray' },
  queued: { label: 'Queued', color: 'blue' },
  sent: { label: 'Sent', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Unsubscribed', color: 'gray' },
};

export function RecipientStatusBadge({ status }: { status: RecipientStatus }) {
  const s = RECIPIENT_STATUS[status];
  return (
    <Badge color={s.color} variant="light">
      {s.label}
    </Badge>
  );
}
