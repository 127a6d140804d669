import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, apiSearch, isoDate, signInAsStaff, topShot, uniqueTag } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk, money, payWith, testCards } from './support/booking.ts';
import { baseUrl, newPage, screenshot } from './support/browser.ts';
import { pick } from './support/classes.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { demoSlots, firstFreeDate, partyPrice, slotCapacity } from './support/party.ts';
import { expectFitsWidth, shows, signInAsParent } from './support/ui.ts';

/**
 * Issue 15's "Done when" journey: staff run a term's billing; the parent sees the invoice and pays
 * it with the test card; staff record a cash payment of a party balance, refund part of the card
 * payment and issue a credit note; the parent's statement (and the family's Account page) shows
 * all of it.
 */
const browser = useBrowser();
useCompany();

type Statement = {
  family: { id: number };
  owing: number;
  entries: { kind: string; description: string; amount: number }[];
};

/**
 * A term of this width's own, with one Ninja Kids class and a new child of the company's parent
 * enrolled by staff (unpaid), so the billing run bills exactly that place.
 */
async function termToBill(tag: string) {
  const token = await apiSignIn(company().admin.email, company().admin.password);
  const today = isoDate(new Date());
  const monday = addDays(today, 21 + ((8 - new Date(`${today}T00:00:00Z`).getUTCDay()) % 7));
  const name = `Journey ${tag}`;
  const saved = await apiOk<{ valid: boolean }>('POST', '/api/v1/admin/terms', {
    token,
    body: { name, start_date: monday, end_date: addDays(monday, 62), status: 'open' },
  });
  expect(saved.valid, 'term saved').toBe(true);
  const termId = (await apiSearch(token, 'terms', name)).find((t) => t.name === name)!.id;
  const ninja = (await apiSearch(token, 'class-types', 'Ninja Kids')).find((t) => t.name === 'Ninja Kids')!;
  const className = `Ninja ${tag}`;
  const klass = await apiOk<{ valid: boolean }>('POST', '/api/v1/admin/term-classes', {
    token,
    body: {
      name: className,
      term_id: termId,
      class_type_id: ninja.id,
      weekday: '3',
      start_time: '16:30',
      capacity: 20,
      status: 'active',
    },
  });
  expect(klass.valid, 'class saved').toBe(true);
  await apiOk('POST', `/api/v1/admin/terms/${termId}/generate`, { token });
  const classId = (await apiSearch(token, 'term-classes', className)).find((c) => c.name === className)!.id;
  const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
  const first = `Jo${tag}`;
  await apiOk('POST', '/api/v1/students/children', {
    token: parent,
    body: { first_name: first, last_name: 'Journey', dob: '2017-05-01' },
  });
  const found = await apiOk<{ id: number; name: string }[]>(
    'GET',
    `/api/v1/admin/class-students/children?${new URLSearchParams({ q: first })}`,
    { token },
  );
  const childId = found.find((c) => c.name === `${first} Journey`)!.id;
  await apiOk('POST', `/api/v1/admin/term-classes/${classId}/class-students`, {
    token,
    body: { child_id: childId, starts_on: addDays(monday, 2) },
  });
  return { token, parent, termId, name, childId };
}

/** A party of the parent's child, its deposit paid with the test card: its balance is owed. */
async function partyWithBalance(parent: string, staff: string, childId: number, weeksAhead: number) {
  const from = addDays(isoDate(new Date()), weeksAhead * 7);
  const date = await firstFreeDate(from, 6, 2);
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
        deposit: price.deposit,
        surcharge: price.surcharge,
        student: { id: childId },
        accept_terms: true,
      },
    },
  );
  await apiOk('POST', '/integrations/test/pay', {
    body: { session: checkout.sessionId, card_number: testCards.pays.replaceAll(' ', '') },
  });
  const list = await apiOk<{ data: { id: number; code: string }[] }>(
    'GET',
    `/api/v1/admin/party-bookings?q=${encodeURIComponent(checkout.booking_hash)}`,
    { token: staff },
  );
  expect(list.data, 'the party booking').toHaveLength(1);
  return { ...list.data[0]!, balance: price.balance };
}

/** The parent's own account, as their Invoices page reads it. */
const statementOf = (parent: string) =>
  apiOk<Statement>('GET', '/api/v1/students/statement', { token: parent });

describe.each(bothViewports)('the billing journey (%s)', (viewport) => {
  const fixture = usePage('billing-journey', viewport, browser);

  it("staff bill a term; the parent pays the invoice by card; staff take a party balance in cash, refund part of the card payment and issue a credit note; the parent's statement shows it all", async () => {
    const f = fixture();
    const staff = f.page;
    const shot = topShot(f);
    const tag = uniqueTag(viewport).replace(/[^A-Za-z0-9]/g, '');
    const term = await termToBill(tag);
    const parentShot = async (page: Page, step: string) => {
      await page.evaluate(() => window.scrollTo({ top: 0, left: 0, behavior: 'instant' }));
      await screenshot(page, `billing-journey-${step}-${viewport}`);
    };

    // 1. Staff run the term's billing (Terms › the term › Bill this term).
    await signInAsStaff(staff);
    await staff.goto(`/admin/terms/${term.termId}/billing`);
    await shows(staff.getByRole('heading', { level: 1, name: `Bill ${term.name}` }), 'the billing screen');
    await staff.getByLabel('Preview').getByRole('button', { name: 'Issue 1 invoice' }).click();
    const run = staff.getByLabel('Billing run');
    await shows(run.getByText('Done', { exact: true }), 'the finished run');
    await shot('1-billed');
    const invoices = await apiOk<{ data: { id: number; code: string; total: number; parent_id: number }[] }>(
      'GET',
      `/api/v1/admin/invoices?term=${term.termId}`,
      { token: term.token },
    );
    expect(invoices.data).toHaveLength(1);
    const invoice = invoices.data[0]!;

    // 2. The parent sees it on their Invoices page and pays it with the test card.
    const { context: parentContext, page: parent } = await newPage(browser(), viewport);
    try {
      await signInAsParent(parent);
      await parent.goto('/admin/students/invoices');
      await shows(parent.getByRole('heading', { level: 1, name: 'My Invoices' }), 'the Invoices page');
      await shows(parent.getByText(/^You owe \$/), 'what the parent owes');
      await shows(
        parent.getByRole('button', { name: `Download PDF of invoice ${invoice.code}` }),
        'the PDF button',
      );
      await expectFitsWidth(parent);
      await parentShot(parent, '2-parent-invoices');
      await parent.getByRole('link', { name: `Pay invoice ${invoice.code}` }).click();
      await expectAt(parent, '/admin/student/payment');
      await parent.getByRole('button', { name: /^Pay \$[\d,.]+ by card$/ }).click();
      await parent.waitForURL((url) => url.pathname.startsWith('/payments/test'), { timeout: 30_000 });
      await payWith(parent, testCards.pays);
      await parent.waitForURL((url) => url.pathname === '/admin/student/payment', { timeout: 30_000 });
      await shows(parent.getByText(/is paid/).first(), 'the paid invoice');
      await parentShot(parent, '3-parent-paid');
      const cardPayment = (
        await apiOk<{ id: number; description: string; method: string }[]>(
          'GET',
          '/api/v1/students/payments',
          {
            token: term.parent,
          },
        )
      ).find((p) => p.method === 'card' && p.description.includes(invoice.code))!;
      expect(cardPayment, 'the card payment of the invoice').toBeTruthy();

      // 3. Staff record a cash payment of a party's balance.
      const party = await partyWithBalance(
        term.parent,
        term.token,
        term.childId,
        viewport === 'phone' ? 30 : 26,
      );
      await staff.goto(`/admin/payments/record?party_booking=${party.id}`);
      const partyBox = staff.getByRole('checkbox', { name: new RegExp(`Party ${party.code}`) });
      await shows(partyBox, 'the party balance to pay');
      if (!(await partyBox.isChecked())) await partyBox.check();
      await pick(staff, 'Method', 'Cash');
      await staff.getByRole('textbox', { name: 'Amount' }).fill((party.balance / 100).toFixed(2));
      await staff.getByRole('textbox', { name: 'Reference' }).fill(`Till ${tag}`);
      await shot('4-record-party-balance');
      await staff.getByRole('button', { name: 'Record payment' }).click();
      await shows(staff.getByText(/recorded/i).first(), 'the payment recorded');

      // 4. Staff refund part of the card payment to the card.
      await staff.goto(`/admin/payments/${cardPayment.id}`);
      await staff.getByRole('button', { name: 'Refund', exact: true }).click();
      const dialog = staff.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Amount' }).fill('20.00');
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('Missed the first class');
      await shot('5-refund');
      await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
      // The action's answer shows above the payment (a refusal would show in its place).
      await shows(
        staff.getByRole('status').filter({ hasText: 'Refund of $20.00 sent to the card' }),
        'the refund sent',
      );

      // 5. Staff issue a credit note on the invoice.
      await staff.goto(`/admin/invoices/${invoice.id}`);
      await staff.getByRole('button', { name: 'Issue a credit note' }).click();
      const note = staff.getByRole('form', { name: 'Issue a credit note' });
      await note.getByRole('textbox', { name: 'Amount' }).fill('15.00');
      await note.getByRole('textbox', { name: 'Reason' }).fill('Closure day not charged');
      await note.getByRole('button', { name: 'Issue credit note' }).click();
      await shows(staff.getByText(/^Credit note CN-/).first(), 'the credit note on the invoice');

      // The family's Account page (Parents › the family › Account) shows it to staff too.
      const familyId = (await statementOf(term.parent)).family.id;
      await staff.goto(`/admin/parents/${familyId}`);
      await staff.getByRole('button', { name: 'Account', exact: true }).click();
      await expectAt(staff, `/admin/parents/${familyId}/family-account`);
      const staffLines = staff.getByLabel('Statement');
      await shows(
        staffLines.getByText(`Invoice ${invoice.code}`, { exact: false }).first(),
        'the invoice line',
      );
      await shows(staffLines.getByText('Refund to the card: Missed the first class').first(), 'the refund');
      await shot('6-family-account');
      if (viewport === 'desktop') {
        await staff.setViewportSize({ width: 1024, height: 768 });
        await expectFitsWidth(staff);
        await shot('6b-family-account-tablet');
        await staff.setViewportSize({ width: 1280, height: 800 });
      }

      // 6. The parent's statement shows all of it, with a running balance.
      const statement = await statementOf(term.parent);
      const mine = statement.entries.map((e) => `${e.kind} ${e.description} ${money(Math.abs(e.amount))}`);
      expect(mine).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^invoice Invoice ${invoice.code}`)),
          expect.stringMatching(new RegExp(`^payment Payment by Test card: Invoice ${invoice.code}`)),
          expect.stringMatching(/^payment Payment by Cash/),
          expect.stringMatching(/^refund Refund to the card: Missed the first class \$20\.00$/),
          expect.stringMatching(
            new RegExp(
              `^credit_note Credit note CN-\\d+ on invoice ${invoice.code}: Closure day not charged \\$15\\.00$`,
            ),
          ),
        ]),
      );
      await parent.goto('/admin/students/invoices');
      const lines = parent.getByLabel('Statement');
      await shows(lines.getByText('Refund to the card: Missed the first class').first(), 'the refund line');
      await shows(lines.getByText(/^Credit note CN-\d+ on invoice/).first(), 'the credit note line');
      await shows(lines.getByText(/^Payment by Cash/).first(), 'the cash payment of the party balance');
      await expectFitsWidth(parent);
      await parentShot(parent, '7-parent-statement');
      await parent.goto('/admin/students/payments');
      await shows(
        parent.getByText('$20.00 refunded to the card', { exact: false }).first(),
        'the refund under its payment',
      );
      await shows(
        parent.getByText(`Birthday party balance`, { exact: false }).first(),
        'the party balance payment',
      );
      await parentShot(parent, '8-parent-payments');
      const pdf = await fetch(`${baseUrl()}/api/v1/students/statement/pdf`, {
        headers: { Authorization: `Bearer ${term.parent}` },
      });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
    } finally {
      await parentContext.close();
    }
  }, 300_000);
});
