import { readFile } from 'node:fs/promises';
import type { MyBookings } from '@tumble/contracts/students';
import { waiverPaths } from '@tumble/contracts/waiver';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { linkTo } from './api.ts';
import { apiOk, demoEvents, plainLinks, waitForMailWith } from './booking.ts';
import { company } from './company.ts';
import { UI_TIMEOUT } from './harness.ts';

/**
 * Waivers (issue 7): the signing page reached from the booking confirmation mail, the signature pad
 * drawn on with the mouse, downloads of the PDFs the parent and staff pages offer.
 */

/** Every demo company's waiver template (seed/demo.ts), asked for events and parties alike. */
export const demoWaiver = { title: 'Participation and medical waiver' } as const;

/** GET /api/v1/students/my-bookings with the parent's token: their event bookings, newest first. */
export function myBookings(token: string): Promise<MyBookings> {
  return apiOk<MyBookings>('GET', '/api/v1/students/my-bookings', { token });
}

/** A booking's long reference (in waiver links) and the short code people see (BK-…). */
export interface BookingIds {
  reference: string;
  code: string;
}

/**
 * The reference of the newest booking of the parent for `childFirstName` that is not one of
 * `known` (the bookings made before it).
 */
export async function newestBookingFor(
  token: string,
  childFirstName: string,
  known: BookingIds[] = [],
): Promise<BookingIds> {
  const booking = (await myBookings(token)).find(
    (row) =>
      !known.some((k) => k.reference === row.reference) &&
      row.children.some((child) => child.first_name === childFirstName),
  );
  expect(booking, `a new booking for ${childFirstName}`).toBeDefined();
  const { reference, code } = booking as MyBookings[number];
  return { reference, code };
}

/**
 * The waiver link of the camp's confirmation mail to the company's parent for `reference` (read
 * from the .eml the test mail server kept), as a path + query on the app:
 * /event-booking/waiver/?id=<ref>&authhash=<the company's>.
 */
export async function waiverLinkFromMail(reference: string): Promise<string> {
  const mail = await waitForMailWith(company().parent.email, `Booking confirmed: ${demoEvents.camp.name}`, [
    reference,
  ]);
  const link = new URL(linkTo(plainLinks(mail), waiverPaths.event.page));
  expect(link.searchParams.get('id'), 'the waiver link names the booking').toBe(reference);
  expect(link.searchParams.get('authhash')).toBe(company().authhash);
  return link.pathname + link.search;
}

/** The signature pad's drawing area (a canvas with the image role, named 'Signature'). */
export function signaturePad(page: Page): Locator {
  return page.getByRole('img', { name: 'Signature', exact: true });
}

/** How many pixels of the pad carry ink (not transparent). */
export function inkedPixels(pad: Locator): Promise<number> {
  return pad.evaluate((canvas) => {
    const element = canvas as HTMLCanvasElement;
    const context = element.getContext('2d');
    if (!context) return 0;
    const { data } = context.getImageData(0, 0, element.width, element.height);
    let inked = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) inked++;
    return inked;
  });
}

/**
 * Signs in the pad with real mouse strokes (move, down, moves, up), as a parent with a mouse does:
 * a wave across the box and a stroke under it. Positions are fractions of the pad's box.
 */
export async function signWithMouse(page: Page): Promise<void> {
  const pad = signaturePad(page);
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  expect(box, 'the signature pad is on screen').not.toBeNull();
  const { x, y, width, height } = box as { x: number; y: number; width: number; height: number };
  const at = (fx: number, fy: number): [number, number] => [x + width * fx, y + height * fy];
  const strokes: [number, number][][] = [
    [0.12, 0.28, 0.44, 0.6, 0.76].map((fx, i) => [fx, i % 2 === 0 ? 0.6 : 0.3]),
    [
      [0.15, 0.78],
      [0.5, 0.74],
      [0.82, 0.8],
    ],
  ];
  for (const stroke of strokes) {
    const [first, ...rest] = stroke as [[number, number], ...[number, number][]];
    await page.mouse.move(...at(...first));
    await page.mouse.down();
    for (const point of rest) await page.mouse.move(...at(...point), { steps: 8 });
    await page.mouse.up();
  }
  await expect.poll(() => inkedPixels(pad), { timeout: UI_TIMEOUT, interval: 100 }).toBeGreaterThan(200);
}

/** Clicks `button`, which saves a file, and answers the bytes of the download. */
export async function downloadFrom(button: Locator): Promise<{ filename: string; bytes: Buffer }> {
  const page = button.page();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: UI_TIMEOUT * 2 }),
    button.click(),
  ]);
  const file = await download.path();
  return { filename: download.suggestedFilename(), bytes: await readFile(file) };
}

/** Clicks `button` and checks the download is a PDF (starts with '%PDF-'); answers its file name. */
export async function expectPdfDownload(button: Locator): Promise<string> {
  const { filename, bytes } = await downloadFrom(button);
  expect(bytes.subarray(0, 5).toString('latin1'), `${filename} is a PDF`).toBe('%PDF-');
  expect(filename).toMatch(/\.pdf$/);
  return filename;
}
