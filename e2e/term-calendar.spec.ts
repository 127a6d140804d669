import { describe, expect, it } from 'vitest';
import {
  fieldError,
  fillMoney,
  idFromUrl,
  input,
  save,
  setSwitch,
  signInAsStaff,
  toolbar,
  topShot,
} from './support/admin.ts';
import { useCompany } from './support/company.ts';
import {
  bothViewports,
  expectAt,
  staffViewport,
  UI_TIMEOUT,
  useBrowser,
  usePage,
} from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * Staff make a term from the built-in school calendar. Each width creates a different term (a
 * company refuses a second term of the same name over the same days), and neither is a NSW term
 * like the company's own running one.
 */
const created = {
  desktop: {
    region: 'Western Australia',
    term: 'Term 2',
    name: 'Term 2 2027',
    holiday: 'Western Australia Day',
  },
  phone: {
    region: 'Queensland',
    term: 'Term 3',
    name: 'Term 3 2027',
    holiday: 'Royal Queensland Show (Brisbane)',
  },
} as const;

// The preview is checked to fit the phone's width: both widths.
describe.each(bothViewports)('terms from the school calendar (%s)', (viewport) => {
  const fixture = usePage('term-calendar', viewport, browser);

  it('previews NSW Term 1 2027 with its Easter closures, then creates a term whose closures open', async () => {
    const current = fixture();
    const { page } = current;
    const shot = topShot(current);
    await signInAsStaff(page);
    await page.goto('/admin/terms');
    await shows(page.getByRole('heading', { level: 1, name: 'Terms', exact: true }), 'the terms list');
    await page
      .getByRole('toolbar', { name: 'Actions' })
      .getByRole('button', { name: 'From the school calendar' })
      .click();
    await expectAt(page, '/admin/terms/term-calendar');

    const pick = async (label: string, option: string) => {
      await page.getByRole('combobox', { name: label, exact: true }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await pick('State or territory', 'New South Wales');
    await pick('Year', '2027');
    await pick('Term', 'Term 1');
    const preview = page.getByLabel('Preview');
    await shows(preview.getByRole('cell', { name: 'Good Friday' }), 'Good Friday in the preview');
    await shows(preview.getByRole('cell', { name: 'Easter Monday' }), 'Easter Monday in the preview');
    await expectFitsWidth(page);
    await shot('preview');

    const made = created[viewport];
    await pick('State or territory', made.region);
    await pick('Term', made.term);
    await page.getByRole('button', { name: `Create ${made.name}` }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: UI_TIMEOUT, interval: 100 })
      .toMatch(/^\/admin\/terms\/\d+\/closures$/);
    await shows(
      page.getByRole('heading', { level: 1, name: `${made.name}: Closures` }),
      'the new term’s closures',
    );
    await shows(page.getByRole('row').filter({ hasText: made.holiday }), `the ${made.holiday} closure`);
    // The closures list is the engine's generic table, which scrolls sideways on a phone.
    await shot('closures');
  });
});

describe.each(staffViewport)('terms from the school calendar (%s)', (viewport) => {
  const fixture = usePage('term-calendar', viewport, browser);

  it('refuses a class type whose age range is backwards or whose trial has no price, on the fields', async () => {
    const current = fixture();
    const { page } = current;
    await signInAsStaff(page);
    await page.goto('/admin/class-types/add');
    await shows(page.getByRole('heading', { level: 1, name: 'Add Class type' }), 'the class type form');
    await input(page, 'Name').fill(`Kinder Gym ${viewport}`);
    await input(page, 'Age from (months)').fill('48');
    await input(page, 'Age to (months)').fill('36');
    await setSwitch(page, 'Trial class allowed', true);
    await save(page);
    expect(await fieldError(input(page, 'Age to (months)'))).toBe('Age to must be at least Age from.');
    expect(await fieldError(input(page, 'Trial price'))).toBe('Trial price is required.');
    await current.shot('class-type-errors', { fullPage: true });
  });

  it('keeps a uniform type with its sizes and stock', async () => {
    const current = fixture();
    const { page } = current;
    const shot = topShot(current);
    await signInAsStaff(page);
    await page.goto('/admin/uniform-types/add');
    await shows(page.getByRole('heading', { level: 1, name: 'Add Uniform type' }), 'the uniform type form');
    await input(page, 'Name').fill(`Club leotard ${viewport}`);
    await fillMoney(page, 'Price', '45');
    await save(page);
    await expectAt(page, '/admin/uniform-types');
    await page.getByRole('link', { name: `Club leotard ${viewport}`, exact: true }).click();
    const id = await idFromUrl(page, '/admin/uniform-types');
    await page.getByRole('tab', { name: 'Uniform sizes', exact: true }).click();
    await expectAt(page, `/admin/uniform-types/${id}/uniform-sizes`);
    await toolbar(page).getByRole('link', { name: 'Add uniform size' }).click();
    await input(page, 'Size').fill('Child 8');
    await input(page, 'In stock').fill('12');
    await save(page);
    await expectAt(page, `/admin/uniform-types/${id}/uniform-sizes`);
    await shows(page.getByRole('row').filter({ hasText: 'Child 8' }), 'the new size');
    await shot('uniform-sizes');
  });
});
