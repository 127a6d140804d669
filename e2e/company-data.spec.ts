import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff, topShot, uniqueTag } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { baseUrl } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

/**
 * A company's data (issue 18): the admin downloads everything as a zip of CSV files, then erases a
 * family (invited through the API for this run) from the family's page with a reason and the typed word.
 */

const browser = useBrowser();
useCompany();

async function api(method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return response.json() as Promise<unknown>;
}

describe.each(bothViewports)('company data (%s)', (viewport) => {
  const fixture = usePage('company-data', viewport, browser);

  it('the admin downloads all the data as a zip of CSV files', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Company data', '/admin/company-data');
    await expectFitsWidth(page);
    await shot('1-page');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all data' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('company-data.zip');
    const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    const names = Object.keys(zip);
    for (const table of ['companies.csv', 'users.csv', 'children.csv', 'bookings.csv', 'invoices.csv'])
      expect(names).toContain(table);
    expect(names.filter((n) => n.endsWith('.csv')).length).toBeGreaterThan(40);
    const users = new TextDecoder().decode(zip['users.csv']);
    expect(users.split('\r\n')[0]).not.toContain('password_hash');
    expect(users).toContain(company().admin.email);
  }, 120_000);

  it('the admin erases a family from its page, with a reason and the typed confirmation', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport);
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const forms = (await api('GET', '/api/v1/admin/students/invite/forms', token)) as { key: string }[];
    const name = `Erin Erasable ${tag}`;
    await api('POST', '/api/v1/admin/students/invite', token, {
      full_name: name,
      email: `erin.${tag.toLowerCase().replace(/\W/g, '')}@erase.test`,
      form_key: forms[0]!.key,
      children: [{ first_name: 'Eraskid', last_name: `Gone${tag}`, dob: '2019-05-01' }],
    });
    const found = (await api(
      'GET',
      `/api/v1/admin/students?q=${encodeURIComponent(name)}&sort=name&dir=asc&page=1`,
      token,
    )) as {
      rows: { family: { id: number } }[];
    };
    const familyId = found.rows[0]!.family.id;

    await signInAsStaff(page);
    await page.goto(`/admin/parents/${familyId}`);
    await page.getByRole('button', { name: 'Erase family', exact: true }).click();
    await expectAt(page, `/admin/parents/${familyId}/erase-family`);
    await shows(page.getByRole('heading', { level: 1, name: 'Erase family' }), 'the erase page');
    const erase = page.getByRole('button', { name: 'Erase family' });
    await page.getByRole('textbox', { name: 'Reason' }).fill('The parent asked by email to be forgotten');
    expect(await erase.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Type ERASE to confirm' }).fill('ERASE');
    await expectFitsWidth(page);
    await shot('2-erase-form');
    await erase.click();
    await shows(page.getByText(`the family now shows as Erased family ${familyId}`), 'the erased notice');
    await shot('3-erased');

    const after = (await api(
      'GET',
      `/api/v1/admin/students?q=${encodeURIComponent(name)}&sort=name&dir=asc&page=1`,
      token,
    )) as {
      rows: unknown[];
    };
    expect(after.rows).toEqual([]);
    expect(f.takeDialogs()).toEqual([]);
  }, 120_000);
});
