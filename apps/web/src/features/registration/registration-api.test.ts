import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearVisitorChoices,
  loadVisitorChoices,
  rememberedPurchase,
  rememberPurchase,
  saveVisitorChoices,
} from './registration-api';

const refused = () => {
  throw new DOMException('Access is denied for this document.', 'SecurityError');
};

describe('what the registration page keeps across the sign-in, when the browser refuses storage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    clearVisitorChoices();
  });

  it('keeps a visitor’s choices and the purchase in memory inside a frame denied storage', () => {
    // A provider's website with third-party storage blocked: the frame may not touch sessionStorage.
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(refused);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(refused);
    const children = [{ dob: '2022-05-01', dobText: '01/05/2022', picks: [] }];
    saveVisitorChoices('term-classes', 'H1', children);
    expect(loadVisitorChoices('term-classes', 'H1')).toEqual(children);
    expect(loadVisitorChoices('other-form', 'H1')).toBeNull();
    rememberPurchase('REF1');
    expect(rememberedPurchase()).toBe('REF1');
    clearVisitorChoices();
    expect(loadVisitorChoices('term-classes', 'H1')).toBeNull();
  });
});
