import { describe, expect, it } from 'vitest';
import { signInAsStaff, uniqueTag } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { baseUrl } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

/**
 * Merging a duplicate family (issue 17): the spec invites two families through the API (the same
 * parent entered twice, each with a child), then staff open the duplicate's merge page, find the
 * family to keep, preview what moves and merge.
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
  return response.json() as Promise<Record<string, unknown>>;
}

describe.each(bothViewports)('merging a duplicate family (%s)', (viewport) => {
  const fixture = usePage('merge', viewport, browser);

  it('staff preview and merge a family entered twice', async () => {
    const { page, shot } = fixture();
    const tag = uniqueTag(viewport);
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const forms = (await api('GET', '/api/v1/admin/students/invite/forms', token)) as unknown as {
      key: string;
    }[];
    const invite = (name: string, child: string) =>
      api('POST', '/api/v1/admin/students/invite', token, {
        full_name: name,
        email: `${name.toLowerCase().replaceAll(' ', '.')}@merge.test`,
        form_key: forms[0]!.key,
        children: [{ first_name: child, last_name: `Mergeson${tag}`, dob: '2019-05-01' }],
      });
    await invite(`Dana Dup ${tag}`, 'Dupkid');
    await invite(`Kim Kept ${tag}`, 'Keptkid');
    const found = (await api(
      'GET',
      `/api/v1/admin/students?q=Dana%20Dup%20${tag}&sort=name&dir=asc&page=1`,
      token,
    )) as {
      rows: { family: { id: number } }[];
    };
    const duplicateId = found.rows[0]!.family.id;

    await signInAsStaff(page);
    await page.goto(`/admin/students/merge?parent=${duplicateId}`);
    await shows(page.getByRole('heading', { level: 1, name: 'Merge into another family' }), 'the merge page');
    await page.getByRole('textbox', { name: 'Find the family to keep' }).fill(`Kim Kept ${tag}`);
    await page.getByRole('radio', { name: new RegExp(`Kim Kept ${tag}`) }).check();
    await page.getByRole('button', { name: 'Preview' }).click();
    const moved = page.getByRole('table', { name: 'What moves' });
    await shows(moved.getByRole('cell', { name: 'children', exact: true }), 'the child moves');
    await shows(page.getByText(/can no longer sign in/), 'the duplicate is disabled');
    await expectFitsWidth(page);
    await shot('1-preview');

    await page.getByRole('button', { name: 'Merge' }).click();
    await shows(page.getByText('Merged', { exact: true }), 'merged');
    await shot('2-merged');

    const after = (await api(
      'GET',
      `/api/v1/admin/students?q=Mergeson${tag}&sort=name&dir=asc&page=1`,
      token,
    )) as {
      rows: { name: string; family: { name: string } }[];
    };
    expect(after.rows.map((r) => r.family.name)).toEqual([`Kim Kept ${tag}`, `Kim Kept ${tag}`]);
  });
});
