import { Badge } from '@mantine/core';
import type { MyBookings } from '@tumble/contracts/students';
import { statusText } from '../student-format';

type BookingStatus = MyBookings[number]['status'];
type WaiverState = MyBookings[number]['children'][number]['waiver'];

const bookingColours: Record<BookingStatus, string> = {
  pending: 'yellow',
  confirmed: 'teal',
  cancelled: 'gray',
  expired: 'gray',
  refund_due: 'orange',
};

/** An event or party booking's status. */
export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  return (
    <Badge color={bookingColours[status]} variant="light">
      {statusText(status)}
    </Badge>
  );
}

/** Whether a waiver covers a child; nothing when the company has no waiver ('none'). */
export function WaiverBadge({ waiver }: { waiver: WaiverState }) {
  if (waiver === 'none') return null;
  return waiver === 'signed' ? (
    <Badge color="teal" variant="light">
      Waiver signed
    </Badge>
  ) : (
    <Badge color="orange" variant="light">
      Needs waiver
    </Badge>
  );
}

const paymentColours: Partial<Record<string, string>> = {
  paid: 'teal',
  succeeded: 'teal',
  refunded: 'gray',
  partially_refunded: 'gray',
  failed: 'red',
};

/** A payment's status, as free text from the payment provider. */
export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    // Never narrower than its word: beside a long description the table would squeeze it to "PA…".
    <Badge color={paymentColours[status] ?? 'yellow'} variant="light" miw="max-content">
      {statusText(status)}
    </Badge>
  );
}
