import type { CheckoutResponse } from '@tumble/contracts/booking';
import type {
  EnrolmentCheckoutRequest,
  EnrolmentPurchaseResponse,
  EnrolmentQuoteRequest,
  EnrolmentQuoteResponse,
  FinderClass,
  MyEnrolmentsResponse,
  RegistrationFormResponse,
} from '@tumble/contracts/registration';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { cached } from '../../platform/public-cache.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf, logoUrl } from '../accounts/accounts.service.ts';
import { paymentTermsFor } from '../billing/billing.service.ts';
import { HOLD_MINUTES } from '../bookings/booking.service.ts';
import { chargesResponse, checkout, discountsFor } from '../checkout/checkout.ts';
import { formOfPurchase } from '../registration/enrolment-form-reads.service.ts';
import { publishedForm } from '../registration/registration.service.ts';
import { childrenByIds } from '../students/children.service.ts';
import { findClasses, wallClock } from './class-finder.service.ts';
import { enrolmentWaiverLink } from './enrolment-mail.ts';
import {
  classNamesById,
  enrolmentSettingsOf,
  purchaseDetails,
  purchasesOfParent,
} from './enrolment-purchases.service.ts';
import { enrolmentMessages, enrolmentSale, planEnrolment, priceOfPlan } from './enrolment-sale.ts';
import { termOf } from './terms.service.ts';

/** The public registration page's calls (issue 14), behind registration.routes.ts. */

async function formOrNotFound(deps: AppDeps, tenant: Tenant, key: string) {
  const { db } = deps.database;
  // Every family on the page reads it: from the public read cache.
  const form = key
    ? await cached(db, tenant, `registration-form:${key}`, () => publishedForm(db, tenant, key))
    : null;
  if (!form) throw new NotFoundError(enrolmentMessages.formNotFound);
  return form;
}

/** GET /api/v1/registration/form. */
export async function registrationForm(
  deps: AppDeps,
  tenant: Tenant,
  key: string,
): Promise<RegistrationFormResponse> {
  const { db } = deps.database;
  const form = await formOrNotFound(deps, tenant, key);
  const [company, paymentTerms, settings] = await Promise.all([
    companyOf(db, tenant),
    paymentTermsFor(db, tenant, 'classes', form.paymentTermsId),
    enrolmentSettingsOf(db, tenant),
  ]);
  const terms = [];
  for (const id of form.termIds) {
    const term = await termOf(db, tenant, id);
    if (term && term.status === 'open' && !term.archivedAt)
      terms.push({ id: term.id, name: term.name, start_date: term.startDate, end_date: term.endDate });
  }
  return {
    form: {
      key: form.key,
      name: form.name,
      intro: form.intro,
      questions: form.questions,
      trials_offered: form.trialsOffered,
      has_waiver: form.waiverId !== null,
      payment_terms: paymentTerms,
      public_waitlist: settings.publicWaitlist,
    },
    terms,
    company: { name: company.name, logo: logoUrl(company.logoFile), currency: company.currency },
    hold_minutes: HOLD_MINUTES,
  };
}

/** GET /api/v1/registration/classes: the class finder. */
export async function registrationClasses(
  deps: AppDeps,
  tenant: Tenant,
  key: string,
  dob: string | null,
): Promise<{ classes: FinderClass[] }> {
  const { db } = deps.database;
  const form = await formOrNotFound(deps, tenant, key);
  const company = await cached(db, tenant, 'company', () => companyOf(db, tenant));
  return { classes: await findClasses(db, tenant, form, wallClock(company.timeZone), dob) };
}

/** POST /api/v1/registration/quote: the server's price of a selection (no writes). */
export async function enrolmentQuote(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number | null,
  input: EnrolmentQuoteRequest,
): Promise<EnrolmentQuoteResponse> {
  const plan = await planEnrolment(deps, tenant, parentId, input);
  const found = await discountsFor(deps, tenant, { ...plan, parentId });
  const price = await priceOfPlan(deps.database.db, tenant, plan, found);
  const response = chargesResponse(price, found);
  if (price.voucherError) response.errors.invalid_nsw_coupon_code_message = price.voucherError;
  return { ...response, amount_due: price.total };
}

/** POST /api/v1/registration/checkout: through the purchase pipeline, for the signed-in parent. */
export function enrolmentCheckout(
  deps: AppDeps,
  tenant: Tenant,
  auth: AuthContext,
  input: EnrolmentCheckoutRequest,
  origin: string,
): Promise<CheckoutResponse> {
  if (auth.role !== 'student' || auth.tenant.companyId !== tenant.companyId) throw new NotFoundError();
  return checkout(deps, tenant, auth.userId, enrolmentSale, input, origin);
}

/** GET /api/v1/registration/purchase?id=<reference>: the confirmation page. */
export async function enrolmentConfirmation(
  deps: AppDeps,
  tenant: Tenant,
  reference: string,
): Promise<EnrolmentPurchaseResponse> {
  const { db } = deps.database;
  const details = reference ? await purchaseDetails(db, tenant, reference) : null;
  if (!details) throw new NotFoundError('That enrolment could not be found.');
  const { purchase, places } = details;
  const [company, form] = await Promise.all([
    companyOf(db, tenant),
    formOfPurchase(db, tenant, purchase.registrationFormId),
  ]);
  return {
    code: purchase.code,
    status: purchase.status,
    total: purchase.total,
    formatted_total: formatMoney(purchase.total, company.currency),
    waiver_link:
      form?.waiverId != null ? enrolmentWaiverLink('', purchase.reference, company.authhash) : null,
    places: places.map((p) => ({
      child: p.childName,
      class_name: p.className,
      kind: p.kind,
      venue: p.venue,
      sessions: p.sessions.map((s) => ({ date: s.date, start_time: s.startTime, end_time: s.endTime })),
    })),
  };
}

/** GET /api/v1/students/enrolments: the family's enrolment purchases. */
export async function myEnrolments(deps: AppDeps, auth: AuthContext): Promise<MyEnrolmentsResponse> {
  const { db } = deps.database;
  const tenant = auth.tenant;
  const [purchases, company] = await Promise.all([
    purchasesOfParent(db, tenant, auth.userId),
    companyOf(db, tenant),
  ]);
  const kids = await childrenByIds(
    db,
    tenant,
    purchases.flatMap((p) => p.places.map((pl) => pl.childId)),
  );
  const names = await classNamesById(
    db,
    tenant,
    purchases.flatMap((p) => p.places.map((pl) => pl.termClassId)),
  );
  return {
    purchases: purchases.map((p) => ({
      code: p.code,
      reference: p.reference,
      status: p.status,
      created_at: p.createdAt.toISOString(),
      total: formatMoney(p.total, company.currency),
      children: [...new Set(p.places.map((pl) => kids.find((k) => k.id === pl.childId)?.firstName ?? ''))],
      classes: [
        ...new Set(
          p.places.map((pl) => `${names.get(pl.termClassId) ?? ''}${pl.kind === 'trial' ? ' (trial)' : ''}`),
        ),
      ],
    })),
  };
}
