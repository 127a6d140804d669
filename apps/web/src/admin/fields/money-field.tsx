import { NumberInput, type NumberInputProps } from '@mantine/core';

interface MoneyFieldProps extends Omit<NumberInputProps, 'value' | 'onChange' | 'min' | 'max'> {
  /** Dollars ('' when empty); the form converts to and from the API's cents. */
  value: number | '';
  onChange: (dollars: number | '') => void;
  /** Limits in cents, as the field meta gives them. */
  minCents?: number;
  maxCents?: number;
}

/** Money edited as dollars with two decimals: '$12.50' for 1250 cents. */
export function MoneyField({ value, onChange, minCents, maxCents, ...props }: MoneyFieldProps) {
  return (
    <NumberInput
      {...props}
      value={value}
      onChange={(next) => onChange(next === '' ? '' : Number(next))}
      prefix="$"
      decimalScale={2}
      fixedDecimalScale
      thousandSeparator=","
      min={minCents === undefined ? undefined : minCents / 100}
      max={maxCents === undefined ? undefined : maxCents / 100}
      allowNegative={minCents === undefined || minCents < 0}
      inputMode="decimal"
      hideControls
    />
  );
}
