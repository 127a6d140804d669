import { fireEvent, screen, within } from '@testing-library/react';
import type { BillingRun, BillingRunPreview } from '@tumble/contracts/billing-run';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const plan: BillingRunPreview = {
  term: { id: 7, name: 'Term 1 2030' },
  currency: 'AUD',
  families: [
    {
      parent_id: 40,
      family: 'Sam Smith',
      children: ['Ann Smith', 'Ben Smith'],
      lines: [
        {
          description: 'Kinder Gym · Ann Smith',
          detail: '9 sessions × $22.00 · not charged: 26 Jan (Australia Day)',
          quantity: 9,
          unit_amount: 2200,
          amount: 19800,
          gst_free: false,
          gst: 1800,
        },
        {
          description: 'Sibling discount 10%',
          detail: 'Second and later child · Ben Smith',
          quantity: 1,
          unit_amount: -1980,
          amount: -1980,
          gst_free: false,
          gst: -180,
        },
      ],
      total: 17820,
      gst: 1620,
      credit: 0,
    },
  ],
  totals: { families: 1, invoices: 1, amount: 17820, gst: 1620 },
  last_run: null,
};
const run = (status: BillingRun['status'], processed: number): BillingRun => ({
  id: 5,
  term_id: 7,
  status,
  families: 1,
  processed,
  issued: processed,
  total: processed ? 17820 : 0,
  error: null,
  started_at: '2030-02-01T00:00:00.000Z',
  finished_at: status === 'running' ? null : '2030-02-01T00:00:05.000Z',
});

/**
 * The server of term 7: its Issue button starts run 5, whose polls answer "running"
 * `pollsWhileRunning` times and then "done"; once a poll has said done, the preview has nothing left
 * to bill. `started` counts the runs started.
 */
function stubBillingServer(pollsWhileRunning: number) {
  const server = { started: 0, polls: 0 };
  stubServer({
    'GET /rest/acl': () => json(staffAcl()),
    'GET /api/v1/admin/terms/7/billing': () =>
      json(
        server.started && server.polls > pollsWhileRunning
          ? {
              ...plan,
              families: [],
              totals: { families: 0, invoices: 0, amount: 0, gst: 0 },
              last_run: run('done', 1),
            }
          : plan,
      ),
    'POST /api/v1/admin/terms/7/billing-runs': () => {
      server.started++;
      return json(run('running', 0));
    },
    'GET /api/v1/admin/billing-runs/5': () =>
      json(server.polls++ < pollsWhileRunning ? run('running', 0) : run('done', 1)),
  });
  api.setToken('tok');
  return server;
}

describe('Bill this term screen', () => {
  it('previews each family with its explained lines, issues, follows the progress and links to the invoices', async () => {
    const server = stubBillingServer(1);
    renderApp('/admin/terms/7/billing');

    await screen.findByRole('heading', { level: 1, name: 'Bill Term 1 2030' }, { timeout: 10_000 });
    const table = screen.getByRole('table', { name: 'Invoices to issue' });
    const row = within(table).getByText('Sam Smith').closest('tr')!;
    expect(within(row).getByText('Ann Smith, Ben Smith')).toBeTruthy();
    expect(within(row).getByText('$178.20')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Sam Smith' }));
    const lines = await screen.findByLabelText('Lines for Sam Smith');
    expect(within(lines).getByText('9 sessions × $22.00 · not charged: 26 Jan (Australia Day)')).toBeTruthy();
    expect(within(lines).getByText('-$19.80')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Issue 1 invoice' }));
    await screen.findByLabelText('Progress');
    expect(server.started).toBe(1);
    await screen.findByText(/1 invoice issued, \$178\.20 in all/, {}, { timeout: 5_000 });
    const link = screen.getByRole('link', { name: "See this term's invoices" });
    expect(link.getAttribute('href')).toBe('/admin/invoices?term=7');
    await screen.findByRole('button', { name: 'Nothing to bill' });
  }, 20_000);

  it('shows nothing left to bill when the run has finished before its first poll', async () => {
    const server = stubBillingServer(0);
    renderApp('/admin/terms/7/billing');

    fireEvent.click(await screen.findByRole('button', { name: 'Issue 1 invoice' }, { timeout: 10_000 }));
    await screen.findByText(/1 invoice issued, \$178\.20 in all/, {}, { timeout: 5_000 });
    await screen.findByRole('button', { name: 'Nothing to bill' });
    expect(server.started).toBe(1);
  }, 20_000);
});
