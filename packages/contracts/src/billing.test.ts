import { describe, expect, it } from 'vitest';
import { abnField, formatAbn, gstIn, invoiceBalance, validAbn } from './billing.ts';

describe('ABN', () => {
  it('accepts real ABNs with or without spaces and refuses a wrong check digit', () => {
    expect(validAbn('51 824 753 556')).toBe(true); // the ATO's own example
    expect(validAbn('53004085616')).toBe(true);
    expect(validAbn('51824753557')).toBe(false);
    expect(validAbn('5182475355')).toBe(false);
    expect(validAbn('5182475355a')).toBe(false);
    expect(formatAbn('51824753556')).toBe('51 824 753 556');
  });
  it('the form field keeps the digits and says what is wrong', () => {
    expect(abnField.parse(' 51 824 753 556 ')).toBe('51824753556');
    expect(abnField.parse('')).toBe('');
    expect(abnField.safeParse('12 345 678 901').error?.issues[0]?.message).toBe(
      'Please enter a valid 11-digit ABN.',
    );
  });
});

describe('GST inside a GST-inclusive price', () => {
  it('is one eleventh to the cent, half away from zero', () => {
    const registered = { gstRegistered: true, gstFree: false };
    expect(gstIn(11_000, registered)).toBe(1_000);
    expect(gstIn(2_200, registered)).toBe(200);
    expect(gstIn(1_000, registered)).toBe(91); // 90.909…
    expect(gstIn(1_650, registered)).toBe(150);
    expect(gstIn(-1_000, registered)).toBe(-91); // a discount mirrors its price
    expect(gstIn(5, registered)).toBe(0); // 0.4545…
    expect(gstIn(6, registered)).toBe(1); // 0.5454…
  });
  it('is nothing on a GST-free line or from a supplier not registered', () => {
    expect(gstIn(11_000, { gstRegistered: true, gstFree: true })).toBe(0);
    expect(gstIn(11_000, { gstRegistered: false, gstFree: false })).toBe(0);
  });
  it('an invoice asks for its total less payments and credit notes, never below nothing', () => {
    expect(invoiceBalance({ total: 10_000, amountPaid: 2_500, amountCredited: 1_000 })).toBe(6_500);
    expect(invoiceBalance({ total: 10_000, amountPaid: 10_000, amountCredited: 1_000 })).toBe(0);
  });
});
