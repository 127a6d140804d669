/** Money is integer cents everywhere; this is the one place it becomes text (two decimals). */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-AU')}.${String(abs % 100).padStart(2, '0')}`;
}

/** `amount × numerator / denominator`, rounded half up, in whole cents. */
export function share(amount: number, numerator: number, denominator: number): number {
  return Math.floor((amount * numerator * 2 + denominator) / (2 * denominator));
}
