import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk, expectCardPage, payWith, testCards } from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows, signInAsParent } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** The order each viewport placed, for the staff test. */
const placed: Partial<Record<string, string>> = {};

interface Catalogue {
  types: { name: string; sizes: { name: string; stock: number }[] }[];
  orders: { code: string; items: string; status: string }[];
}

describe.each(bothViewports)('uniform orders (%s)', (viewport) => {
  const fixture = usePage('uniforms', viewport, browser);

  it('the demo parent orders a leotard for Mia and pays with the test card; the stock goes down', async () => {
    const { page, shot } = fixture();
    const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
    const stock = async () =>
      (await apiOk<Catalogue>('GET', '/api/v1/students/uniform-orders', { token: parent })).types
        .find((t) => t.name === 'Club leotard')!
        .sizes.find((s) => s.name === 'Child 8')!.stock;
    const before = await stock();

    await signInAsParent(page);
    await goViaSidebar(page, viewport, 'Uniforms', '/admin/students/uniforms');
    await shows(page.getByRole('heading', { level: 1, name: 'Order a uniform' }), 'the order form');
    await page.getByRole('combobox', { name: 'Child' }).selectOption({ label: 'Mia Parent' });
    await page.getByRole('combobox', { name: 'Uniform' }).selectOption({ label: 'Club leotard ($65.00)' });
    await page
      .getByRole('combobox', { name: 'Size' })
      .selectOption({ label: `Child 8 (${before} in stock)` });
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect
      .poll(() => summary.getByTestId('price-amount_due').textContent(), {
        timeout: UI_TIMEOUT,
        interval: 100,
      })
      .toMatch(/^\$6[5-6]\.\d\d$/);
    expect(await summary.textContent()).toContain('Club leotard, Child 8 × 1');
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await shot('1-order');

    const due = (await summary.getByTestId('price-amount_due').textContent()) ?? '';
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectCardPage(page, due);
    // While the card page is open the leotard is held: off the shelf.
    expect(await stock()).toBe(before - 1);
    await payWith(page, testCards.pays);
    await expectAt(page, '/admin/students/uniforms?status=true');
    await shows(page.getByText('Your uniform order is placed'), 'the placed notice');
    const mine = await apiOk<Catalogue>('GET', '/api/v1/students/uniform-orders', { token: parent });
    const order = mine.orders[0]!;
    expect(order).toMatchObject({ items: 'Club leotard, Child 8 × 1', status: 'paid' });
    const card = page.getByRole('article', { name: `Uniform order ${order.code}` });
    await shows(card.getByText('Paid', { exact: true }), 'the order shown paid');
    await shot('2-paid');
    placed[viewport] = order.code;
  }, 180_000);

  it('staff see the order in Uniform orders and mark it collected', async () => {
    const { page, shot } = fixture();
    const code = placed[viewport];
    expect(code, 'the order the first test placed').toBeDefined();
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Uniform orders', '/admin/uniform-orders');
    const row = page.getByRole(viewport === 'desktop' ? 'row' : 'article').filter({ hasText: code! });
    await shows(row, 'the parent’s order');
    expect(await row.textContent()).toContain('Mia Parent');
    await shot('3-staff-list');
    await row.getByRole('button', { name: 'Mark collected' }).click();
    await shows(
      page.getByRole('status').filter({ hasText: 'Order marked collected.' }),
      'the collected notice',
    );
    await shows(row.getByText('Collected', { exact: true }), 'the order shown collected');
    await shot('4-collected');
    const admin = await apiSignIn(company().admin.email, company().admin.password);
    const list = await apiOk<{ orders: { code: string; status: string }[] }>(
      'GET',
      '/api/v1/admin/uniform-orders',
      {
        token: admin,
      },
    );
    expect(list.orders.find((o) => o.code === code)?.status).toBe('collected');
  }, 180_000);
});
