import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { goViaSidebar, idFromUrl, signInAsStaff } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

/**
 * Contacts (issue 16): staff add a lead, move it to a stage, note a call and convert it to a family;
 * a parent who is not ready to enrol sends an enquiry from the public registration form, and it
 * arrives in Contacts. The spec's company (a copy of the demo): seed/crm-demo.ts (five leads, two
 * follow-ups due).
 */

const browser = useBrowser();
useCompany();
const formPath = () => `/registration/?f=term-classes&authhash=${company().authhash}`;

type Contacts = { contacts: { id: number; full_name: string; source: string; stage: string }[] };

describe.each(bothViewports)('contacts (%s)', (viewport) => {
  const fixture = usePage('crm', viewport, browser);
  const tag = `${viewport}${randomBytes(3).toString('hex')}`;

  it('a lead is added, moved to a stage, noted and converted to a family', async () => {
    const { page, shot } = fixture();
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Contacts', '/admin/contacts');
    // The seeded leads, with the follow-ups due counted (the phone run also counts the enquiry the
    // desktop run sent before it).
    await shows(page.getByText(/^Follow-up due \(\d+\)$/), 'the follow-ups due');
    await shows(page.getByText('Olivia Chen').filter({ visible: true }).first(), 'the seeded enquiry');
    await expectFitsWidth(page);
    await shot('1-list');

    await page.getByRole('link', { name: 'Add a lead' }).click();
    await shows(page.getByRole('heading', { level: 1, name: 'Add a lead' }), 'the new lead form');
    // Nothing to reach them by: refused on the field.
    await page.getByRole('textbox', { name: 'Parent’s name' }).fill(`Robin ${tag}`);
    await page.getByRole('button', { name: 'Add lead' }).click();
    await shows(page.getByText('Enter an email address or a phone number.'), 'the email-or-phone message');
    await page.getByRole('textbox', { name: 'Email' }).fill(`robin.${tag}@example.test`);
    await page.getByRole('textbox', { name: 'Child 1 name' }).fill('Sky');
    await page.getByRole('textbox', { name: 'Age' }).fill('5');
    await page.getByRole('textbox', { name: 'Interest' }).fill('Kinder gym');
    await page.getByRole('combobox', { name: 'Source' }).click();
    await page.getByRole('option', { name: 'Facebook', exact: true }).click();
    await page.getByRole('textbox', { name: 'Note' }).fill('Messaged us on Facebook about Saturdays.');
    await expectFitsWidth(page);
    await shot('2-new-lead', { fullPage: true });
    await page.getByRole('button', { name: 'Add lead' }).click();
    const id = await idFromUrl(page, '/admin/contacts');
    await shows(page.getByRole('heading', { level: 1, name: `Robin ${tag}` }), 'the lead’s page');

    // Moved to a stage, with a note of the call.
    await page.getByRole('combobox', { name: 'Stage' }).click();
    await page.getByRole('option', { name: 'Trial booked', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(page.getByText(`Robin ${tag} saved.`), 'the saved message');
    await page.getByRole('textbox', { name: 'New note' }).fill('Called: trial on Saturday at 9.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await shows(
      page.getByTestId('contact-notes').getByText('Called: trial on Saturday at 9.'),
      'the new note',
    );
    await expectFitsWidth(page);
    await shot('3-stage-and-note', { fullPage: true });

    // Converted: the child needs a date of birth for the family account.
    await page.getByRole('button', { name: 'Convert to a family' }).click();
    await shows(page.getByText('Enter the child’s date of birth.'), 'the date of birth message');
    await page.getByLabel('Date of birth', { exact: true }).fill('2020-06-01');
    await page.getByRole('button', { name: 'Convert to a family' }).click();
    const converted = page.getByTestId('converted');
    await shows(converted, 'the converted notice');
    expect(await converted.textContent()).toContain(`This lead is the family of Robin ${tag}`);
    await shows(page.getByText('Won', { exact: true }).first(), 'the won stage');
    await expectFitsWidth(page);
    await shot('4-converted', { fullPage: true });

    // The family exists with its child, and its invitation is in the outbox.
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const lead = await apiOk<{ contact: { parent_id: number; stage: string } }>(
      'GET',
      `/api/v1/admin/contacts/${id}`,
      { token },
    );
    expect(lead.contact.stage).toBe('Won');
    expect(lead.contact.parent_id).toBeGreaterThan(0);
  });

  it('an enquiry from the public registration form arrives in Contacts', async () => {
    const { page, shot } = fixture();
    await page.goto(formPath());
    await shows(page.getByRole('heading', { level: 1, name: 'Term classes' }), 'the registration form');
    await page.getByRole('button', { name: 'Not ready to enrol? Enquire' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send an enquiry' });
    await shows(dialog, 'the enquiry form');
    await dialog.getByRole('button', { name: 'Send enquiry' }).click();
    await shows(dialog.getByText('Enter your name.'), 'the name message');
    await dialog.getByRole('textbox', { name: 'Your name' }).fill(`Mia ${tag}`);
    await dialog.getByRole('textbox', { name: 'Email' }).fill(`mia.${tag}@example.test`);
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('0411 222 333');
    await dialog.getByRole('textbox', { name: 'Child 1 first name' }).fill('Leo');
    await dialog.getByRole('textbox', { name: 'Child 1 age' }).fill('4');
    await dialog
      .getByRole('textbox', { name: 'Message' })
      .fill('Do you have Saturday classes for a 4 year old?');
    await shot('5-enquiry');
    await dialog.getByRole('button', { name: 'Send enquiry' }).click();
    await shows(
      dialog.getByText('Thank you! We have your enquiry and will be in touch soon.'),
      'the thank-you',
    );
    await shot('6-enquiry-sent');

    const token = await apiSignIn(company().admin.email, company().admin.password);
    const found = await apiOk<Contacts>(
      'GET',
      `/api/v1/admin/contacts?q=${encodeURIComponent(`mia.${tag}`)}`,
      {
        token,
      },
    );
    expect(found.contacts).toMatchObject([{ full_name: `Mia ${tag}`, source: 'Enquiry form', stage: 'New' }]);
    await signInAsStaff(page);
    await page.goto(`/admin/contacts/${found.contacts[0]!.id}`);
    await shows(
      page.getByText('Do you have Saturday classes for a 4 year old?'),
      'the enquiry’s message as a note',
    );
    await expectFitsWidth(page);
    await shot('7-enquiry-contact', { fullPage: true });
  });
  it('CRM settings: a new lead source, ordered, is saved and offered on a lead', async () => {
    const { page, shot } = fixture();
    const source = `Flyer ${tag}`;
    await signInAsStaff(page);
    await page.goto('/admin/settings/crm');
    await shows(page.getByRole('heading', { level: 1, name: 'CRM settings' }), 'the CRM settings page');
    await shows(page.getByRole('textbox', { name: 'Stage 1', exact: true }), 'the stages');
    // The enquiry form's source cannot be removed.
    const sources = await page.getByRole('textbox', { name: /^Source \d+$/ }).count();
    const enquiry = await page
      .getByRole('textbox', { name: /^Source \d+$/ })
      .evaluateAll((inputs) => inputs.findIndex((i) => (i as HTMLInputElement).value === 'Enquiry form'));
    expect(await page.getByRole('button', { name: 'Remove Enquiry form' }).isDisabled()).toBe(true);
    expect(enquiry).toBeGreaterThanOrEqual(0);
    await page.getByRole('button', { name: 'Add a source' }).click();
    await page.getByRole('textbox', { name: `Source ${sources + 1}`, exact: true }).fill(source);
    await page.getByRole('button', { name: `Move ${source} up` }).click();
    await expectFitsWidth(page);
    await shot('8-settings', { fullPage: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(page.getByText('The lead sources and stages are saved.'), 'the saved message');

    await page.goto('/admin/contacts/new');
    await page.getByRole('combobox', { name: 'Source' }).click();
    await shows(page.getByRole('option', { name: source, exact: true }), 'the new source on a lead');
  });
});

// The reports' layout does not change with the width (a phone scrolls each table inside its card).
describe.each(staffViewport)('contacts in the reports (%s)', (viewport) => {
  const fixture = usePage('crm', viewport, browser);

  it('the trial conversions and enrolment comparison reports count leads by source', async () => {
    const { page, shot } = fixture();
    await signInAsStaff(page);
    await page.goto('/admin/reports/trial-conversions');
    const leads = page.getByRole('table', { name: 'Leads by source (Contacts added in the period)' });
    await shows(leads, 'the leads by source');
    // The seeded referral became the Walker family: 1 of 1, 100%.
    await shows(
      leads.getByRole('row').filter({ hasText: 'Referral' }).filter({ hasText: '100' }),
      'the referral row',
    );
    await leads.scrollIntoViewIfNeeded();
    await shot('9-trial-report');
    await page.goto('/admin/reports/enrollment-comparison');
    await shows(
      page.getByRole('table', { name: /^Leads that became a family, by lead source/ }),
      'conversions by source',
    );
  });
});
