import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUTOPAY_LABEL, type SavedCardResponse } from '@tumble/contracts/autopay';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { leaveForUrl } from '../../components/browser-navigation';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

vi.mock('../../components/browser-navigation', () => ({ leaveForUrl: vi.fn() }));

const SLOW = 15_000;
const card: SavedCardResponse = {
  card: { brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2028 },
  autopay: false,
};

describe('/admin/students/card', () => {
  it(
    'without a card: no autopay switch; "Save a card" goes to the provider page',
    async () => {
      stubServer({
        'GET /rest/acl': () => json(studentAcl()),
        'GET /api/v1/students/saved-card': () => json({ card: null, autopay: false }),
        'POST /api/v1/students/saved-card/setup': () =>
          json({
            valid: true,
            method: 'test',
            sessionId: 'test_cs_1',
            payment_link: '/payments/test?session=test_cs_1',
          }),
      });
      api.setToken('parent-token');
      renderApp('/admin/students/card');
      expect(await screen.findByText('No card saved.', undefined, { timeout: 5000 })).toBeTruthy();
      expect(screen.queryByRole('switch', { name: AUTOPAY_LABEL })).toBeNull();
      await userEvent.setup().click(screen.getByRole('button', { name: 'Save a card' }));
      await waitFor(() => expect(leaveForUrl).toHaveBeenCalledWith('/payments/test?session=test_cs_1'));
    },
    SLOW,
  );

  it(
    'back from the card page: the card is saved, shown, and autopay can be turned on',
    async () => {
      let autopay: unknown = null;
      stubServer({
        'GET /rest/acl': () => json(studentAcl()),
        'GET /api/v1/students/saved-card': () => json(card),
        'POST /api/v1/students/saved-card/return': () => json({ ...card, saved: true }),
        'POST /api/v1/students/saved-card/autopay': (_url, init) => {
          autopay = JSON.parse(String(init.body));
          return json({ ...card, autopay: true });
        },
      });
      api.setToken('parent-token');
      renderApp('/admin/students/card?setup=done');
      expect(await screen.findByText('Your card has been saved.', undefined, { timeout: 5000 })).toBeTruthy();
      expect(await screen.findByText('Visa •••• 4242, expires 11/2028')).toBeTruthy();
      const toggle = screen.getByRole('switch', { name: AUTOPAY_LABEL });
      expect((toggle as HTMLInputElement).checked).toBe(false);
      await userEvent.setup().click(toggle);
      await waitFor(() => expect(autopay).toEqual({ autopay: true }));
      expect(await screen.findByText('Autopay is on.')).toBeTruthy();
      expect((screen.getByRole('switch', { name: AUTOPAY_LABEL }) as HTMLInputElement).checked).toBe(true);
      expect(screen.getByRole('button', { name: 'Replace card' })).toBeTruthy();
    },
    SLOW,
  );
});
