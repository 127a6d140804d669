/**
 * Refunds (decision 017): money going back to the card through the payment's provider, or to the
 * family's credit. Shared words of the staff screens and the family's statement.
 */

export const refundDestinations = ['card', 'credit'] as const;
export type RefundDestination = (typeof refundDestinations)[number];

export const refundDestinationLabels: Record<RefundDestination, string> = {
  card: 'To the card',
  credit: 'To family credit',
};

export const refundStatuses = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

export const refundStatusLabels: Record<RefundStatus, string> = {
  pending: 'Pending',
  succeeded: 'Refunded',
  failed: 'Failed',
};

/** The longest reason a refund keeps (it goes to the provider and the audit trail). */
export const refundReasonMax = 500;
