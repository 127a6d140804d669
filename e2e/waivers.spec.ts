import { randomBytes } from 'node:crypto';
import { messages } from '@tumble/contracts/messages';
import { waiverMessages, waiverPaths } from '@tumble/contracts/waiver';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { goViaSidebar, search, signInAsStaff, toolbar, topShot } from './support/admin.ts';
import { storedToken } from './support/api.ts';
import {
  bookingText,
  bookNow,
  checkoutSigningIn,
  childBlock,
  datesOf,
  demoEvents,
  eventE,
  eventId,
  expectCardPage,
  fillNewChild,
  openEvent,
  payWith,
  pick,
  type SessionDays,
  sessionDays,
  sessionOn,
  settledPriceLines,
  testCards,
} from './support/booking.ts';
import { screenshot, type ViewportName } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, location, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, field, shows, signInAsParent } from './support/ui.ts';
import {
  type BookingIds,
  demoWaiver,
  expectPdfDownload,
  inkedPixels,
  newestBookingFor,
  signaturePad,
  signWithMouse,
  waiverLinkFromMail,
} from './support/waiver.ts';

const browser = useBrowser();
useCompany();
const camp = demoEvents.camp;

/** Two bookings, two confirmation mails (each may wait for the mail worker's sweep), a signature. */
const JOURNEY_TIMEOUT = 300_000;

/**
 * What each viewport's first test made, for the later tests. The child is new (a first name of
 * this viewport's own), so its first booking must be signed: a waiver is reused for the same
 * child, and the other viewport signs for a child of its own.
 */
interface Journey {
  firstName: string;
  child: string;
  /** The booking signed on the waiver page. */
  first: BookingIds;
  /** The later booking that reused the waiver. */
  second?: BookingIds;
}
const journeys: Partial<Record<ViewportName, Journey>> = {};

function journeyOf(viewport: ViewportName, needSecond = false): Journey & { second: BookingIds } {
  const journey = journeys[viewport];
  expect(journey, `the booking the first ${viewport} test made`).toBeDefined();
  if (needSecond) expect(journey?.second, `the second booking the ${viewport} test made`).toBeDefined();
  return journey as Journey & { second: string };
}

/**
 * The camp's last two Morning camp days, bookable: each viewport's child is booked on the first
 * of them, then on the second.
 */
function waiverDays(days: SessionDays): [string, string] {
  const dates = datesOf(days, camp.morning);
  expect(dates.length, 'Morning camp days in the demo camp').toBeGreaterThan(8);
  const [a, b] = dates.slice(-2) as [string, string];
  for (const date of [a, b]) {
    expect(sessionOn(days, date, camp.morning), `Morning camp on ${date}`).toMatchObject({
      status: 'bookable',
    });
  }
  return [a, b];
}

/**
 * Books one Morning camp day for one child with daily insurance and the test card, signing in at
 * the checkout; `chooseChild` picks the child in the checkout's 'Child 1' block.
 */
async function bookMorningCamp(
  page: Page,
  day: string,
  chooseChild: (block: Locator) => Promise<unknown>,
): Promise<void> {
  await openEvent(page, camp);
  await bookNow(page);
  await pick(page, day, camp.morning);
  await checkoutSigningIn(page, camp);
  const block = childBlock(page, 1);
  await chooseChild(block);
  await block.getByRole('radio', { name: /^Daily insurance/ }).check();
  await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
  await settledPriceLines(page);
  const total = (await page.getByTestId('price-total').textContent()) ?? '';
  expect(total).toMatch(/^\$\d+\.\d\d$/);
  await page.getByRole('button', { name: 'Confirm Payment' }).click();
  await expectCardPage(page, total);
  await payWith(page, testCards.pays);
  await expectAt(page, `/booking?authhash=${company().authhash}&e=${eventE(camp)}&status=true`);
  await shows(page.getByText(bookingText.bookingSuccessful, { exact: true }), "'Booking Successful!'");
}

/** The waiver page's card of one child ('Waiver for <name>'). */
function waiverSection(page: Page, child: string): Locator {
  return page.getByRole('region', { name: `Waiver for ${child}`, exact: true });
}

/** The waiver page's list of the booking's children with their state. */
function waiverPeople(page: Page): Locator {
  return page.getByRole('list', { name: 'Waivers', exact: true });
}

/** The end state of the waiver page: every child of the booking is covered. */
async function expectAllSigned(page: Page, child: string): Promise<void> {
  await shows(page.getByText(waiverMessages.allSigned, { exact: true }), `'${waiverMessages.allSigned}'`);
  await shows(page.getByText('1 of 1 signed', { exact: true }), "'1 of 1 signed'");
  const person = waiverPeople(page).getByRole('listitem').filter({ hasText: child });
  expect(await person.textContent()).toMatch(/Signed \d\d\/\d\d\/\d{4}$/);
  expect(await page.getByRole('button', { name: 'Sign waiver' }).count(), 'no form').toBe(0);
  expect(await signaturePad(page).count(), 'no signature pad').toBe(0);
}

describe.each(bothViewports)('waivers (%s)', (viewport) => {
  const fixture = usePage('waivers', viewport, browser);

  it(
    'after a camp booking the parent opens the waiver link from the mail and signs it with the mouse',
    async () => {
      const { page, shot } = fixture();
      const [day] = waiverDays(await sessionDays(camp));
      const firstName = `Wren${viewport === 'desktop' ? 'Desk' : 'Phone'}${randomBytes(3).toString('hex')}`;
      const child = `${firstName} Parent`;

      await bookMorningCamp(page, day, (block) =>
        fillNewChild(block, { firstName, lastName: 'Parent', dob: '14/06/2019' }),
      );
      const token = (await storedToken(page)) as string;
      expect(token).toMatch(/.{20,}/);
      const booking = await newestBookingFor(token, firstName);
      const { reference } = booking;
      journeys[viewport] = { firstName, child, first: booking };

      // The link of the confirmation mail, as the parent follows it.
      await page.goto(await waiverLinkFromMail(reference));
      const section = waiverSection(page, child);
      await shows(section, `the waiver for ${child}`);
      await shows(page.getByRole('heading', { level: 1, name: camp.name }), 'the event name');
      await shows(page.getByText('0 of 1 signed', { exact: true }), "'0 of 1 signed'");
      expect(await waiverPeople(page).getByRole('listitem').filter({ hasText: child }).textContent()).toBe(
        `${child}Signing now`,
      );
      await shows(section.getByRole('button', { name: 'Sign waiver' }), 'the waiver form');
      await shows(
        section.getByRole('heading', { name: demoWaiver.title }),
        `the waiver text '${demoWaiver.title}'`,
      );

      // The child's details and the parent's name come filled in.
      expect(await field(page, 'First name').inputValue()).toBe(firstName);
      expect(await field(page, 'Last name').inputValue()).toBe('Parent');
      expect(await field(page, 'Date of birth').inputValue()).toBe('14/06/2019');
      const signer = field(page, "Parent or guardian's full name");
      expect(await signer.inputValue()).toBe(company().parent.fullName);
      await field(page, 'Allergies').fill('None known');
      await field(page, 'Emergency contact (name and phone)').fill('Sam Parent 0400 000 000');

      // The signature, drawn with the mouse; the agreement ticked.
      const pad = signaturePad(page);
      expect(await inkedPixels(pad), 'the pad starts empty').toBe(0);
      const clear = section.getByRole('button', { name: 'Clear', exact: true });
      expect(await clear.isDisabled(), 'nothing to clear yet').toBe(true);
      await signWithMouse(page);
      expect(await clear.isEnabled(), 'Clear once signed').toBe(true);
      await section.getByRole('checkbox', { name: 'I have read and agree to this waiver' }).check();
      await expectFitsWidth(page);
      await shot('1-form');

      // Sign waiver: the form is posted with the drawing, the page says so and reloads a second later.
      await page.evaluate(() => {
        (window as unknown as { beforeReload?: boolean }).beforeReload = true;
      });
      const posted = page.waitForRequest(
        (request) => request.method() === 'POST' && new URL(request.url()).pathname === waiverPaths.event.api,
      );
      const reloaded = page.waitForEvent('load', { timeout: 30_000 });
      await section.getByRole('button', { name: 'Sign waiver' }).click();
      const request = await posted;
      expect(request.postDataJSON()).toMatchObject({
        id: reference,
        first_name: firstName,
        last_name: 'Parent',
        dob: '2019-06-14',
        allergies: 'None known',
        emergency_contact: 'Sam Parent 0400 000 000',
        signer_name: company().parent.fullName,
        signature: expect.stringMatching(/^data:image\/png;base64,/),
        agree: true,
      });
      expect((await request.response())?.status(), 'the waiver is accepted').toBe(200);
      const answered = Date.now();
      await shows(
        section.getByRole('status').filter({ hasText: waiverMessages.signed }),
        `'${waiverMessages.signed}'`,
      );
      expect(await section.getByRole('status').textContent()).toBe(waiverMessages.signed);
      // The message shows for one second only: a quick picture of the window, not of the whole page.
      await screenshot(page, `waivers-2-signed-${viewport}`, { fullPage: false }).catch((error: Error) =>
        console.warn(`[waivers ${viewport}] no picture of the signed message: ${error.message}`),
      );
      await reloaded;
      expect(Date.now() - answered, 'the reload waits about a second').toBeGreaterThanOrEqual(800);
      expect(
        await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload),
        'the page was reloaded',
      ).toBeUndefined();
      await expectAllSigned(page, child);
      await shows(page.getByRole('heading', { name: 'All signed' }), "the 'All signed' card");
      await expectFitsWidth(page);
      await shot('3-all-signed');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "a second booking for the same child finds the signed waiver: 'previously signed', no form",
    async () => {
      const { page, shot } = fixture();
      const journey = journeyOf(viewport);
      const [, day] = waiverDays(await sessionDays(camp));

      await bookMorningCamp(page, day, (block) =>
        block.getByRole('combobox', { name: 'Child' }).selectOption({ label: journey.child }),
      );
      const token = (await storedToken(page)) as string;
      const booking = await newestBookingFor(token, journey.firstName, [journey.first]);
      const { reference } = booking;
      journey.second = booking;

      await page.goto(await waiverLinkFromMail(reference));
      const section = waiverSection(page, journey.child);
      const found = section.getByRole('status').filter({ hasText: messages.waiverFound });
      await shows(found, "the 'previously signed' message");
      expect(await found.textContent()).toBe(messages.waiverFound);
      await expectAllSigned(page, journey.child);
      expect(await page.getByRole('button', { name: 'Continue' }).count(), 'nobody else to sign').toBe(0);
      await expectFitsWidth(page);
      await shot('4-previously-signed');

      // Opened again, the booking is simply signed.
      await page.reload();
      await shows(page.getByText(waiverMessages.allSigned, { exact: true }), 'the signed booking');
      expect(await page.getByText(messages.waiverFound).count()).toBe(0);
      await expectAllSigned(page, journey.child);
    },
    JOURNEY_TIMEOUT,
  );

  it("the parent's account shows both bookings signed, the signed waiver and the receipts as PDFs", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const journey = journeyOf(viewport, true);
    /** A payment or a waiver: a table row, on a phone a card. */
    const entry = viewport === 'phone' ? 'article' : 'row';

    await signInAsParent(page);

    // My Bookings: both bookings, the child's waiver signed on each, nothing left to sign.
    await goViaSidebar(page, viewport, 'My Bookings', '/admin/students/my-booking');
    for (const { code } of [journey.first, journey.second]) {
      const card = page.getByRole('article', { name: `${camp.name} ${code}`, exact: true });
      await shows(card, `the booking ${code}`);
      const child = card.getByText(journey.child, { exact: true });
      await shows(child, `${journey.child} on ${code}`);
      await shows(card.getByText('Waiver signed', { exact: true }), `the signed waiver of ${code}`);
      expect(await card.getByText('Needs waiver').count()).toBe(0);
      expect(await card.getByRole('link', { name: 'Sign waivers' }).count(), 'nothing to sign').toBe(0);
    }
    await expectFitsWidth(page);
    await shot('5-my-bookings');

    // Waivers: one signed waiver for the child (the second booking reused it), as a PDF. A phone
    // shows a card per waiver rather than the table.
    await goViaSidebar(page, viewport, 'Waivers', '/admin/students/waiver', 'My Waivers');
    const waivers = page.getByRole(viewport === 'phone' ? 'region' : 'table', { name: 'Signed waivers' });
    await shows(waivers, 'the signed waivers');
    const waiverRow = waivers.getByRole(entry).filter({ hasText: journey.child });
    await shows(waiverRow, `the waiver of ${journey.child}`);
    expect(await waiverRow.count(), 'one waiver, reused for the second booking').toBe(1);
    const waiverText = await waiverRow.textContent();
    expect(waiverText).toContain(demoWaiver.title);
    expect(waiverText).toContain(company().parent.fullName);
    await expectFitsWidth(page);
    await shot('6-waivers');
    await expectPdfDownload(
      waiverRow.getByRole('button', { name: `Download PDF of ${journey.child}'s ${demoWaiver.title}` }),
    );
    expect(await page.getByRole('alert').count(), 'no download failure').toBe(0);

    // Payments: a payment per booking, each with its receipt.
    await goViaSidebar(page, viewport, 'Payments', '/admin/students/payments', 'My Payments');
    const payments = page.getByRole(viewport === 'phone' ? 'region' : 'table', { name: 'Payments' });
    for (const { code } of [journey.first, journey.second]) {
      await shows(
        payments.getByRole(entry).filter({ hasText: `${camp.name} (booking ${code})` }),
        `the payment of ${code}`,
      );
    }
    await expectFitsWidth(page);
    await shot('7-payments');
    await expectPdfDownload(
      payments.getByRole('button', {
        name: `Receipt (PDF) for ${camp.name} (booking ${journey.first.code})`,
        exact: true,
      }),
    );
    expect(await page.getByRole('alert').count(), 'no download failure').toBe(0);
  });

  it("staff open the booking's Waivers screen: the child signed, with the PDF", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const journey = journeyOf(viewport, true);
    const bookingsPath = `/admin/events/${eventId(camp)}/bookings`;

    await signInAsStaff(page);
    for (const { reference, code } of [journey.first, journey.second]) {
      await page.goto(bookingsPath);
      await search(page, code);
      await page.getByRole('checkbox', { name: `Select ${code}`, exact: true }).check();
      await toolbar(page).getByRole('button', { name: 'Waivers', exact: true }).click();
      await expect
        .poll(() => location(page), { timeout: UI_TIMEOUT, interval: 100 })
        .toMatch(new RegExp(`^${bookingsPath}/\\d+/booking-waivers$`));
      await shows(page.getByRole('heading', { name: 'Waivers', exact: true }), "the 'Waivers' screen");
      await shows(page.getByText(`Ref ${code}`, { exact: false }), `the code ${code}`);
      await shows(page.getByText('All signed', { exact: true }), "'All signed'");
      const person = page
        .getByRole('table', { name: 'People on this booking' })
        .getByRole('row')
        .filter({ hasText: journey.child });
      await shows(person, `${journey.child} on the booking`);
      expect(await person.textContent()).toMatch(
        new RegExp(`^${journey.child}ChildSigned on \\d\\d/\\d\\d/\\d{4} by ${company().parent.fullName}`),
      );
      const links = page.getByRole('list', { name: 'Signing links' });
      expect(await links.getByRole('link').first().getAttribute('href')).toContain(
        `${waiverPaths.event.page}?id=${reference}&authhash=${company().authhash}`,
      );
      if (reference === journey.first.reference) {
        await expectFitsWidth(page);
        await shot('8-staff-waivers');
        await expectPdfDownload(
          person.getByRole('button', { name: `Download PDF of ${journey.child}'s waiver` }),
        );
        expect(await page.getByRole('alert').count(), 'no download failure').toBe(0);
      }
    }
  });
});
