import { eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import {
  embedOrigins,
  type FormQuestion,
  registrationAnomalies,
  registrationForms,
} from './registration.tables.ts';

export type { FormQuestion };

/** What the public registration page and the enrolment checkout read of a form. */
export interface RegistrationForm {
  id: number;
  key: string;
  name: string;
  intro: string | null;
  termIds: number[];
  classTypeIds: number[];
  ageMinMonths: number | null;
  ageMaxMonths: number | null;
  questions: FormQuestion[];
  waiverId: number | null;
  paymentTermsId: number | null;
  trialsOffered: boolean;
  payment: 'card';
}

/** A published, not archived form by the key of its public link; null when there is none. */
export async function publishedForm(db: Db, tenant: Tenant, key: string): Promise<RegistrationForm | null> {
  const [form] = await db
    .select({
      id: registrationForms.id,
      key: registrationForms.key,
      name: registrationForms.name,
      intro: registrationForms.intro,
      termIds: registrationForms.termIds,
      classTypeIds: registrationForms.classTypeIds,
      ageMinMonths: registrationForms.ageMinMonths,
      ageMaxMonths: registrationForms.ageMaxMonths,
      questions: registrationForms.questions,
      waiverId: registrationForms.waiverId,
      paymentTermsId: registrationForms.paymentTermsId,
      trialsOffered: registrationForms.trialsOffered,
      payment: registrationForms.payment,
      published: registrationForms.published,
    })
    .from(registrationForms)
    .where(
      tenant.where(registrationForms, eq(registrationForms.key, key), isNull(registrationForms.archivedAt)),
    );
  if (!form?.published) return null;
  const { published: _published, ...rest } = form;
  return rest;
}

export type AnomalyKind = (typeof registrationAnomalies.kind.enumValues)[number];

export interface NewAnomaly {
  formId: number | null;
  kind: AnomalyKind;
  parentId: number;
  childId?: number | null;
  termClassId?: number | null;
  purchaseId?: number | null;
  otherId?: number | null;
  /** One sentence staff read in the anomalies list. */
  detail: string;
}

/** Records a submission that needs a staff decision (in the caller's transaction when it has one). */
export async function recordAnomaly(db: Db, tenant: Tenant, anomaly: NewAnomaly): Promise<void> {
  await db.insert(registrationAnomalies).values(tenant.values(anomaly));
}

/** The website origins allowed to embed this company's forms (CSP frame-ancestors). */
export async function embedOriginsOf(db: Db, tenant: Tenant): Promise<string[]> {
  const rows = await db
    .select({ origin: embedOrigins.origin })
    .from(embedOrigins)
    .where(tenant.where(embedOrigins))
    .orderBy(embedOrigins.origin);
  return rows.map((r) => r.origin);
}
