import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fieldError,
  goViaSidebar,
  idFromUrl,
  input,
  isoDate,
  save,
  signInAsStaff,
  toolbar,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiCall, expectCardPage, payWith, testCards } from './support/booking.ts';
import { baseUrl } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import {
  bothViewports,
  expectAt,
  parentViewport,
  staffViewport,
  UI_TIMEOUT,
  useBrowser,
  usePage,
} from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * DD/MM/YYYY of a child who is three and a half on the company's today (its Kinder Gym age), and
 * `extra` months: each width's child paid for gets a date of birth of its own (signing in matches a
 * family's child by date of birth, and both widths pay as the same parent).
 */
function threeAndAHalf(extra = 0): string {
  const [y, m, d] = isoDate(new Date()).split('-').map(Number) as [number, number, number];
  const born = new Date(Date.UTC(y, m - 1 - 42 - extra, d));
  const dd = String(born.getUTCDate()).padStart(2, '0');
  const mm = String(born.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${born.getUTCFullYear()}`;
}

/** The snippet the form's page shows staff for the company's Term classes form. */
const termClassesSnippet = () =>
  `<script src="${baseUrl()}/embed/registration.js" data-form="term-classes" data-authhash="${company().authhash}" async></script>`;

/**
 * A provider's own website on another origin (localhost, not the app's 127.0.0.1, and another
 * port): a page with some text, the snippet from the form's admin page, and a footer after it.
 */
let site: Server;
let siteOrigin: string;
/** The script tag staff copied from the form's page (the website's owner pastes it in). */
let snippet = '';

function websitePage(): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo Gym website</title></head>
  <body style="margin:0;font-family:sans-serif">
    <header style="padding:16px;background:#234"><h1 style="color:#fff;margin:0">Demo Gym</h1></header>
    <main style="padding:16px">
      <p>Enrol in our term classes below.</p>
      ${snippet}
    </main>
    <footer id="footer" style="padding:16px;background:#eee">Demo Gym · 1 Example Street</footer>
  </body>
</html>`;
}

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(websitePage());
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  // The company lists the website among its embed origins (Classes › Embed origins).
  const token = await apiSignIn(company().admin.email, company().admin.password);
  const added = await apiCall('POST', '/api/v1/admin/embed-origins', { token, body: { origin: siteOrigin } });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  expect(added.body).toMatchObject({ valid: true });
});
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

/** The form's iframe in the website, what it shows, and how tall the website made it. */
function embedded(page: Page) {
  const iframe = page.locator('iframe[data-tumble-registration="term-classes"]');
  const frame = page.frameLocator('iframe[data-tumble-registration="term-classes"]');
  const inner = () =>
    page.frames().find((f) => f.url().startsWith(`${baseUrl()}/`) && f !== page.mainFrame());
  return {
    iframe,
    frame,
    height: async () => (await iframe.boundingBox())?.height ?? 0,
    /** The page inside is no taller than the frame: no scroll bar inside. */
    noInnerScroll: () =>
      inner()!.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1),
    /**
     * The other origin's frame paints what scrolls into view a frame or two after the page: both
     * have drawn two frames since.
     */
    painted: async () => {
      const twoFrames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await inner()!.evaluate(twoFrames);
      await page.evaluate(twoFrames);
    },
  };
}

// The frame grows and shrinks to each width's layout of the form: both widths.
describe.each(bothViewports)('registration form embedded in another website (%s)', (viewport) => {
  const fixture = usePage('registration-embed', viewport, browser);

  it('shows the form in an iframe that grows to its content height', async () => {
    const { page, shot } = fixture();
    // Staff copy the snippet from the form's page (Classes › Registration forms › Term classes).
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Registration forms', '/admin/registration-forms');
    await page.getByRole('link', { name: 'Term classes', exact: true }).click();
    const embed = page.locator('[data-section="embed"]');
    const tag = embed.getByText(/^<script src=/);
    await shows(tag, 'the embed snippet on the form’s page');
    snippet = (await tag.textContent()) ?? '';
    expect(snippet).toBe(termClassesSnippet());
    await embed.scrollIntoViewIfNeeded();
    await shot('0-form-page', { fullPage: false });

    await page.goto(`${siteOrigin}/`);
    const { iframe, frame, height: frameHeight, noInnerScroll, painted } = embedded(page);
    await shows(iframe, 'the iframe the snippet inserts');
    // Inserted right after the script, before the website's footer.
    expect(
      await iframe.evaluate((el) => el.compareDocumentPosition(document.getElementById('footer')!) & 4),
    ).toBe(4);
    expect(await iframe.getAttribute('src')).toBe(
      `${baseUrl()}/registration/?f=term-classes&authhash=${company().authhash}&embed=1`,
    );

    // A visitor sees the form inside the website right away.
    await shows(frame.getByRole('heading', { level: 1, name: 'Term classes' }), 'the form in the frame');
    const child = frame.getByRole('region', { name: 'Child 1', exact: true });
    await shows(child, 'the first child');

    // The frame's height follows the form (from the 600px the script starts with), no scroll bar inside.
    await expect.poll(frameHeight, { timeout: UI_TIMEOUT, interval: 100 }).not.toBe(600);
    await expect.poll(noInnerScroll, { timeout: UI_TIMEOUT, interval: 100 }).toBe(true);
    const first = await frameHeight();
    // Viewport pictures: a full-page capture does not paint a cross-origin frame below the fold.
    await shot('1-form', { fullPage: false });

    // A date of birth lists the classes for that age: the frame grows to them.
    const dob = child.getByRole('textbox', { name: 'Child’s date of birth' });
    await dob.fill(threeAndAHalf());
    // Close the date picker's calendar.
    await dob.press('Escape');
    await shows(child.getByRole('list'), 'the classes for the child’s age');
    await expect.poll(frameHeight, { timeout: UI_TIMEOUT, interval: 100 }).toBeGreaterThan(first + 200);
    await expect.poll(noInnerScroll, { timeout: UI_TIMEOUT, interval: 100 }).toBe(true);
    await shot('2-classes', { fullPage: false });
    await page.locator('#footer').scrollIntoViewIfNeeded();
    await painted();
    await shot('3-form-end', { fullPage: false });

    // Paying starts with signing in, inside the frame too (the company allows this website).
    await child.getByRole('listitem').first().getByRole('button', { name: 'Enrol', exact: true }).click();
    await frame.getByRole('button', { name: 'Sign in to pay' }).click();
    await shows(frame.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in in the frame');
    await painted();
    await shot('4-sign-in', { fullPage: false });
    await frame.getByRole('textbox', { name: 'Email address', exact: true }).fill(company().parent.email);
    await frame.getByRole('textbox', { name: 'Password', exact: true }).fill(company().parent.password);
    await frame.getByRole('button', { name: 'Sign In', exact: true }).click();
    await shows(frame.getByRole('heading', { level: 1, name: 'Term classes' }), 'the form again, signed in');
    await shows(frame.getByRole('region', { name: 'Child 1', exact: true }), 'the first child');
    // The signed-in form fills in the child and the class chosen before: wait for its height to settle.
    let last = -1;
    await expect
      .poll(
        async () => {
          const now = await frameHeight();
          const settled = now === last;
          last = now;
          return settled;
        },
        { timeout: UI_TIMEOUT, interval: 500 },
      )
      .toBe(true);
    await expect.poll(noInnerScroll, { timeout: UI_TIMEOUT, interval: 100 }).toBe(true);
    await page.locator('#footer').scrollIntoViewIfNeeded();
    await painted();
    await shot('5-signed-in-end', { fullPage: false });
  });

  it('a signed-out visitor signs in inside the frame (it fits each page) and pays with the test card', async () => {
    const { page, shot } = fixture();
    snippet ||= termClassesSnippet();
    await page.goto(`${siteOrigin}/`);
    const { frame, height, noInnerScroll, painted } = embedded(page);
    let child = frame.getByRole('region', { name: 'Child 1', exact: true });
    await shows(child, 'the form in the frame');

    // A date of birth, a class: the frame grows to the classes.
    const dob = child.getByRole('textbox', { name: 'Child’s date of birth' });
    await dob.fill(threeAndAHalf(viewport === 'desktop' ? 5 : 7));
    await dob.press('Escape');
    const open = child
      .getByRole('listitem')
      .filter({ has: frame.getByRole('button', { name: 'Enrol', exact: true }) })
      .first();
    await shows(open, 'a class with places');
    await open.getByRole('button', { name: 'Enrol', exact: true }).click();
    await shows(frame.getByTestId('visitor-total'), 'the price of the choice');
    await expect.poll(noInnerScroll, { timeout: UI_TIMEOUT, interval: 100 }).toBe(true);
    const withClasses = await height();

    // Sign in to pay: the sign-in page reports its height too, so the frame shrinks to it…
    await frame.getByRole('button', { name: 'Sign in to pay' }).click();
    await shows(frame.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in in the frame');
    await expect.poll(height, { timeout: UI_TIMEOUT, interval: 100 }).toBeLessThan(withClasses - 100);
    await expect.poll(noInnerScroll, { timeout: UI_TIMEOUT, interval: 100 }).toBe(true);
    const signIn = await height();
    await painted();
    await shot('9-sign-in-fits', { fullPage: false });
    // …grows to the longer sign-up page, and shrinks back with the sign-in page.
    await frame.getByRole('link', { name: 'Create an account' }).click();
    await shows(frame.getByRole('heading', { name: 'Create your parent account' }), 'the sign-up page');
    await expect.poll(height, { timeout: UI_TIMEOUT, interval: 100 }).toBeGreaterThan(signIn + 100);
    await expect.poll(noInnerScroll, { timeout: UI_TIMEOUT, interval: 100 }).toBe(true);
    await painted();
    await shot('10-sign-up-fits', { fullPage: false });
    await frame.getByRole('link', { name: 'Sign in', exact: true }).click();
    await shows(frame.getByRole('heading', { name: 'Parent Sign In' }), 'the sign-in again');
    // (Within a line's rounding: the phone's company name may wrap a pixel or two differently.)
    await expect
      .poll(async () => Math.abs((await height()) - signIn), { timeout: UI_TIMEOUT, interval: 100 })
      .toBeLessThanOrEqual(8);

    await frame.getByRole('textbox', { name: 'Email address', exact: true }).fill(company().parent.email);
    await frame.getByRole('textbox', { name: 'Password', exact: true }).fill(company().parent.password);
    await frame.getByRole('button', { name: 'Sign In', exact: true }).click();
    await shows(frame.getByRole('heading', { level: 1, name: 'Term classes' }), 'the form, signed in');
    await expect.poll(height, { timeout: UI_TIMEOUT, interval: 100 }).toBeGreaterThan(signIn + 100);

    // The class chosen before signing in, for a new child (kept in the page's memory: the browser
    // refuses the frame storage here); the question and the terms.
    child = frame.getByRole('region', { name: 'Child 1', exact: true });
    const firstName = `Em${viewport === 'desktop' ? 'Desk' : 'Phone'}${Date.now().toString(36)}`;
    await child.getByRole('textbox', { name: 'First name' }).fill(firstName);
    await child.getByRole('textbox', { name: 'Last name' }).fill('Parent');
    await child.getByRole('textbox', { name: 'Medical notes' }).fill('None');
    const total = frame.getByTestId('price-total');
    await expect
      .poll(() => total.textContent().catch(() => null), { timeout: UI_TIMEOUT, interval: 100 })
      .toMatch(/^\$\d+\.\d\d$/);
    await frame.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    const amount = (await total.textContent()) ?? '';

    // The test card page refuses to be framed: paying takes the whole window (Chromium lets the
    // frame do so on the parent's click), and its return is the full-page confirmation.
    await frame.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectCardPage(page, amount);
    await shot('11-card-page', { fullPage: false });
    await payWith(page, testCards.pays);
    await expect
      .poll(() => page.url(), { timeout: UI_TIMEOUT, interval: 100 })
      .toContain(
        `${baseUrl()}/registration/?f=term-classes&authhash=${company().authhash}&status=true&purchase=`,
      );
    await shows(page.getByRole('heading', { name: 'Enrolment confirmed!' }), 'the confirmation, full page');
    await shows(
      page.getByTestId('confirmation-places').getByText(`${firstName} Parent: `, { exact: false }),
      'the place paid for',
    );
    await shot('12-confirmed');
  });
});

describe.each(staffViewport)('registration form embedded in another website (%s)', (viewport) => {
  const fixture = usePage('registration-embed', viewport, browser);

  it('staff add a registration form: the key comes from its name, ages out of order are refused', async () => {
    const { page, shot } = fixture();
    const name = `Holiday classes ${viewport} ${Date.now().toString(36)}`;
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Registration forms', '/admin/registration-forms');
    await toolbar(page).getByRole('link', { name: 'Add registration form' }).click();
    await input(page, 'Name').fill(name);
    await input(page, 'Minimum age (months)').fill('60');
    await input(page, 'Maximum age (months)').fill('48');
    await input(page, 'Custom questions').fill('Shoe size *\nFavourite apparatus?');
    await save(page);
    expect(await fieldError(input(page, 'Maximum age (months)'))).toBe(
      'The maximum age must not be below the minimum age.',
    );
    await shot('7-form-refused');
    await input(page, 'Maximum age (months)').fill('72');
    await save(page);
    // Saved, the list shows it; its page has the key and the snippet.
    await expectAt(page, '/admin/registration-forms');
    await page.getByRole('link', { name, exact: true }).click();
    await idFromUrl(page, '/admin/registration-forms');
    await shows(page.getByRole('heading', { level: 1, name }), 'the new form’s page');
    const key = name.toLowerCase().replaceAll(' ', '-');
    await shows(page.getByText(key, { exact: true }), 'the key made from the name');
    await shows(
      page.locator('[data-section="embed"]').getByText(`data-form="${key}"`, { exact: false }),
      'its snippet',
    );
    await shot('8-form-saved');
  });
});

// Nothing of the form shows, at any width: once, on the visitor's phone.
describe.each(parentViewport)('registration form embedded in another website (%s)', (viewport) => {
  const fixture = usePage('registration-embed', viewport, browser);

  it('is refused inside a website the company did not list', async () => {
    const { page, shot } = fixture();
    snippet ||= termClassesSnippet();
    // The same page from 127.0.0.1 (another origin than the listed localhost one).
    const unlisted = siteOrigin.replace('localhost', '127.0.0.1');
    const answer = await page.goto(`${unlisted}/`);
    expect(answer?.ok()).toBe(true);
    const { iframe, frame } = embedded(page);
    await shows(iframe, 'the iframe the snippet inserts');
    // The browser blocks the framed page (CSP frame-ancestors): the frame holds its error page, never the form.
    await expect
      .poll(async () => (await (await iframe.elementHandle())?.contentFrame())?.url() ?? '', {
        timeout: UI_TIMEOUT,
        interval: 100,
      })
      .toMatch(/^chrome-error:/);
    expect(await frame.getByRole('heading', { name: 'Term classes' }).count()).toBe(0);
    await shot('6-refused', { fullPage: false });
  });
});
