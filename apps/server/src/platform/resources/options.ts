import type { Option } from '@tumble/contracts/resources';

/** ISO weekdays as stored in `days_of_week` columns. */
export const weekdayOptions: Option[] = [
  { value: '1', label: 'Monday' },
  { value: '2', label: 'Tuesday' },
  { value: '3', label: 'Wednesday' },
  { value: '4', label: 'Thursday' },
  { value: '5', label: 'Friday' },
  { value: '6', label: 'Saturday' },
  { value: '7', label: 'Sunday' },
];

export const discountTypeOptions: Option[] = [
  { value: 'percent', label: 'Percent off' },
  { value: 'fixed', label: 'Fixed amount off' },
];

export const paymentMethodOptions: Option[] = [
  { value: 'stripe', label: 'Stripe' },
  { value: 'square', label: 'Square' },
  { value: 'test', label: 'Test mode' },
];

/** `to` on or after `from` when both are given. */
export function dateOrderError(from: unknown, to: unknown, message: string): string | undefined {
  return typeof from === 'string' && typeof to === 'string' && to < from ? message : undefined;
}

/** Drops undefined entries so a check can return `{ field: maybeMessage }`. */
export function compact(errors: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).filter((e): e is [string, string] => e[1] !== undefined));
}
