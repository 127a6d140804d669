import { Alert } from '@mantine/core';
import { PAYMENT_CANCELLED } from '@tumble/contracts/booking-codes';

/** Shown on a booking page when the parent came back from the card page with Cancel (`status=cancelled`). */
export function PaymentCancelledNotice() {
  return (
    <Alert color="orange" role="status" maw={960} w="100%" mx="auto" mb="md">
      {PAYMENT_CANCELLED}
    </Alert>
  );
}
