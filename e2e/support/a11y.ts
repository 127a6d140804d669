import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core's own browser build, injected into the page under test (no wrapper package: the
// same source Lighthouse runs, at the version package.json pins).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules WCAG 2.2 AA asks for, as axe tags them (best practices are not failures). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Impacts that fail a page: the bar is "no serious or critical violation". */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface A11yViolation {
  id: string;
  impact: string;
  help: string;
  /** CSS selectors of the offending nodes (at most five), enough to find them. */
  targets: string[];
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/**
 * Waits, up to 2 s, for the page's transitions and finite animations to end. axe measures colours as
 * drawn: a dropdown still fading out draws its text faint and fails contrast it meets once shown or
 * gone (CI caught a date picker closing). Endless ones (loaders) are not waited for, and an
 * animation longer than 2 s is measured as it stands.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) =>
              a.playState !== 'running' ||
              a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      undefined,
      { timeout: 2_000, polling: 'raf' },
    )
    .catch(() => undefined);
}

/** Runs axe-core on the page once it has settled and returns its serious and critical violations. */
export async function a11yViolations(page: Page): Promise<A11yViolation[]> {
  await animationsSettled(page);
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol rather than an inline <script>: the app's
  // Content-Security-Policy (script-src 'self') refuses inline scripts, as it should.
  if (!hasAxe) await page.evaluate(axeSource);
  const result = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResult> } }).axe.run(
        document,
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] },
      ),
    WCAG_TAGS,
  );
  return result.violations
    .filter((v) => v.impact !== null && FAILING_IMPACTS.has(v.impact))
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
    }));
}

/** One readable line per violation, for assertion messages. */
export function describeViolations(label: string, violations: A11yViolation[]): string {
  return violations
    .map((v) => `${label}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`)
    .join('\n');
}

/**
 * Fails with every serious or critical axe-core violation of the page as it is now, named by
 * `label` (the page and width), so one run lists all of them rather than the first.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const violations = await a11yViolations(page);
  if (violations.length > 0) throw new Error(describeViolations(label, violations));
}

/**
 * Every visible interactive element smaller than 24 × 24 CSS pixels (WCAG 2.2 AA 2.5.8 target
 * size), except inline links in text, which the criterion exempts. Returns a description of each.
 */
export async function smallTouchTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=option], [role=menuitem], [tabindex]:not([tabindex="-1"])';
    const small: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue; // not displayed
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // Inline links inside a sentence are exempt (2.5.8 "inline" exception).
      if (el.tagName === 'A' && style.display === 'inline') continue;
      // Visually hidden inputs behind a styled label (Mantine's checkbox/radio) are operated
      // through their visible control, which is measured on its own.
      if (style.opacity === '0') continue;
      if (rect.width < 24 || rect.height < 24) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        small.push(
          `${el.tagName.toLowerCase()} "${name}" ${Math.round(rect.width)}×${Math.round(rect.height)}`,
        );
      }
    }
    return small;
  });
}
