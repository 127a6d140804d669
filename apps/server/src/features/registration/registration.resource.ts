import {
  MAX_CUSTOM_QUESTIONS,
  registrationFormMessages as say,
  standardQuestions,
} from '@tumble/contracts/registration-forms';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineResource, type ResourceValues } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { compact } from '../../platform/resources/options.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { paymentTermsKind } from '../billing/payment-terms.service.ts';
import { waiverAppliesTo } from '../waivers/waiver.service.ts';
import { embedOrigins, type FormQuestion, registrationForms } from './registration.tables.ts';
import { embedSnippet, normalizeOrigin, registrationLink } from './registration-embed.ts';

const classes = { read: 'classes.read', write: 'classes.write' } as const;

/** Ages are stored in months, as class types keep them (classes/terms.resource.ts). */
const ageHelp = (edge: string) =>
  `In months: 3 years 6 months is 42, 5 years is 60. Empty: no ${edge} limit.`;

/** "Term 1 Classes!" → "term-1-classes": the form's key in its public link. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
}

/** The custom questions typed one per line; a trailing `*` makes one required. */
export function customQuestionLines(text: unknown): { label: string; required: boolean }[] {
  if (typeof text !== 'string') return [];
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== '*')
    .map((line) =>
      line.endsWith('*')
        ? { label: line.slice(0, -1).trim(), required: true }
        : { label: line, required: false },
    );
}

/** The questions the public page asks, made from the form's three question fields. */
export function formQuestions(values: ResourceValues): FormQuestion[] {
  const asked = new Set((values.ask_questions as string[] | undefined) ?? []);
  const required = new Set((values.required_questions as string[] | undefined) ?? []);
  const standard: FormQuestion[] = standardQuestions
    .filter((q) => asked.has(q.value))
    .map((q) => ({ key: q.value, label: q.label, kind: q.value, required: required.has(q.value) }));
  const custom: FormQuestion[] = customQuestionLines(values.custom_questions).map((q, i) => ({
    key: `custom_${i + 1}`,
    label: q.label,
    kind: 'custom',
    required: q.required,
  }));
  return [...standard, ...custom];
}

async function keyTaken(tx: Db, tenant: Tenant, key: string, id: number | null): Promise<boolean> {
  const [other] = await tx
    .select({ id: registrationForms.id })
    .from(registrationForms)
    .where(
      tenant.where(
        registrationForms,
        and(eq(registrationForms.key, key), id === null ? undefined : ne(registrationForms.id, id)),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/** A free key made from the form's name: "term-1", else "term-1-2", "term-1-3"… */
async function freeKey(tx: Db, tenant: Tenant, name: string, id: number | null): Promise<string> {
  const base = slugify(name) || 'form';
  for (let n = 1; ; n++) {
    const key = n === 1 ? base : `${base.slice(0, 55)}-${n}`;
    if (!(await keyTaken(tx, tenant, key, id))) return key;
  }
}

/** SPEC registration-forms (settings and embed): the parent's way into classes. */
export const registrationFormsResource = defineResource({
  name: 'registration-forms',
  label: 'Registration forms',
  nav: { group: 'Classes', icon: 'form' },
  singular: 'Registration form',
  table: registrationForms,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Term 1 classes' }),
    key: field.text('Key', {
      max: 60,
      help: 'Names the form in its public link; empty: made from the name',
    }),
    intro: field.richtext('Introduction', { max: 20_000, help: 'Shown above the class finder' }),
    term_ids: field.references('Terms', 'terms', { help: 'The terms parents can enrol in' }),
    class_type_ids: field.references('Class types', 'class-types', { help: 'Empty: every class type' }),
    age_min_months: field.number('Minimum age (months)', { min: 0, max: 1200, help: ageHelp('lower') }),
    age_max_months: field.number('Maximum age (months)', { min: 0, max: 1200, help: ageHelp('upper') }),
    ask_questions: field.multiselect(
      'Questions asked',
      standardQuestions.map((q) => ({ value: q.value, label: q.label })),
      { help: 'Asked for each child' },
    ),
    required_questions: field.multiselect(
      'Required questions',
      standardQuestions.map((q) => ({ value: q.value, label: q.label })),
      { help: 'Parents must answer these (they must also be asked)' },
    ),
    custom_questions: field.textarea('Custom questions', {
      max: 1200,
      help: `Up to ${MAX_CUSTOM_QUESTIONS}, one per line; end a line with * to make it required`,
    }),
    waiver_id: field.reference('Waiver', 'waivers', {
      help: 'A waiver for classes or everything; empty: the company’s current waiver for classes',
    }),
    payment_terms_id: field.reference('Payment terms', 'payment-terms', {
      help: 'Terms for class enrolments; empty: the default terms for classes',
    }),
    trials_offered: field.boolean('Trials offered'),
    // The only way yet; left out, the column's default (card) is stored.
    payment: field.select('Payment', [{ value: 'card', label: 'Pay now by card' }], {
      default: 'card',
      help: 'Being invoiced instead arrives with billing',
    }),
    published: field.boolean('Published', {
      default: true,
      help: 'Unpublished forms answer that they are closed',
    }),
  },
  list: {
    columns: ['name', 'key', 'trials_offered', 'published'],
    search: ['name', 'key'],
    filters: ['published'],
    defaultSort: { field: 'name', order: 'asc' },
  },
  permissions: classes,
  deleteMode: 'archive',
  sections: {
    embed: {
      label: 'Public link and embed',
      columns: [
        { name: 'what', label: 'What' },
        { name: 'value', label: 'Details' },
      ],
      rows: async ({ tx, tenant, deps }, row) => {
        const { authhash } = await companyOf(tx, tenant);
        const key = String(row.key);
        const link = registrationLink(deps.config.publicUrl, key, authhash);
        return [
          { what: 'Public link', value: link },
          { what: 'Embed on your website', value: embedSnippet(deps.config.publicUrl, key, authhash) },
          {
            what: 'Websites allowed to embed it',
            value: 'Listed under Classes › Embed origins; the form shows only inside those websites’ pages.',
          },
        ];
      },
    },
  },
  check: async (v, { tx, tenant, id }) => {
    const key = typeof v.key === 'string' && v.key.trim() !== '' ? slugify(v.key) : null;
    const asked = new Set((v.ask_questions as string[] | undefined) ?? []);
    const required = (v.required_questions as string[] | undefined) ?? [];
    const custom = customQuestionLines(v.custom_questions);
    const waiverKind =
      typeof v.waiver_id === 'number' ? await waiverAppliesTo(tx, tenant, v.waiver_id) : null;
    const termsKind =
      typeof v.payment_terms_id === 'number' ? await paymentTermsKind(tx, tenant, v.payment_terms_id) : null;
    return compact({
      key:
        key === ''
          ? say.keyShape
          : key !== null && (await keyTaken(tx, tenant, key, id))
            ? say.keyTaken
            : undefined,
      age_max_months:
        typeof v.age_min_months === 'number' &&
        typeof v.age_max_months === 'number' &&
        v.age_max_months < v.age_min_months
          ? say.ageOrder
          : undefined,
      required_questions: required.some((q) => !asked.has(q)) ? say.requiredNotAsked : undefined,
      custom_questions:
        custom.length > MAX_CUSTOM_QUESTIONS
          ? say.tooManyCustom
          : custom.some((q) => q.label.length > 200)
            ? 'Keep each question under 200 characters.'
            : undefined,
      // Unknown ids are refused by the engine's reference check; here the kind of a known one.
      waiver_id:
        waiverKind !== null && !['classes', 'all'].includes(waiverKind) ? say.waiverNotForClasses : undefined,
      payment_terms_id:
        termsKind !== null && termsKind !== 'classes' ? say.paymentTermsNotForClasses : undefined,
    });
  },
  beforeSave: async (values, { tx, tenant, id }) => {
    const typed = typeof values.key === 'string' && values.key.trim() !== '' ? slugify(values.key) : null;
    const key = typed ?? (await freeKey(tx, tenant, String(values.name ?? ''), id));
    return { ...values, key, questions: formQuestions(values) };
  },
});

/** The websites allowed to put a company's registration forms in an iframe (CSP frame-ancestors). */
export const embedOriginsResource = defineResource({
  name: 'embed-origins',
  label: 'Embed origins',
  nav: { group: 'Classes', icon: 'world' },
  singular: 'Embed origin',
  table: embedOrigins,
  titleField: 'origin',
  fields: {
    origin: field.text('Website', {
      required: true,
      max: 200,
      help: 'e.g. https://www.example.com.au: where your website shows the registration form',
    }),
  },
  list: { columns: ['origin'], search: ['origin'], defaultSort: { field: 'origin', order: 'asc' } },
  permissions: { read: 'settings.read', write: 'settings.write' },
  check: async (v, { tx, tenant, id }) => {
    const origin = normalizeOrigin(String(v.origin ?? ''));
    if (origin === null) return { origin: say.originShape };
    const [other] = await tx
      .select({ id: embedOrigins.id })
      .from(embedOrigins)
      .where(
        tenant.where(
          embedOrigins,
          eq(embedOrigins.origin, origin),
          id === null ? undefined : ne(embedOrigins.id, id),
        ),
      )
      .limit(1);
    return other ? { origin: say.originTaken } : undefined;
  },
  // Stored as the browser sends it in the Origin header: lowercase, no path, no default port.
  beforeSave: (values) => ({ ...values, origin: normalizeOrigin(String(values.origin)) }),
});

export const registrationResources = [registrationFormsResource, embedOriginsResource];
