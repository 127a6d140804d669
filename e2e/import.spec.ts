import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff } from './support/admin.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

/**
 * Importing families (issue 17): staff choose an iClassPro export with a bad date and a row
 * without an email; the check lists both rows in words and nothing is imported. With the fixed
 * file the check lists what it will do, the import runs and says what it brought in. Each viewport
 * imports its own emails ({viewport} in the fixtures), so the two runs do not meet.
 */

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const csv = (name: string, viewport: string) => ({
  name: `${name}.csv`,
  mimeType: 'text/csv',
  buffer: Buffer.from(
    readFileSync(path.join(fixtures, `${name}.csv`), 'utf8').replaceAll('{viewport}', viewport),
  ),
});

async function choose(page: Page, file: ReturnType<typeof csv>) {
  await page.locator('input[type="file"]').setInputFiles(file);
  await shows(page.getByRole('heading', { name: 'Columns (4 rows)' }), 'the file’s columns');
}

const browser = useBrowser();
useCompany();

describe.each(bothViewports)('importing families from a CSV (%s)', (viewport) => {
  const fixture = usePage('import', viewport, browser);

  it('a bad row is listed by the check; the fixed file imports every family at once', async () => {
    const { page, shot } = fixture();
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Import families', '/admin/import');

    await choose(page, csv('import-families-bad', viewport));
    // The iClassPro columns are recognised: the mapping is filled in.
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Date of birth' }).inputValue())
      .toBe('Birth Date');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Class to enrol in' }).inputValue())
      .toBe('Class');
    await shot('1-columns');

    await page.getByRole('button', { name: 'Check the file' }).click();
    const check = page.locator('[aria-label="Check"]');
    await shows(check.getByText('2 problems to fix'), 'the problems');
    await shows(check.getByText('Row 4: the date of birth 31/02/2018 is not a date'), 'the bad date');
    await shows(check.getByText('Row 5: no parent email'), 'the missing email');
    await expect.poll(() => page.getByRole('button', { name: /^Import/ }).count()).toBe(0);
    await expectFitsWidth(page);
    await shot('2-problems', { fullPage: true });

    await choose(page, csv('import-families-fixed', viewport));
    await page.getByRole('button', { name: 'Check the file' }).click();
    await shows(page.getByText('Ready to import'), 'a clean check');
    await shows(
      page.getByText(
        `Rows 2, 3: new family Priya Nair (priya.${viewport}@example.test) with 2 children, 1 class place`,
      ),
      'Priya’s family',
    );
    await shot('3-ready', { fullPage: true });

    await page.getByRole('button', { name: 'Import 4 rows' }).click();
    await shows(
      page.getByText(
        '3 families, 4 children and 1 class place imported; 3 invitations to set a password on the way.',
      ),
      'the summary',
    );
    await expectFitsWidth(page);
    await shot('4-imported', { fullPage: true });
  });
});
