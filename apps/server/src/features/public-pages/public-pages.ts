import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import type { BookingPageResponse } from '@tumble/contracts/booking';
import { ageRangeText, formatDate, initials } from '@tumble/contracts/display';
import { messages } from '@tumble/contracts/messages';
import type { RegistrationFormResponse } from '@tumble/contracts/registration';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicTenant } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { sanitizeRichText } from '../../platform/html.ts';
import { enabledModules, moduleOfRoute } from '../../platform/modules.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { acl } from '../accounts/accounts.service.ts';
import { bookingPage } from '../bookings/booking.service.ts';
import { queueSettings, queueStatus } from '../classes/enrolment-queue.service.ts';
import { registrationForm } from '../classes/registration-page.service.ts';
import { PUBLIC_PAGE_CSS } from './public-pages.css.ts';

/**
 * The first HTML of the public pages a parent lands on (issue 19, "The booking page": /booking, the
 * party booking page, the registration page): index.html with the page's top already inside #root,
 * so a phone paints the event or the form before any JS has run (LCP), and the API
 * answer the page needs as JSON (#bootstrap) so the SPA renders the same thing at once instead of
 * fetching it again. The markup copies the geometry of what the SPA draws (Mantine's Container,
 * Stepper, Card, Badge and Typography as the theme sets them) with its own small CSS, so nothing
 * moves when React replaces it. Anything unusual (unknown event, form or company, a suspended
 * company, a module turned off, the waiting room, the success or cancelled views) gets the plain
 * index.html: the SPA shows what it shows today.
 */

/** What the SPA reads from `<script type="application/json" id="bootstrap">`. */
export interface PublicPageBootstrap {
  booking?: { e: string; authhash: string; page: BookingPageResponse };
  /** The company's public branding (the party page's header), as GET /rest/acl?authhash answers it. */
  company?: { authhash: string; name: string; logo: string | null };
  /** The registration form, as GET /api/v1/registration/form answers it. */
  registration?: { f: string; authhash: string; page: RegistrationFormResponse };
}

/** index.html as built, read again only when the file changes (a rebuild while the server runs). */
let template: { path: string; mtimeMs: number; html: string } | undefined;
async function indexTemplate(indexHtmlPath: string): Promise<string> {
  const { mtimeMs } = await stat(indexHtmlPath);
  if (template?.path !== indexHtmlPath || template.mtimeMs !== mtimeMs) {
    template = { path: indexHtmlPath, mtimeMs, html: await readFile(indexHtmlPath, 'utf8') };
  }
  return template.html;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Text and attribute values: every character HTML could read as markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * JSON inside a <script> element: `<` is written as \u003c so no `</script>` or `<!--` in a value
 * can end the element, and the two line separators JavaScript once refused are escaped too.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The company's logo (or initials) and name, as components/company-brand.tsx draws them. */
function brandHtml(company: { name: string; logo: string | null }): string {
  const name = company.name.trim() || 'Tumble';
  const logo = company.logo
    ? `<img class="ssr-logo" src="${escapeHtml(company.logo)}" alt="${escapeHtml(`${name} logo`)}" width="44" height="44">`
    : `<div class="ssr-logo ssr-initials"><span aria-hidden="true">${escapeHtml(initials(name))}</span></div>`;
  return `<div class="ssr-brand"><div class="ssr-brand-in">${logo}<p class="ssr-brand-name">${escapeHtml(name)}</p></div></div>`;
}

/** The steps of a public page, the first one active, as Mantine's Stepper draws them. */
function stepsHtml(labels: string[]): string {
  const steps = labels.map(
    (label, i) =>
      `<div class="ssr-step"${i === 0 ? ' data-active' : ''}><span class="ssr-step-icon">${i + 1}</span><span class="ssr-step-label">${escapeHtml(label)}</span></div>`,
  );
  return `<div class="ssr-steps">${steps.join('<div class="ssr-step-sep"></div>')}</div>`;
}

function mapLink(venue: NonNullable<BookingPageResponse['event']['Venue']>): string {
  const parts = [venue.name, venue.address, venue.suburb, venue.postcode, 'Australia']
    .map((part) => part?.trim())
    .filter(Boolean);
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(parts.join(', '))}`;
}

/** Step 1 of /booking as features/booking/components/event-details.tsx draws it. */
export function bookingHeaderHtml(data: BookingPageResponse): string {
  const { event } = data;
  const dates =
    event.start_date === event.end_date
      ? formatDate(event.start_date)
      : `${formatDate(event.start_date)} – ${formatDate(event.end_date)}`;
  const ages = ageRangeText(event.age_start, event.age_end);
  const badges = `<div class="ssr-badges"><span class="ssr-badge">${escapeHtml(dates)}</span>${
    ages ? `<span class="ssr-badge ssr-badge-grape">${escapeHtml(ages)}</span>` : ''
  }</div>`;
  // Rich text is the sanitised HTML the API answers (sanitised again: `full` is sent as stored).
  const intro = event.intro
    ? `<div class="ssr-rich ssr-lg"><div>${sanitizeRichText(event.intro)}</div></div>`
    : '';
  const full = event.full
    ? `<hr class="ssr-divider"><div class="ssr-rich"><div>${sanitizeRichText(event.full)}</div></div>`
    : '';
  // Until the app has drawn the real page this button does nothing: disabled (a tap is not
  // silently lost, a test waits for it), drawn as the enabled one so the page does not flash.
  const action = `<div class="ssr-actions"><button type="button" class="ssr-button" disabled${
    data.bookable ? ' data-pending' : ''
  }>Book Now</button>${data.bookable ? '' : `<div class="ssr-alert" role="status">${escapeHtml(messages.noSessions)}</div>`}</div>`;
  const venue = event.Venue;
  const side = venue
    ? `<div class="ssr-side"><div class="ssr-card ssr-stack4"><h2 class="ssr-h4">Venue</h2><p class="ssr-strong">${escapeHtml(venue.name)}</p>${
        venue.address ? `<p class="ssr-sm">${escapeHtml(venue.address)}</p>` : ''
      }${
        venue.suburb || venue.postcode
          ? `<p class="ssr-sm">${escapeHtml([venue.suburb, venue.postcode].filter(Boolean).join(' '))}</p>`
          : ''
      }<a class="ssr-link" href="${escapeHtml(mapLink(venue))}" target="_blank" rel="noopener noreferrer">View on map</a></div></div>`
    : '';
  return [
    brandHtml(data.company),
    stepsHtml(['Event', 'Sessions', 'Done']),
    '<div class="ssr-grid"><div class="ssr-main"><div class="ssr-card ssr-stack">',
    `<div class="ssr-head"><h1 class="ssr-title">${escapeHtml(event.name)}</h1>${badges}</div>`,
    intro,
    action,
    full,
    `</div></div>${side}</div>`,
  ].join('');
}

/** A public page drawn by the server: its top, the API answer it was drawn from, its title. */
export interface RenderedPage {
  markup: string;
  bootstrap: PublicPageBootstrap;
  title: string;
}

/**
 * The company a page's authhash names, as the page's API route would find it (an unknown or
 * suspended company throws as it does there), or null when that route's module is off for it: the
 * not-found handler has no API route of its own for publicTenant to check the module of.
 */
async function pageTenant(
  app: FastifyInstance,
  request: FastifyRequest,
  authhash: string,
  apiRoute: string,
): Promise<Tenant | null> {
  const tenant = await publicTenant(app, request, authhash);
  const module = moduleOfRoute(apiRoute);
  if (module && !(await enabledModules(app.deps.database.db, tenant)).has(module)) return null;
  return tenant;
}

/** The first HTML of /booking?e&authhash, or null for the plain index.html. */
async function bookingPageHtml(
  app: FastifyInstance,
  request: FastifyRequest,
  query: URLSearchParams,
): Promise<RenderedPage | null> {
  const e = query.get('e') ?? '';
  const authhash = query.get('authhash') ?? '';
  // The success and payment-cancelled views, and an invitation's held place (straight to step 2),
  // are not the event step: the SPA draws those.
  if (!e || !authhash || query.has('status') || query.has('day')) return null;
  const tenant = await pageTenant(app, request, authhash, '/api/v1/booking');
  if (!tenant) return null;
  const page = await bookingPage(app.deps, tenant, e);
  return {
    markup: bookingHeaderHtml(page),
    bootstrap: { booking: { e, authhash, page } },
    title: `${page.event.name} · Booking`,
  };
}

/** The first HTML of /birthday-party/booking/?authhash: the company and the page's title. */
async function partyPageHtml(
  app: FastifyInstance,
  request: FastifyRequest,
  query: URLSearchParams,
): Promise<RenderedPage | null> {
  const authhash = query.get('authhash') ?? '';
  if (!authhash || query.has('status')) return null;
  const tenant = await pageTenant(app, request, authhash, '/api/v1/birthday-party');
  if (!tenant) return null;
  // The branding the page asks GET /rest/acl?authhash for, from the same service.
  const { meta } = await acl(app.deps, null, authhash);
  const company = { name: meta.company_name ?? '', logo: meta.logo };
  return {
    markup: [
      brandHtml(company),
      '<div><h1 class="ssr-title">Book a birthday party</h1>',
      '<p class="ssr-dimmed">Choose a date, a time and how many guests are coming.</p></div>',
    ].join(''),
    bootstrap: { company: { authhash, ...company } },
    title: 'Book a birthday party',
  };
}

/**
 * /registration?f&authhash as a visitor first sees it (features/registration/registration-page.tsx,
 * VisitorForm, with no choices kept): the company, the form's name, the class finder with its
 * introduction and the first child's date of birth, and the enrolment summary. Everything a parent
 * could press is disabled until the app has drawn its own (drawn as enabled: no flash); the classes
 * for an age, the prices and a signed-in parent's form are the SPA's.
 */
export function registrationPageMarkup(page: RegistrationFormResponse): string {
  const intro = page.form.intro
    ? `<div class="ssr-rich"><div>${sanitizeRichText(page.form.intro)}</div></div>`
    : '';
  const child = [
    '<section class="ssr-paper" aria-label="Child 1"><p class="ssr-bold">Child 1</p>',
    '<div><label class="ssr-label" for="ssr-dob">Child’s date of birth</label>',
    '<input id="ssr-dob" class="ssr-input" placeholder="DD/MM/YYYY" disabled></div>',
    '<p class="ssr-dimmed">Give the date of birth to see the classes for this child’s age.</p></section>',
  ].join('');
  const summary = [
    '<section class="ssr-card ssr-stack ssr-sticky" aria-label="Enrolment summary">',
    '<h2 class="ssr-h4">Enrolment summary</h2>',
    '<p class="ssr-dimmed">Give a child’s date of birth and choose a class to see the price.</p>',
    '<p class="ssr-dimmed">Sign in or create an account to pay: family discounts and codes are applied then, and your choices are kept.</p>',
    '<button type="button" class="ssr-btn ssr-btn-filled" disabled>Sign in to pay</button>',
    '<button type="button" class="ssr-btn ssr-btn-default" disabled>Not ready to enrol? Enquire</button>',
    '</section>',
  ].join('');
  return [
    brandHtml(page.company),
    `<h1 class="ssr-title ssr-mb">${escapeHtml(page.form.name)}</h1>`,
    '<div class="ssr-grid"><div class="ssr-main ssr-main7"><div class="ssr-card ssr-stack">',
    `<h2 class="ssr-h4">Find a class</h2>${intro}${child}`,
    '<button type="button" class="ssr-btn ssr-btn-light" disabled>Add another child</button>',
    `</div></div><div class="ssr-side ssr-side5">${summary}</div></div>`,
  ].join('');
}

/**
 * The first HTML of /registration?f&authhash, or null: also while the form is behind the
 * enrolment-day waiting room, which the SPA draws instead of the form.
 */
async function registrationPageHtml(
  app: FastifyInstance,
  request: FastifyRequest,
  query: URLSearchParams,
): Promise<RenderedPage | null> {
  const f = query.get('f') ?? '';
  const authhash = query.get('authhash') ?? '';
  if (!f || !authhash || query.has('status')) return null;
  const tenant = await pageTenant(app, request, authhash, '/api/v1/registration/form');
  if (!tenant) return null;
  const [page, queue] = await Promise.all([
    registrationForm(app.deps, tenant, f),
    queueStatus(app.deps.database.db, tenant, f, queueSettings(app.deps.config)),
  ]);
  if (queue.queued) return null;
  return {
    markup: registrationPageMarkup(page),
    bootstrap: { registration: { f, authhash, page } },
    title: page.form.name,
  };
}

/**
 * index.html for a client route: with the page's header rendered into it for the public pages that
 * have one, else null (send the file as built). A user's mistake (unknown event, bad authhash,
 * closed company) is never an error here: the SPA shows it as it does today.
 */
export async function publicPageHtml(
  app: FastifyInstance,
  request: FastifyRequest,
  indexHtmlPath: string,
): Promise<string | null> {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url, 'http://local');
  const pathname = url.pathname.replace(/\/+$/, '');
  let rendered: RenderedPage | null = null;
  try {
    if (pathname === '/booking') rendered = await bookingPageHtml(app, request, url.searchParams);
    if (pathname === '/birthday-party/booking')
      rendered = await partyPageHtml(app, request, url.searchParams);
    if (pathname === '/registration') rendered = await registrationPageHtml(app, request, url.searchParams);
  } catch (error) {
    // 404 / 410 and the like: the plain page, whose SPA asks the API and shows the answer.
    if (error instanceof AppError) return null;
    request.log.error({ err: error }, 'public page header not rendered');
    return null;
  }
  if (!rendered) return null;
  const html = await indexTemplate(indexHtmlPath);
  return injectPage(html, rendered);
}

/**
 * Puts the markup into #root, the critical CSS and the title into <head>, and the bootstrap JSON
 * before the app's script. The built stylesheets move from <head> to just after #root: the header
 * paints with its inline CSS alone, and the app's module script still runs only once they have
 * loaded (a script waits for the style sheets before it), so React never draws unstyled. The SPA
 * puts them back into <head> before it renders (apps/web/src/components/server-shell.tsx).
 */
export function injectPage(html: string, page: RenderedPage): string | null {
  if (!html.includes('<div id="root"></div>')) return null;
  const stylesheets: string[] = [];
  const head = html.replace(/\s*<link rel="stylesheet"[^>]*>/g, (link) => {
    // Below the fold of the first paint: fetched after the page's scripts (Chrome otherwise gives a
    // stylesheet the highest priority and Lighthouse counts it as holding back the first paint).
    stylesheets.push(link.trim().replace('<link ', '<link fetchpriority="low" '));
    return '';
  });
  return head
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace('</head>', `<style id="ssr-css">${PUBLIC_PAGE_CSS}</style></head>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root"><div class="ssr" data-ssr><div class="ssr-c">${page.markup}</div></div></div>${stylesheets.join('')}<script type="application/json" id="bootstrap">${scriptJson(page.bootstrap)}</script>`,
    );
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Sends a rendered page as the static index.html goes: never cached without asking again
 * (no-cache), compressed when the browser takes it (a fast brotli level: it is made per request).
 */
export async function sendPublicPage(request: FastifyRequest, reply: FastifyReply, html: string) {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  reply
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding')
    .type('text/html; charset=utf-8');
  if (/\bbr\b/.test(accepted)) {
    const body = await brotli(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(await gzipped(html));
  return reply.send(html);
}
