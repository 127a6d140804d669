import { describe, expect, it } from 'vitest';
import { addDays, setSwitch, signInAsStaff } from './support/admin.ts';
import { apiSignIn, uniqueEmail } from './support/api.ts';
import { apiOk, testCards } from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows, submitSignIn } from './support/ui.ts';

/**
 * Autopay (issue 15): a parent saves the test card on the provider's page and turns autopay on.
 * A new family for each width, so each starts with no card saved (and the autopay job charges
 * none of the seeded families' invoices). The job itself is covered by
 * features/billing/autopay.int.test.ts with an injected clock; here the page the failure mails
 * link to: sign in, then the saved-card page.
 */

const browser = useBrowser();
useCompany();
const AUTOPAY = 'Pay my invoices and instalments automatically on their due date';

describe.each(bothViewports)('saved card and autopay (%s)', (viewport) => {
  const fixture = usePage('autopay', viewport, browser);

  it('a parent saves the test card 4242 and turns autopay on', async () => {
    const { page, shot } = fixture();
    const email = uniqueEmail('autopay', viewport);
    const password = 'autopay pass 123';
    const signup = await apiOk<{ valid: boolean }>('POST', '/api/v1/students/signup', {
      body: {
        authhash: company().authhash,
        full_name: `Alex Autopay ${viewport}`,
        email,
        phone: '0400 000 123',
        password,
      },
    });
    expect(signup.valid).toBe(true);

    // The "update your card" link of a failure mail: sign in, then the saved-card page.
    await page.goto(
      `/admin/students/login?authhash=${company().authhash}&redirect=%2Fadmin%2Fstudents%2Fcard`,
    );
    await submitSignIn(page, email, password);
    await expectAt(page, '/admin/students/card');
    await shows(page.getByText('No card saved.'), 'no card yet');
    expect(await page.getByRole('switch', { name: AUTOPAY }).count()).toBe(0);
    await expectFitsWidth(page);
    await shot('1-no-card');

    await page.getByRole('button', { name: 'Save a card' }).click();
    await expectAt(page, '/payments/test');
    await shows(page.getByRole('button', { name: 'Save card' }), 'the test card page in save-a-card mode');
    await page.getByRole('textbox', { name: 'Card number' }).fill(testCards.pays);
    await page.getByRole('textbox', { name: 'Expiry' }).fill('12/39');
    await page.getByRole('textbox', { name: 'CVC' }).fill('123');
    await shot('2-card-page');
    await page.getByRole('button', { name: 'Save card' }).click();

    await expectAt(page, '/admin/students/card');
    await shows(page.getByText('Your card has been saved.'), 'the saved notice');
    await shows(page.getByText(/^Visa •••• 4242, expires \d\d\/\d{4}$/), 'the saved card');
    await shows(page.getByRole('button', { name: 'Replace card' }), 'Replace card');
    await expectFitsWidth(page);
    await shot('3-card-saved');

    const toggle = page.getByRole('switch', { name: AUTOPAY });
    expect(await toggle.isChecked()).toBe(false);
    await setSwitch(page, AUTOPAY, true);
    await shows(page.getByText('Autopay is on.'), 'autopay on');
    expect(await toggle.isChecked()).toBe(true);
    // Still on after a reload: the server kept it.
    await page.reload();
    await shows(page.getByText(/^Visa •••• 4242/), 'the saved card after a reload');
    expect(await page.getByRole('switch', { name: AUTOPAY }).isChecked()).toBe(true);
    await shot('4-autopay-on');
  });

  it('staff see a discreet "Payment overdue" dot on the roll entry of a child whose family autopay failed', async () => {
    const { page, shot } = fixture();
    // The Walker family's autopay failed on every attempt (seed/autopay-demo.ts); Ruby is in Kinder
    // Gym on Monday, Tuesday and Saturday (seed/classes-demo.ts), not Wednesday.
    const rubys = (s: { class_name: string; status: string }) =>
      /^Kinder Gym (Monday|Tuesday|Saturday)/.test(s.class_name) && s.status === 'scheduled';
    const token = await apiSignIn(company().admin.email, company().admin.password);
    type Day = { date: string; sessions: { id: number; class_name: string; status: string }[] };
    let day = await apiOk<Day>('GET', '/api/v1/admin/roll', { token });
    let session = day.sessions.find(rubys);
    for (let i = 1; i <= 14 && !session; i++) {
      day = await apiOk<Day>('GET', `/api/v1/admin/roll?date=${addDays(day.date, 1)}`, { token });
      session = day.sessions.find(rubys);
    }
    expect(session, "a session of one of Ruby's Kinder Gym classes in the next two weeks").toBeTruthy();

    await signInAsStaff(page);
    await page.goto(`/admin/roll/${session!.id}`);
    const ruby = page.getByRole('region', { name: 'Ruby Walker' });
    await shows(ruby, "Ruby's roll entry");
    const dot = ruby.getByRole('img', { name: 'Payment overdue' });
    await shows(dot, 'the payment overdue dot');
    // Only a dot on the card: the words are in its tooltip, for staff who look.
    expect(await ruby.getByText('Payment overdue').count()).toBe(0);
    await dot.hover();
    await shows(page.getByRole('tooltip', { name: 'Payment overdue' }), 'the tooltip');
    await expectFitsWidth(page);
    await ruby.scrollIntoViewIfNeeded();
    await shot('5-roll-dot');
  });
});
