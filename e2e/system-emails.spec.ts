import { describe, expect, it } from 'vitest';
import { fieldError, goViaSidebar, notified, signInAsStaff, topShot, uniqueTag } from './support/admin.ts';
import { waitForMail } from './support/browser.ts';
import { closeNotifications } from './support/classes.ts';
import { company, person, useCompany } from './support/company.ts';
import { bothViewports, expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** Each viewport rewords its own kind, so the two runs never meet. */
const kindFor = {
  desktop: { label: 'Class cancellation', kind: 'class-session-cancelled' },
  phone: { label: 'Private lesson cancellation', kind: 'private-lesson-cancelled' },
} as const;

describe.each(bothViewports)('system emails and email settings (%s)', (viewport) => {
  const fixture = usePage('system-emails', viewport, browser);

  it('staff edit a system email, are told of an unknown placeholder, preview it, send a test and reset it', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport);
    const { label, kind } = kindFor[viewport];

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'System emails', '/admin/system-emails');
    for (const name of ['Account activation', 'Password reset', 'Invoice', 'Re-enrolment (rollover)'])
      await shows(page.getByRole('link', { name, exact: true }), `the ${name} email in the list`);
    await expectFitsWidth(page);
    await shot('1-list');

    await page.getByRole('link', { name: label, exact: true }).click();
    await expectAt(page, `/admin/system-emails/${kind}`);
    await shows(page.getByRole('heading', { level: 1, name: label }), 'the editor');
    await shows(page.getByRole('table', { name: 'Placeholders' }), 'the placeholders with what they mean');

    // A placeholder this email does not have is refused on the spot, with the ones it can use.
    const subject = page.getByRole('textbox', { name: 'Subject' });
    const body = page.getByRole('textbox', { name: 'Text' });
    await subject.fill(`${tag} no class on {{date}}`);
    await body.fill('Hello {{name}},\n\nWe are closed today, sorry {{teacher}}.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await fieldError(body)).toMatch(
      /^This email has no placeholder \{\{teacher\}\}\. It can use: \{\{/,
    );
    await shot('2-unknown-placeholder');

    await body.fill('Hello {{name}},\n\nWe are closed on {{date}}, sorry.\n\n');
    // Choosing a placeholder puts it in the text where the cursor is.
    await body.focus();
    await body.press('End');
    await page.getByRole('button', { name: 'Insert {{company}}' }).click();
    await expect.poll(() => body.inputValue()).toMatch(/\{\{company\}\}$/);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notified(page, 'now uses your wording');
    await shows(page.getByText('Your wording', { exact: true }).first(), 'the saved state');

    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const previewSubject = page.getByTestId('preview-subject');
    await shows(previewSubject, 'the preview');
    expect(await previewSubject.textContent()).toBe(`${tag} no class on Sat 17 Jan 2026`);
    const frame = page.frameLocator('iframe[title="Email preview"]');
    await shows(
      frame.getByText('We are closed on Sat 17 Jan 2026, sorry.'),
      'the sample data in the preview',
    );
    await shows(frame.getByText(company().name), 'the company name filled in');
    await expectFitsWidth(page);
    // As seen after Preview: on a phone the page has scrolled down to it (before topShot scrolls up).
    await f.shot('3-preview-in-view', { fullPage: false });
    await shot('3-preview');

    await closeNotifications(page);
    await page.getByRole('button', { name: 'Send me a test' }).click();
    await notified(page, `A test has been sent to ${company().admin.email}.`);
    await closeNotifications(page);
    const mail = await waitForMail(company().admin.email, `[Test] ${tag} no class on`, UI_TIMEOUT * 2);
    expect(mail.body).toContain('We are closed on Sat 17 Jan 2026, sorry.');

    await page.getByRole('button', { name: 'Reset to default' }).click();
    await notified(page, 'is back to the default');
    await expect.poll(() => subject.inputValue(), { timeout: UI_TIMEOUT }).not.toContain(tag);
    await shows(page.getByText('Default', { exact: true }).first(), 'the default state');
    await shot('4-reset');
  });

  it('staff set the sender name, reply-to and footer, and the test mail carries them', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const sender = `Demo Office ${uniqueTag(viewport)}`;

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Email settings', '/admin/settings/emails');
    const name = page.getByRole('textbox', { name: 'Sender name' });
    const replyTo = page.getByRole('textbox', { name: 'Reply-to address' });
    const footer = page.getByRole('textbox', { name: 'Footer' });
    await replyTo.fill('not an address');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await fieldError(replyTo)).toBe('Please enter a valid reply-to email address.');

    await name.fill(sender);
    const office = person('office');
    await replyTo.fill(office);
    await footer.fill(`Demo Gym, 1 Example St (${viewport})`);
    // Checked before saving: the notification slides in from beyond the window's edge.
    await expectFitsWidth(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notified(page, 'Every email now goes out with these settings.');
    await shot('5-settings');
    // On a phone the notification covers the buttons at the bottom.
    await closeNotifications(page);

    await page.getByRole('button', { name: 'Send me a test' }).click();
    await notified(page, `A test has been sent to ${company().admin.email}.`);
    await closeNotifications(page);
    // The newest test mail is this one once it has arrived (the other viewport sent one too).
    const newest = () => waitForMail(company().admin.email, '[Test] Email settings of', UI_TIMEOUT);
    await expect
      .poll(async () => (await newest()).body.includes(`From: ${sender}`), { timeout: UI_TIMEOUT * 2 })
      .toBe(true);
    const mail = await newest();
    expect(mail.body).toMatch(new RegExp(`^From: "?${sender}"? <`, 'm'));
    expect(mail.body).toMatch(new RegExp(`^Reply-To: ${office.replaceAll('.', '\\.')}`, 'm'));
    expect(mail.body).toContain(`Demo Gym, 1 Example St (${viewport})`);

    // Emptied again, the settings save: each of them is optional.
    await name.fill('');
    await replyTo.fill('');
    await footer.fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notified(page, 'Every email now goes out with these settings.');
  });
});
