import { describe, expect, it } from 'vitest';
import {
  addDays,
  apiSearch,
  isoDate,
  search,
  signInAsStaff,
  toolbar,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk, money, payWith, percentOf, testCards } from './support/booking.ts';
import { pick } from './support/classes.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { demoSlots, firstFreeDate, partyPrice, slotCapacity } from './support/party.ts';
import { expectFitsWidth, shows, signInAsParent } from './support/ui.ts';

/**
 * Payments (issue 15): a parent pays an invoice online with the test card (in full at 1280, by a
 * payment plan of 3 at 390), and staff record a cash payment of a party's balance from the party
 * booking's "Record balance payment".
 */
const browser = useBrowser();
useCompany();

/** A one-off invoice of the company's parent, issued through the staff API. */
async function invoiceForParent(staff: string, tag: string, cents: number, dueInDays: number) {
  const parent = (await apiSearch(staff, 'parents', company().parent.email)).find(
    (p) => p.email === company().parent.email,
  )!;
  const made = await apiOk<{ id: number }>('POST', '/api/v1/admin/invoices', {
    token: staff,
    body: {
      parent_id: parent.id,
      lines: [
        {
          description: `Squad term fees ${tag}`,
          detail: '10 sessions × $30.00',
          quantity: 1,
          unit_amount: cents,
        },
      ],
      due_on: addDays(isoDate(new Date()), dueInDays),
      issue: true,
    },
  });
  const detail = await apiOk<{ code: string }>('GET', `/api/v1/admin/invoices/${made.id}`, { token: staff });
  return { id: made.id, code: detail.code };
}

/** A Saturday party of the company's parent (deposit paid with the test card): its balance is owed. */
async function partyWithBalance(staff: string, weeksAhead: number) {
  const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
  const date = await firstFreeDate(addDays(isoDate(new Date()), weeksAhead * 7), 6, 2);
  const slot = (await slotCapacity(date)).slots.find((s) => s.name === demoSlots.saturdayMorning.name)!;
  const price = partyPrice(10);
  const checkout = await apiOk<{ sessionId: string; booking_hash: string }>(
    'POST',
    `/api/v1/birthday-party/booking/checkout?authhash=${company().authhash}`,
    {
      token: parent,
      body: {
        slot_id: slot.id,
        date,
        quantity: 10,
        amount: price.amountDue,
        student: { first_name: 'Remy', last_name: 'Balance', dob: '2018-03-04' },
        accept_terms: true,
      },
    },
  );
  await apiOk('POST', '/integrations/test/pay', {
    body: { session: checkout.sessionId, card_number: testCards.pays.replaceAll(' ', '') },
  });
  const list = await apiOk<{ data: { id: number; code: string; balance: number }[] }>(
    'GET',
    `/api/v1/admin/party-bookings?q=${encodeURIComponent(checkout.booking_hash)}`,
    { token: staff },
  );
  expect(list.data, 'the party booking').toHaveLength(1);
  return list.data[0]!;
}

describe.each(bothViewports)('payments (%s)', (viewport) => {
  const fixture = usePage('invoice-payment', viewport, browser);

  it('a parent pays their invoice with the test card and sees it paid', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport);
    const staff = await apiSignIn(company().admin.email, company().admin.password);
    const phone = viewport === 'phone';
    // $300.00 due in 45 days: the plans of 2, 3 and 4 instalments are offered.
    const invoice = await invoiceForParent(staff, tag, 30_000, 45);

    await signInAsParent(page);
    await page.goto(`/admin/student/payment?invoice=${invoice.id}`);
    await shows(page.getByRole('heading', { level: 1, name: `Invoice ${invoice.code}` }), 'the invoice');
    await shows(page.getByText(`Squad term fees ${tag}`), 'the invoice line');
    expect(await page.getByTestId('invoice-balance').textContent()).toBe(money(30_000));
    await expectFitsWidth(page);
    await shot('1-invoice');

    if (phone) {
      await page.getByRole('radio', { name: '3 instalments' }).check();
      await shows(page.getByRole('cell', { name: '3 of 3' }), 'the plan’s instalments');
      await shot('2-plan');
    }
    const amount = phone ? 10_000 : 30_000;
    // The company charges a 1.5% card surcharge: its line shows, and the card pays it too.
    const surcharge = percentOf(amount, 150);
    await shows(page.getByTestId('price-lines').getByText('To pay now'), 'the amount to pay');
    const pay = page.getByRole('button', { name: `Pay ${money(amount + surcharge)} by card` });
    await shows(pay, 'the pay button with the surcharge');
    await pay.click();
    await page.waitForURL((url) => url.pathname.startsWith('/payments/test'), { timeout: 30_000 });
    await payWith(page, testCards.pays);
    await page.waitForURL((url) => url.pathname === '/admin/student/payment', { timeout: 30_000 });
    const thanks = phone
      ? 'Thank you, instalment 1 of 3 paid.'
      : `Thank you, invoice ${invoice.code} is paid.`;
    await shows(page.getByText(thanks), 'the thank-you');
    await expectFitsWidth(page);
    await shot('3-paid');
    const detail = await apiOk<{ status: string; amount_paid?: number }>(
      'GET',
      `/api/v1/admin/invoices/${invoice.id}`,
      { token: staff },
    );
    expect(detail.status).toBe(phone ? 'part_paid' : 'paid');
  });

  it('staff record a cash payment of a party’s balance from the party booking', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const staff = await apiSignIn(company().admin.email, company().admin.password);
    const party = await partyWithBalance(staff, viewport === 'phone' ? 40 : 36);
    expect(party.balance).toBe(partyPrice(10).balance);

    await signInAsStaff(page);
    // Parties › Party bookings › the party › "Record balance payment".
    await page.goto('/admin/party-bookings');
    await search(page, party.code);
    await page.getByRole('checkbox', { name: `Select ${party.code}`, exact: true }).check();
    await toolbar(page).getByRole('button', { name: 'Record balance payment', exact: true }).click();
    await expectAt(page, '/admin/payments/record');
    const box = page.getByRole('checkbox', { name: new RegExp(`Party ${party.code}`) });
    await shows(box, 'the party’s balance');
    expect(await box.isChecked()).toBe(true);
    await shows(page.getByText(company().parent.email).first(), 'the family');
    await pick(page, 'Method', 'Cash');
    // Part of it first: the page says what will be left before saving.
    await page.getByRole('textbox', { name: 'Amount' }).fill('95.00');
    await shows(
      page.getByText(`${money(party.balance - 9500)} of the party's balance will be left to pay.`),
      'what is left',
    );
    await expectFitsWidth(page);
    await shot('4-record');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await shows(page.getByText(`Payment of ${money(9500)} recorded.`), 'the payment recorded');
    await shot('5-recorded');
    const after = await apiOk<{ balance: number }>('GET', `/api/v1/admin/party-bookings/${party.id}`, {
      token: staff,
    });
    expect(after.balance).toBe(party.balance - 9500);
  });
});
