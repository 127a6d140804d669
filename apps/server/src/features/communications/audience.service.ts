import type {
  AudienceFilter,
  AudienceOptionsResponse,
  AudienceResponse,
} from '@tumble/contracts/communications';
import { type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { countFamiliesWhere, familiesWhere } from '../accounts/audience-reads.service.ts';
import { familiesOwing } from '../billing/audience-reads.service.ts';
import { familiesBookedOn } from '../bookings/audience-reads.service.ts';
import { classAudience, classAudienceOptions } from '../classes/audience-reads.service.ts';
import { eventChoices } from '../events/audience-reads.service.ts';
import { familiesWithPartyBetween } from '../parties/audience-reads.service.ts';
import {
  familiesFlagged,
  familiesOfChildren,
  familiesWithChildAged,
  flagChoices,
} from '../students/audience-reads.service.ts';
import { familiesWithConsent } from './consent.service.ts';

/** Parent ids in either subquery. */
const unionOf = (a: SQLWrapper, b: SQLWrapper): SQLWrapper => sql`(${a} union ${b})`;

/** All of a company's families, when a caller wants every match (far more than any company has). */
export const EVERY_FAMILY = 1_000_000;

/**
 * The filter as SQL: one subquery of parent ids per kind of filter given (a family must be in each:
 * AND between kinds; each subquery takes any of its values: OR within a kind), and the families
 * left out. Marketing mail leaves out families who withdrew; a service notice goes to everyone.
 */
function audienceSql(db: Db, tenant: Tenant, f: AudienceFilter, marketing: boolean, today: string) {
  const within: SQLWrapper[] = [];
  const classes = {
    termIds: f.term_ids,
    classTypeIds: f.class_type_ids,
    classIds: f.class_ids,
    weekdays: f.weekdays,
    statuses: f.enrolment_statuses,
    today,
  };
  const anyClassFilter =
    f.term_ids.length +
      f.class_type_ids.length +
      f.class_ids.length +
      f.weekdays.length +
      f.enrolment_statuses.length >
    0;
  if (anyClassFilter) {
    // A family is in when one of its children has a place, or it waits for one (OR within the kind).
    const { childIds, waitingParentIds } = classAudience(db, tenant, classes);
    const families = [
      ...(childIds ? [familiesOfChildren(db, tenant, childIds)] : []),
      ...(waitingParentIds ? [waitingParentIds] : []),
    ];
    within.push(families.length === 2 ? unionOf(families[0]!, families[1]!) : families[0]!);
  }
  if (f.event_ids.length) within.push(familiesBookedOn(db, tenant, f.event_ids));
  if (f.party_from || f.party_to) within.push(familiesWithPartyBetween(db, tenant, f.party_from, f.party_to));
  if (f.age_min !== null || f.age_max !== null)
    within.push(familiesWithChildAged(db, tenant, f.age_min, f.age_max, today));
  if (f.unpaid_balance) within.push(familiesOwing(db, tenant));
  if (f.flag_ids.length) within.push(familiesFlagged(db, tenant, f.flag_ids));
  if (f.consent_granted) within.push(familiesWithConsent(db, tenant, 'granted'));
  const without = marketing ? [familiesWithConsent(db, tenant, 'withdrawn')] : [];
  return { within, without };
}

/** The families a filter matches now (one per family, never per child), first `limit` by name. */
export async function audienceOf(
  db: Db,
  tenant: Tenant,
  timeZone: string,
  filter: AudienceFilter,
  marketing: boolean,
  limit = 200,
): Promise<AudienceResponse> {
  const today = todayIn(timeZone);
  const { within, without } = audienceSql(db, tenant, filter, marketing, today);
  const [count, families, everyone] = await Promise.all([
    countFamiliesWhere(db, tenant, within, without),
    familiesWhere(db, tenant, within, without, limit),
    marketing ? countFamiliesWhere(db, tenant, within, []) : Promise.resolve(0),
  ]);
  return { count, families, unsubscribed: marketing ? everyone - count : 0 };
}

/** Every matching family's id: the recipients of a mass mail when it starts sending. */
export async function audienceIds(
  db: Db,
  tenant: Tenant,
  timeZone: string,
  filter: AudienceFilter,
  marketing: boolean,
): Promise<number[]> {
  const { within, without } = audienceSql(db, tenant, filter, marketing, todayIn(timeZone));
  const rows = await familiesWhere(db, tenant, within, without, EVERY_FAMILY);
  return rows.map((row) => row.id);
}

/** What the filters choose from, and the company's time zone for the schedule. */
export async function audienceOptions(db: Db, tenant: Tenant): Promise<AudienceOptionsResponse> {
  const [company, classes, events, flags] = await Promise.all([
    companyOf(db, tenant),
    classAudienceOptions(db, tenant),
    eventChoices(db, tenant),
    flagChoices(db, tenant),
  ]);
  return {
    terms: classes.terms,
    class_types: classes.classTypes,
    classes: classes.classes,
    events,
    flags,
    time_zone: company.timeZone,
  };
}
