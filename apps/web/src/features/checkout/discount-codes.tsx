import { Card, Stack, Title } from '@mantine/core';
import type { ChargesResponse } from '@tumble/contracts/booking';
import { useState } from 'react';
import { CodeField } from '../../components/code-field';

/** The codes the parent applied; the page prices with them. */
export interface AppliedCodes {
  coupon: string;
  voucher: string;
}

export const NO_CODES: AppliedCodes = { coupon: '', voucher: '' };

export interface DiscountCodesProps {
  applied: AppliedCodes;
  onApply: (codes: AppliedCodes) => void;
  /** The last price, whose errors say why an applied code was refused. */
  pricing: ChargesResponse | null | undefined;
}

/** The Discounts card: a coupon or an NSW voucher, never both (SPEC.md point 5). */
export function DiscountCodes({ applied, onApply, pricing }: DiscountCodesProps) {
  const [coupon, setCoupon] = useState('');
  const [voucher, setVoucher] = useState('');
  return (
    <Card>
      <Stack gap="md">
        <Title order={2} size="h4">
          Discounts
        </Title>
        <CodeField
          label="Coupon code"
          applyLabel="Apply coupon"
          value={coupon}
          onChange={setCoupon}
          disabled={voucher.trim() !== ''}
          error={applied.coupon ? pricing?.errors.invalid_coupon_code_message : undefined}
          onApply={() => onApply({ coupon: coupon.trim(), voucher: '' })}
        />
        <CodeField
          label="NSW voucher"
          applyLabel="Apply voucher"
          value={voucher}
          onChange={setVoucher}
          disabled={coupon.trim() !== ''}
          error={applied.voucher ? pricing?.errors.invalid_nsw_coupon_code_message : undefined}
          onApply={() => onApply({ coupon: '', voucher: voucher.trim() })}
        />
      </Stack>
    </Card>
  );
}
