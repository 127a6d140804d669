import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it.each([
    ['/admin/users', '/admin/users'],
    ['/booking/checkout?authhash=a&b=2', '/booking/checkout?authhash=a&b=2'],
    ['/birthday-party/update-guest/?id=5#top', '/birthday-party/update-guest/?id=5#top'],
  ])('follows the same-origin path %s', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    '',
    'admin/users',
    '//evil.test/phish',
    '/\\evil.test',
    'https://evil.test/',
    'javascript:alert(1)',
    '/\t/evil.test',
    '/ /evil.test',
  ])('ignores %s', (value) => {
    expect(safeRedirect(value)).toBeUndefined();
  });
});
