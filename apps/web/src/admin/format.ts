import { DEFAULT_CURRENCY } from '@tumble/contracts/admin-accounts';
import type { FieldMeta, Option } from '@tumble/contracts/resources';
import { api } from '../api/client';

/**
 * How the admin screens show and edit values. The API speaks integer cents and 'YYYY-MM-DD'
 * (ARCHITECTURE.md "Money, time, text"); people read dollars and DD/MM/YYYY (SPEC.md point 9).
 */

/** 1250 → 12.5 (the dollars a money input edits); empty for no value. */
export function centsToDollars(cents: unknown): number | '' {
  if (typeof cents !== 'number' || !Number.isFinite(cents)) return '';
  return cents / 100;
}

/**
 * 12.5 → 1250, '12.50' → 1250; null for an empty input. Works on the decimal digits, so binary
 * floating point cannot turn 0.29 or 1.005 into a cent less (0.29 * 100 is 28.999…).
 */
export function dollarsToCents(dollars: unknown): number | null {
  if (dollars === '' || dollars === null || dollars === undefined) return null;
  const text = String(dollars).replace(/[$,\s]/g, '');
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3])) {
    const value = Number(text);
    return text !== '' && Number.isFinite(value) ? Math.round(value * 100) : null;
  }
  const fraction = (match[3] ?? '').padEnd(3, '0');
  const cents =
    Number(match[2] || '0') * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return match[1] && cents !== 0 ? -cents : cents;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * 1250 → '$12.50', -500 → '-$5.00', 123456 → '$1,234.56', in the signed-in company's currency
 * (GET /rest/acl; '€12.50' for EUR), written as the server writes it (platform/money.ts).
 */
export function formatMoney(
  cents: unknown,
  currency = api.getUserMeta()?.currency ?? DEFAULT_CURRENCY,
): string {
  if (typeof cents !== 'number' || !Number.isFinite(cents)) return '';
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    moneyFormats.set(currency, format);
  }
  return format.format(cents / 100);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** '2025-12-24' (or an ISO date-time) → '24/12/2025'. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string') return '';
  const match = ISO_DATE.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
}

/** '24/12/2025' (or 24/12/25, 1/2/2025) → '2025-12-24'; null when it is not a real date. */
export function parseDisplayDate(value: string): string | null {
  const match = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return ISO_DATE.test(value.trim()) && value.trim().length === 10 ? value.trim() : null;
  const day = Number(match[1]);
  const month = Number(match[2]);
  const year = match[3]!.length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** An ISO date-time → '24/12/2025 09:30' in the browser's time zone. */
export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A moment (ISO date-time) as the reader's own calendar day, DD/MM/YYYY: a payment made at 8am in
 * Sydney is 21:00 the day before in UTC, and must not show as that day.
 */
export function formatLocalDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** Staff-written HTML as plain text, for list cells (never injected as HTML). */
export function htmlToText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  const spaced = html.replace(/<\/(p|div|li|h[1-6])>|<br\s*\/?>/gi, ' ');
  const doc = new DOMParser().parseFromString(spaced, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function optionLabel(options: readonly Option[] | undefined, value: unknown): string {
  const found = options?.find((o) => String(o.value) === String(value));
  return found ? found.label : String(value);
}

/** SPEC.md point 9: a multi-select shows up to 3 names. */
export const MULTI_SELECT_SHOWN = 3;

/** ['A','B','C','D','E'] → 'A, B, C +2 more'. */
export function shortList(names: readonly string[], shown = MULTI_SELECT_SHOWN): string {
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} +${names.length - shown} more`;
}

/** A file key as the URL that serves it. */
export function fileUrl(key: string): string {
  return `/api/v1/files/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** The last part of a file key, as a fallback name. */
export function fileName(key: string): string {
  return key.split('/').pop() ?? key;
}

/**
 * A value as text in lists and the view screen. Reference ids show their row's title from
 * `_labels`; multi-select references show titles from `referenceOptions` when known.
 */
export function displayValue(
  field: FieldMeta,
  value: unknown,
  labels: Record<string, string> | undefined,
  referenceOptions?: readonly Option[],
): string {
  if (value === null || value === undefined || value === '') return '';
  switch (field.type) {
    case 'money':
      return formatMoney(value);
    case 'percent':
      return `${String(value)}%`;
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDateTime(value);
    case 'boolean':
      return value === true ? 'Yes' : 'No';
    case 'reference':
      return labels?.[field.name] ?? `#${String(value)}`;
    case 'select':
      return optionLabel(field.options, value);
    case 'multiselect': {
      const list = Array.isArray(value) ? value : [value];
      const options = field.reference ? referenceOptions : field.options;
      return shortList(list.map((v) => optionLabel(options, v)));
    }
    case 'richtext':
      return htmlToText(value);
    case 'file':
    case 'image':
      return fileName(String(value));
    default:
      return String(value);
  }
}
