import { Alert } from '@mantine/core';

export const PAYMENT_CANCELLED =
  'Payment cancelled. Nothing was charged and what you chose was released. Choose again to book.';

/** Shown on a booking page when the parent came back from the card page with Cancel (`status=cancelled`). */
export function PaymentCancelledNotice() {
  return (
    <Alert color="orange" role="status" maw={960} w="100%" mx="auto" mb="md">
      {PAYMENT_CANCELLED}
    </Alert>
  );
}
