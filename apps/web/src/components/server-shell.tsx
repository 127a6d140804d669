import type { BookingPageResponse } from '@tumble/contracts/booking';
import type { RegistrationFormResponse } from '@tumble/contracts/registration';
import { PageLoader } from './page-loader';

/**
 * What the server put into the first HTML of a public page (apps/server/src/features/public-pages):
 * the page's top already drawn inside #root, and the API answer it was drawn from. Both are read
 * once, when this module loads, which is before React first renders into #root and replaces it.
 */
const rendered = typeof document === 'undefined' ? null : document.querySelector('#root > [data-ssr]');
const serverMarkup = rendered ? rendered.outerHTML : null;
/**
 * The same markup for inside the public layout, whose Container already gives the page its width
 * and padding: `data-nested` drops the markup's own (public-pages.css.ts), so nothing moves.
 */
const nestedMarkup = rendered ? serverMarkup!.replace('data-ssr', 'data-ssr data-nested') : null;

/**
 * The server moved the app's stylesheets from <head> to after #root, so that they do not hold back
 * the header's first paint (their loading still holds back this script). Back in <head> before React
 * renders: Mantine puts its theme variables and responsive styles in <style> elements inside #root,
 * and they must come after its stylesheet to win. `blocking="render"`: no frame without them.
 */
if (rendered) {
  for (const link of document.querySelectorAll<HTMLLinkElement>('body > link[rel="stylesheet"]')) {
    link.setAttribute('blocking', 'render');
    document.head.append(link);
  }
}

interface Bootstrap {
  booking?: { e: string; authhash: string; page: BookingPageResponse };
  company?: { authhash: string; name: string; logo: string | null };
  registration?: { f: string; authhash: string; page: RegistrationFormResponse };
}

function readBootstrap(): Bootstrap {
  const script = typeof document === 'undefined' ? null : document.getElementById('bootstrap');
  if (!script?.textContent) return {};
  try {
    return JSON.parse(script.textContent) as Bootstrap;
  } catch {
    return {};
  }
}
const bootstrap = readBootstrap();

/** The booking page answer the server embedded for this event, if it did: React Query's initial data. */
export function bootstrappedBookingPage(e: string, authhash: string): BookingPageResponse | undefined {
  const booking = bootstrap.booking;
  return booking && booking.e === e && booking.authhash === authhash ? booking.page : undefined;
}

/** The company's name and logo the server drew the party page's header with, if it did. */
export function bootstrappedCompany(authhash: string): { name: string; logo: string | null } | undefined {
  const company = bootstrap.company;
  return company && company.authhash === authhash ? { name: company.name, logo: company.logo } : undefined;
}

/** The registration form the server drew this page's first HTML with, if it did: initial data. */
export function bootstrappedRegistrationForm(
  f: string,
  authhash: string,
): RegistrationFormResponse | undefined {
  const registration = bootstrap.registration;
  return registration && registration.f === f && registration.authhash === authhash
    ? registration.page
    : undefined;
}

/**
 * The router's first render while the page's code loads: the server's markup as it is (so the
 * header painted before any JS stays on screen, no flash), else the loader.
 */
export function ServerShell({ nested = false }: { nested?: boolean }) {
  const markup = nested ? nestedMarkup : serverMarkup;
  if (!markup) return <PageLoader />;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own markup of this page, already in the document
  return <div style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: markup }} />;
}

/**
 * A public page waiting for something before it can draw (the waiting room's check, the signed-in
 * parent's children), inside the public layout: the server's markup if the server drew this very
 * page, so its header stays on screen where it was; else the loader.
 */
export function PendingPage({ drawnByServer }: { drawnByServer: boolean }) {
  return drawnByServer ? <ServerShell nested /> : <PageLoader />;
}
