/** One formatter per currency: building an Intl.NumberFormat is slow, formatting with one is fast. */
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Money is integer cents everywhere; this is the one place it becomes text, in the company's
 * currency (ISO 4217, `companies.currency`): "$1,234.56", "€12.00", "-£2.50". The narrow symbol
 * reads as a parent expects at home ("$" for both AUD and USD); receipts add the code beside it.
 */
export function formatMoney(cents: number, currency: string): string {
  // A caller that has not been given the company yet is a bug to fix there, said plainly.
  if (!currency) throw new TypeError('formatMoney(cents, currency) needs the company currency.');
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(currency, formatter);
  }
  return formatter.format(cents / 100);
}

/** `amount × numerator / denominator`, rounded half up, in whole cents. */
export function share(amount: number, numerator: number, denominator: number): number {
  return Math.floor((amount * numerator * 2 + denominator) / (2 * denominator));
}
