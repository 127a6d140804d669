import sanitizeHtml from 'sanitize-html';

/** What one family's copy of a mass mail fills its placeholders with. */
export interface FamilyValues {
  parent_first_name: string;
  parent_name: string;
  child_first_name: string;
  class: string;
  term: string;
  company: string;
}

const PLACEHOLDER = /\{(parent_first_name|parent_name|child_first_name|class|term|company)\}/g;

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Fills `{name}` placeholders; unknown ones stay as written. */
export function fillText(template: string, values: FamilyValues): string {
  return template.replace(PLACEHOLDER, (_, name: keyof FamilyValues) => values[name]);
}

/** Fills placeholders in sanitised HTML: the values are text, so they are escaped. */
export function fillHtml(template: string, values: FamilyValues): string {
  return template.replace(PLACEHOLDER, (_, name: keyof FamilyValues) => escapeHtml(values[name]));
}

const TEXT_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

/** The plain-text part of a mail from its HTML: paragraphs and list items keep their line breaks. */
export function mailText(html: string): string {
  const withBreaks = html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<\/(p|div|h[1-6]|li|blockquote|tr)>/gi, '\n')
    .replace(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gi, (_, href: string, label: string) =>
      label.trim() === href ? href : `${label} (${href})`,
    );
  return sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => TEXT_ENTITIES[name]!)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The marketing footer: why they get it and the one-click unsubscribe link. */
export function unsubscribeFooter(company: string, url: string): string {
  return `<hr><p style="font-size:12px;color:#666">You receive this because you are a customer of ${escapeHtml(company)}. <a href="${escapeHtml(url)}">Unsubscribe</a> from marketing emails.</p>`;
}

/** "Sarah" from "Sarah Nguyen". */
export function firstNameOf(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? fullName;
}
