import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { createQueryClient } from '../../app/query-client';
import { leaveForUrl } from '../../components/browser-navigation';
import { json, stubServer } from '../../test/render';
import { formatCardNumber, formatExpiry, TestCardPage } from './test-card-page';

vi.mock('../../components/browser-navigation', () => ({ leaveForUrl: vi.fn() }));

const RETURN = 'http://localhost/booking?authhash=demo&e=317c31&status=true';

function renderPage(path = '/payments/test?session=ts_1') {
  const router = createMemoryRouter([{ path: '/payments/test', Component: TestCardPage }], {
    initialEntries: [path],
  });
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

function stubTestProvider(pay: (body: { session: string; card_number: string }) => Response) {
  return stubServer({
    'GET /integrations/test/session': (url) =>
      json({
        session: url.searchParams.get('session'),
        amount: 13_725,
        formatted: '$137.25',
        status: 'open',
        return_url: RETURN,
        company: 'Bounce Gymnastics',
      }),
    'POST /integrations/test/pay': (_, init) => pay(JSON.parse(String(init.body))),
    'POST /integrations/test/cancel': () => json({ redirect: RETURN.replace('&status=true', '') }),
  });
}

async function fillCard(user: ReturnType<typeof userEvent.setup>, number: string) {
  await user.type(await screen.findByLabelText('Card number'), number);
  await user.type(screen.getByLabelText('Expiry'), '1230');
  await user.type(screen.getByLabelText('CVC'), '123');
}

afterEach(() => {
  vi.mocked(leaveForUrl).mockReset();
});

describe('TestCardPage', () => {
  it('says it is test mode, shows the amount and pays with the success card', async () => {
    const pay = vi.fn(() => json({ redirect: RETURN }));
    stubTestProvider(pay);
    renderPage();
    const user = userEvent.setup();

    expect(await screen.findByText('TEST MODE — no real money moves')).toBeTruthy();
    expect(await screen.findByTestId('test-amount')).toHaveProperty('textContent', '$137.25');
    expect(screen.getByText('Pay Bounce Gymnastics')).toBeTruthy();
    await fillCard(user, '4242424242424242');
    expect(screen.getByLabelText('Card number')).toHaveProperty('value', '4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay $137.25' }));

    await waitFor(() => expect(leaveForUrl).toHaveBeenCalledExactlyOnceWith(RETURN));
    expect(pay).toHaveBeenCalledExactlyOnceWith({ session: 'ts_1', card_number: '4242424242424242' });
  });

  it('shows the decline and stays on the page', async () => {
    stubTestProvider(() => json({ message: 'Your card was declined.' }, { status: 402 }));
    renderPage();
    const user = userEvent.setup();

    await fillCard(user, '4000000000000002');
    await user.click(await screen.findByRole('button', { name: 'Pay $137.25' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    expect(leaveForUrl).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Pay $137.25' }).hasAttribute('disabled')).toBe(false);
  });

  it('checks the expiry and CVC before paying', async () => {
    const pay = vi.fn(() => json({ redirect: RETURN }));
    stubTestProvider(pay);
    renderPage();
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText('Card number'), '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay $137.25' }));

    expect(screen.getByText('Enter the expiry as MM/YY.')).toBeTruthy();
    expect(screen.getByText('Enter the 3 or 4 digit CVC.')).toBeTruthy();
    expect(pay).not.toHaveBeenCalled();
  });

  it('cancels and goes back to the returned page', async () => {
    const fetchMock = stubTestProvider(() => json({}));
    renderPage();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel' }));

    await waitFor(() =>
      expect(leaveForUrl).toHaveBeenCalledExactlyOnceWith('http://localhost/booking?authhash=demo&e=317c31'),
    );
    const cancel = fetchMock.mock.calls.find(([url]) => String(url) === '/integrations/test/cancel');
    expect(JSON.parse(String(cancel?.[1]?.body))).toEqual({ session: 'ts_1' });
  });

  it('formats the card number in groups of four and the expiry as MM/YY', () => {
    expect(formatCardNumber('4000-0000 0000 0002x')).toBe('4000 0000 0000 0002');
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('1')).toBe('1');
  });

  it('refuses a number failing the Luhn check as invalid without asking the server', async () => {
    const pay = vi.fn(() => json({ redirect: RETURN }));
    stubTestProvider(pay);
    renderPage();
    const user = userEvent.setup();

    await fillCard(user, '4242424242424241');
    await user.click(await screen.findByRole('button', { name: 'Pay $137.25' }));

    expect(await screen.findByText('Your card number is invalid.')).toBeTruthy();
    expect(pay).not.toHaveBeenCalled();
  });

  it('shows the server decline of any other valid-looking number', async () => {
    const message = 'Your card was declined. This is test mode: use 4242 4242 4242 4242 to pay.';
    const pay = vi.fn(() => json({ message }, { status: 402 }));
    stubTestProvider(pay);
    renderPage();
    const user = userEvent.setup();

    await fillCard(user, '5555555555554444');
    await user.click(await screen.findByRole('button', { name: 'Pay $137.25' }));

    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(leaveForUrl).not.toHaveBeenCalled();
  });

  it('in save-a-card mode shows no amount and saves the card, with a refusal shown on the page', async () => {
    const save = vi.fn((body: { card_number: string }) =>
      body.card_number === '4000000000000002'
        ? json({ message: 'Your card was declined.' }, { status: 402 })
        : json({ redirect: 'http://localhost/account?saved=1' }),
    );
    stubServer({
      'GET /integrations/test/session': (url) =>
        json({
          session: url.searchParams.get('session'),
          mode: 'setup',
          amount: 0,
          formatted: '',
          status: 'open',
          return_url: 'http://localhost/account?saved=1',
          company: 'Bounce Gymnastics',
        }),
      'POST /integrations/test/save-card': (_, init) => save(JSON.parse(String(init.body))),
    });
    renderPage();
    const user = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'Save a card' })).toBeTruthy();
    expect(screen.queryByTestId('test-amount')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Save card' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');

    await user.clear(screen.getByLabelText('Card number'));
    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Save card' }));
    await waitFor(() =>
      expect(leaveForUrl).toHaveBeenCalledExactlyOnceWith('http://localhost/account?saved=1'),
    );
    expect(save).toHaveBeenLastCalledWith({ session: 'ts_1', card_number: '4242424242424242' });
  });
});
