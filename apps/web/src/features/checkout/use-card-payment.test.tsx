import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CheckoutResponse } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { AppProviders } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { leaveForUrl } from '../../components/browser-navigation';
import { isFramed, leaveFrameFor } from '../../components/embedded-page';
import { json, stubServer } from '../../test/render';
import { CheckoutLayout } from './checkout-layout';
import { useCardPayment } from './use-card-payment';

vi.mock('../../components/browser-navigation', () => ({ leaveForUrl: vi.fn() }));
// Not framed unless a test says so (a page inside a provider's website).
vi.mock('../../components/embedded-page', () => ({
  isFramed: vi.fn(() => false),
  leaveFrameFor: vi.fn(),
}));

const PROBLEM = 'Please fill in the form.';

/** A checkout page reduced to the payment step: one checkbox stands for the whole form. */
function Harness({ finish }: { finish: () => void }) {
  const [filled, setFilled] = useState(false);
  const step = useCardPayment({
    problems: filled ? [] : [PROBLEM],
    finish,
    cancelledNotice: 'Payment cancelled. Nothing is held.',
    send: () => api.post('/api/v1/test/checkout', {}) as Promise<CheckoutResponse>,
  });
  return (
    <CheckoutLayout
      header={null}
      title="Test checkout"
      change={{ to: '/back', label: 'Change' }}
      step={step}
      onComplete={finish}
      childrenTitle="Who"
      childrenForm={
        <label>
          <input
            type="checkbox"
            checked={filled}
            onChange={(event) => setFilled(event.currentTarget.checked)}
          />
          Filled in
        </label>
      }
      discounts={null}
      terms={{ loading: false, html: '<p>Terms</p>', accepted: true, onAcceptedChange: () => undefined }}
      summaryTitle="Summary"
      summary={null}
      priceError={null}
      confirmLabel="Confirm Payment"
      confirmDisabled={false}
    />
  );
}

function renderStep(answer: () => Response) {
  const fetchMock = stubServer({
    'POST /api/v1/test/checkout': answer,
    'POST /integrations/stripe/cancel-session': () => json({ success: true }),
  });
  const finish = vi.fn();
  const router = createMemoryRouter([{ path: '*', element: <Harness finish={finish} /> }]);
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const posts = (path: string) =>
    fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://x').pathname === path);
  return { finish, posts };
}

async function confirmFilled() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('checkbox', { name: 'Filled in' }));
  await user.click(screen.getByRole('button', { name: 'Confirm Payment' }));
  return user;
}

afterEach(() => {
  vi.mocked(leaveForUrl).mockReset();
  vi.mocked(isFramed).mockReturnValue(false);
  vi.mocked(leaveFrameFor).mockReset();
  vi.unstubAllGlobals();
});

describe('the payment step of every checkout (useCardPayment + CheckoutLayout)', () => {
  it('lists the problems above the form, posts nothing, and clears each once fixed', async () => {
    const { posts } = renderStep(() => json({ valid: true }));
    const user = userEvent.setup();
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await user.click(await screen.findByRole('button', { name: 'Confirm Payment' }));

    expect((await screen.findByRole('alert')).textContent).toBe(PROBLEM);
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
    expect(posts('/api/v1/test/checkout')).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: 'Filled in' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('follows a payment link', async () => {
    const { finish } = renderStep(() =>
      json({ valid: true, method: 'test', payment_link: 'http://localhost/payments/test?session=ts_1' }),
    );
    await confirmFilled();
    await waitFor(() =>
      expect(leaveForUrl).toHaveBeenCalledExactlyOnceWith('http://localhost/payments/test?session=ts_1'),
    );
    expect(finish).not.toHaveBeenCalled();
  });

  it.each([
    ['the whole window (the browser allowed it)', 'top', false],
    ['a new tab', 'new-tab', true],
    ['nowhere (a popup blocker)', 'blocked', true],
  ] as const)(
    'inside a frame, opens a payment link in %s, and says where to finish',
    async (_, exit, says) => {
      const link = 'http://localhost/payments/test?session=ts_1';
      vi.mocked(isFramed).mockReturnValue(true);
      vi.mocked(leaveFrameFor).mockReturnValue(exit);
      const { finish } = renderStep(() => json({ valid: true, method: 'test', payment_link: link }));
      await confirmFilled();
      await waitFor(() => expect(leaveFrameFor).toHaveBeenCalledExactlyOnceWith(link));
      expect(leaveForUrl).not.toHaveBeenCalled();
      if (says) {
        const status = await screen.findByRole('status');
        expect(status.textContent).toBe('Finish paying in the new tab. Open the payment page');
        const open = screen.getByRole('link', { name: 'Open the payment page' });
        expect(open.getAttribute('href')).toBe(link);
        expect(open.getAttribute('target')).toBe('_blank');
      } else {
        // Give the page a moment: nothing is said, the frame is leaving with the whole window.
        await new Promise((r) => setTimeout(r, 50));
        expect(screen.queryByText(/Finish paying/)).toBeNull();
      }
      expect(finish).not.toHaveBeenCalled();
    },
  );

  it('finishes when there is nothing to pay', async () => {
    const { finish } = renderStep(() => json({ valid: true }));
    await confirmFilled();
    await waitFor(() => expect(finish).toHaveBeenCalledOnce());
    expect(leaveForUrl).not.toHaveBeenCalled();
  });

  it.each([
    ['valid false', () => json({ valid: false }), messages.checkoutInvalid],
    [
      'the server message',
      () => json({ message: 'Sorry, that place has just been taken.' }, { status: 409 }),
      'Sorry, that place has just been taken.',
    ],
    ['the generic failure', () => json({}, { status: 500 }), messages.checkoutFailed],
  ])('shows %s above the form', async (_, answer, text) => {
    renderStep(answer);
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await confirmFilled();
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
  });

  it('opens the embedded card form for a client secret; closing it expires the session and says so', async () => {
    const mount = vi.fn();
    const destroy = vi.fn();
    vi.stubGlobal(
      'Stripe',
      vi.fn(() => ({ initEmbeddedCheckout: vi.fn(async () => ({ mount, destroy })) })),
    );
    const { posts, finish } = renderStep(() =>
      json({
        valid: true,
        method: 'stripe',
        public_key: 'pk_test_1',
        client_secret: 'cs_secret',
        sessionId: 'cs_1',
      }),
    );
    const user = await confirmFilled();

    await waitFor(() => expect(mount).toHaveBeenCalledExactlyOnceWith(screen.getByTestId('stripe-checkout')));
    await user.click(screen.getByRole('button', { name: 'Close card payment' }));
    await waitFor(() => expect(posts('/integrations/stripe/cancel-session')).toHaveLength(1));
    expect(posts('/integrations/stripe/cancel-session')[0]?.[0]).toBe(
      '/integrations/stripe/cancel-session?session=cs_1',
    );
    expect(await screen.findByText('Payment cancelled. Nothing is held.')).toBeTruthy();
    expect(destroy).toHaveBeenCalled();
    expect(finish).not.toHaveBeenCalled();
  });

  it("creates Stripe.js for the company's connected account when the checkout names one", async () => {
    const mount = vi.fn();
    const Stripe = vi.fn(() => ({ initEmbeddedCheckout: vi.fn(async () => ({ mount, destroy: vi.fn() })) }));
    vi.stubGlobal('Stripe', Stripe);
    renderStep(() =>
      json({
        valid: true,
        method: 'stripe',
        public_key: 'pk_test_1',
        stripe_account: 'acct_1Gym',
        client_secret: 'cs_secret',
        sessionId: 'cs_1',
      }),
    );
    await confirmFilled();
    await waitFor(() => expect(mount).toHaveBeenCalled());
    expect(Stripe).toHaveBeenCalledExactlyOnceWith('pk_test_1', { stripeAccount: 'acct_1Gym' });
  });
});
