import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { leaveForUrl } from '../../components/browser-navigation';
import { json, stubServer } from '../../test/render';
import { SquareCardPage } from './square-card-page';

vi.mock('../../components/browser-navigation', () => ({ leaveForUrl: vi.fn() }));

const RETURN = 'http://localhost/admin/students/card?saved=1';

function renderPage() {
  const router = createMemoryRouter([{ path: '/payments/square-card', Component: SquareCardPage }], {
    initialEntries: ['/payments/square-card?session=sqcs_1'],
  });
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

function stubSetup(
  applicationId: string | null,
  save = vi.fn((_body: unknown) => json({ redirect: RETURN })),
) {
  stubServer({
    'GET /integrations/square/card-setup': () =>
      json({
        session: 'sqcs_1',
        status: 'open',
        return_url: RETURN,
        company: 'Bounce Gymnastics',
        application_id: applicationId,
        location_id: applicationId ? 'L1' : null,
        environment: 'sandbox',
      }),
    'POST /integrations/square/card-setup': (_, init) => save(JSON.parse(String(init.body))),
  });
  return save;
}

afterEach(() => {
  vi.mocked(leaveForUrl).mockReset();
  delete window.Square;
});

describe('SquareCardPage', () => {
  it("tokenizes the card with Square's SDK and saves the token", async () => {
    const tokenize = vi.fn(async () => ({ status: 'OK', token: 'cnon:card-nonce-ok' }));
    const attach = vi.fn(async () => undefined);
    const payments = vi.fn(() => ({ card: async () => ({ attach, tokenize, destroy: async () => true }) }));
    window.Square = { payments };
    const save = stubSetup('sandbox-sq0idb-app');
    renderPage();
    const user = userEvent.setup();

    const button = await screen.findByRole('button', { name: 'Save card' });
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(payments).toHaveBeenCalledWith('sandbox-sq0idb-app', 'L1');
    expect(attach).toHaveBeenCalledWith('#square-card');
    await user.click(button);

    await waitFor(() => expect(leaveForUrl).toHaveBeenCalledExactlyOnceWith(RETURN));
    expect(save).toHaveBeenCalledWith({ session: 'sqcs_1', source_id: 'cnon:card-nonce-ok' });
  });

  it('says so when Square is not set up for saving cards', async () => {
    stubSetup(null);
    renderPage();
    expect(
      await screen.findByText(
        'Saving a card with Square is not set up yet. Please contact Bounce Gymnastics.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save card' })).toBeNull();
  });
});
