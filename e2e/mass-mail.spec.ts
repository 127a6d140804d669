import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PREVIOUS_TERM } from '../apps/server/src/seed/reports-demo.ts';
import { signInAsStaff } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import { worker } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

/**
 * Mass mail (issue 16): staff compose a mail to the families of one class, see the live count,
 * send it and watch its progress and each family's status; the mail reaches the local SMTP server
 * (e2e/global-setup.ts writes each message to `mailDir`), and its unsubscribe link works.
 * The spec's company (a copy of the demo): this term's Kinder Gym Wednesday (the Nguyen and Chen
 * families, seed/classes-demo.ts). The phone run finds the class without the family the desktop
 * run unsubscribed: the audience is asked of the API at the start of each run.
 */

const browser = useBrowser();
useCompany();
const CLASS = 'Kinder Gym Wednesday';

/** The mails the SMTP server received whose raw text contains `tag`. */
async function receivedWith(tag: string): Promise<string[]> {
  const dir = worker().mailDir;
  const files = await readdir(dir);
  const mails = await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
  return mails.filter((raw) => raw.includes(tag));
}

describe.each(bothViewports)('mass mail (%s)', (viewport) => {
  const fixture = usePage('mass-mail', viewport, browser);
  const tag = `MM${viewport === 'phone' ? 'P' : 'D'}${Date.now().toString(36)}`;

  it('composes a mail to one class, sends it, follows it, and the unsubscribe link works', async () => {
    const { page, shot } = fixture();
    const token = await apiSignIn(company().admin.email, company().admin.password);
    type Options = { classes: { value: string; label: string }[] };
    const options = await apiOk<Options>('GET', '/api/v1/communications/options', { token });
    type Audience = { count: number; families: { name: string; email: string }[] };
    const audienceOf = (classId: string) =>
      apiOk<Audience>('POST', '/api/v1/communications/audience', {
        token,
        body: { filter: { class_ids: [Number(classId)] }, marketing: true },
      });
    // The class runs in two terms of the seed (last term's and this term's): this term's.
    const thisTerm = options.classes.filter(
      (c) => c.label.startsWith(`${CLASS} (`) && c.label !== `${CLASS} (${DEMO_PREVIOUS_TERM})`,
    );
    expect(thisTerm, `this term's ${CLASS}`).toHaveLength(1);
    const klass = thisTerm[0]!;
    const expected = await audienceOf(klass.value);
    expect(expected.count, `${CLASS} with families in the company`).toBeGreaterThan(0);

    await signInAsStaff(page);
    await page.goto('/admin/communications');
    await shows(page.getByRole('heading', { name: 'Mass mail', level: 1 }), 'the mass mail list');
    await page.getByRole('link', { name: 'New mass mail' }).click();
    await shows(page.getByRole('heading', { name: 'New mass mail', level: 1 }), 'the compose page');

    await page
      .getByRole('textbox', { name: 'Subject' })
      .fill(`Wednesday news ${tag} for {parent_first_name}`);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.click();
    await message.pressSequentially('Hello ');
    await page.getByRole('button', { name: 'Insert placeholder' }).click();
    await page.getByRole('menuitem', { name: /Children's first names/ }).click();
    await message.pressSequentially(' brings a drink bottle on Wednesday.');

    // Every family first; then the class: the count follows.
    const count = page.getByTestId('audience-count');
    await expect.poll(() => count.textContent(), { timeout: UI_TIMEOUT }).toMatch(/^\d+ famil/);
    await page.getByRole('combobox', { name: 'Class', exact: true }).click();
    await page.getByRole('option', { name: klass.label, exact: true }).click();
    await page.keyboard.press('Escape');
    const families = `${expected.count} ${expected.count === 1 ? 'family' : 'families'}`;
    await expect.poll(() => count.textContent(), { timeout: UI_TIMEOUT }).toBe(families);
    const recipients = page.getByRole('table', { name: 'Recipients' });
    for (const family of expected.families)
      await shows(recipients.getByRole('cell', { name: family.name, exact: true }), family.name);
    await expectFitsWidth(page);
    await shot('1-compose', { fullPage: true });

    await page.getByRole('button', { name: `Send to ${families}` }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: UI_TIMEOUT })
      .toMatch(/^\/admin\/communications\/\d+$/);
    // The job writes the families' mails, the outbox delivers them; the page polls.
    const progress = page.getByTestId('progress-text');
    await expect
      .poll(() => progress.textContent(), { timeout: 90_000, interval: 1000 })
      .toMatch(new RegExp(`^${expected.count} of ${expected.count} sent`));
    const statuses = page.getByRole('table', { name: 'Recipients' });
    await expect.poll(() => statuses.getByText('Sent', { exact: true }).count()).toBe(expected.count);
    await expectFitsWidth(page);
    await shot('2-sent', { fullPage: true });
    const mailPath = new URL(page.url()).pathname;
    await page.goto('/admin/communications');
    const list = page.getByRole('table', { name: 'Mass mails' });
    const listed = list.getByRole('row').filter({ hasText: `Wednesday news ${tag}` });
    await shows(
      listed.getByText(`${expected.count} of ${expected.count}`),
      'the mail with its progress in the list',
    );
    await expectFitsWidth(page);
    await shot('3-list');
    expect(mailPath).toMatch(/^\/admin\/communications\/\d+$/);

    // Received by the local SMTP server, one per family, with the names filled in.
    await expect.poll(async () => (await receivedWith(tag)).length, { timeout: 30_000 }).toBe(expected.count);
    const mails = await receivedWith(tag);
    // Long header lines are folded onto the next line (RFC 5322): unfold before reading them.
    const first = mails[0]!.replace(/\r?\n[ \t]+/g, ' ');
    expect(first).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    const link = /List-Unsubscribe:\s*<([^>]+)>/.exec(first)?.[1];
    expect(link, 'the unsubscribe link').toBeTruthy();

    // The family opens the link and confirms.
    await page.goto(new URL(link!).pathname);
    await shows(page.getByRole('heading', { name: 'Unsubscribe' }), 'the unsubscribe page');
    await shot('4-unsubscribe');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await shows(page.getByText('You are unsubscribed'), 'the confirmation');
    await shows(
      page.getByText(`${company().name} will not send you marketing emails any more.`, { exact: false }),
      'who',
    );
    await expectFitsWidth(page);
    await shot('5-unsubscribed');
  }, 180_000);
});
