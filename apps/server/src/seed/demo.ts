import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { companies, users } from '../features/accounts/accounts.tables.ts';
import { DEFAULT_TERMS_HTML } from '../features/billing/billing.resource.ts';
import { DEFAULT_PARTY_TERMS_HTML } from '../features/billing/billing.service.ts';
import {
  coupons,
  insurances,
  nswSettings,
  paymentMethods,
  paymentTerms,
  surcharges,
} from '../features/billing/billing.tables.ts';
import { bookingChildren, bookingPlaces, bookings } from '../features/bookings/bookings.tables.ts';
import {
  eventContacts,
  eventPriceTiers,
  eventSessions,
  events,
  eventTickets,
} from '../features/events/events.tables.ts';
import { DEFAULT_INVITATION_HTML } from '../features/parties/parties.resource.ts';
import { birthdayPricing, partyInvitationSettings, partySlots } from '../features/parties/parties.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { restrictedDates, venues } from '../features/venues/venues.tables.ts';
import { waivers } from '../features/waivers/waivers.tables.ts';
import { Tenant } from '../platform/tenancy.ts';
import { addDays, mondayOf, todayIn } from '../platform/time.ts';
import { seedAutopayDemo } from './autopay-demo.ts';
import { seedCancellationDemo } from './cancellation-demo.ts';
import { demoCoaches, seedClassesDemo } from './classes-demo.ts';
import { seedCommunicationsDemo } from './communications-demo.ts';
import { seedCrmDemo } from './crm-demo.ts';
import { DEMO_COUPON, type DemoScope, demoNoSignInHash, demoPasswordHash } from './demo-scope.ts';
import { seedFlagsTasksDemo } from './flags-tasks-demo.ts';
import { seedInvoicesDemo } from './invoices-demo.ts';
import { seedMoneyReportsDemo } from './money-reports-demo.ts';
import { DEMO_OPERATOR, seedOperatorDemo } from './operator-demo.ts';
import { seedPlansDemo } from './plans-demo.ts';
import { seedRemindersDemo } from './reminders-demo.ts';
import { seedReportsDemo } from './reports-demo.ts';
import { seedUniformsDemo } from './uniforms-demo.ts';

/**
 * The demo company, with fixed ids and the documented logins (README.md). Idempotent: a second
 * start finds the rows and changes nothing. Real companies get unguessable authhashes.
 */
export const DEMO = {
  companyId: 1,
  authhash: 'demo',
  admin: { email: 'admin@demo.test', password: 'demo-admin-1' },
  parent: { email: 'parent@demo.test', password: 'demo-parent-1' },
  venueId: 1,
  events: { camp: 1, ninja: 2 },
  coupon: DEMO_COUPON,
} as const;

/** How to seed one copy of the demo company (seedDemoCompany). */
export interface DemoCompanyOptions {
  /**
   * The demo's fixed id 1; a company made for a test leaves it out and takes the next id. With an
   * id, the venue and events take the demo's fixed ids too (DEMO.venueId, DEMO.events).
   */
  id?: number;
  authhash: string;
  /**
   * The domain of every address the company's people have: 'demo.test' for the demo. Staff emails
   * are unique across the installation, so each copy needs a domain of its own.
   */
  emailDomain: string;
}

export interface DemoPerson {
  email: string;
  password: string;
  fullName: string;
}

/** One seeded copy of the demo company: where it is and who signs in to it. */
export interface DemoCompany {
  companyId: number;
  authhash: string;
  /** 'Bounce Gymnastics Parramatta' for every copy. */
  name: string;
  emailDomain: string;
  admin: DemoPerson;
  parent: DemoPerson;
  coaches: { casey: DemoPerson; sam: DemoPerson };
  venueId: number;
  events: { camp: number; ninja: number };
  coupon: string;
}

const COMPANY_NAME = 'Bounce Gymnastics Parramatta';
const TIME_ZONE = 'Australia/Sydney';

/** The address of a person of a demo company: demoEmail('walker', 'demo.test') = 'walker@demo.test'. */
export function demoEmail(local: string, emailDomain: string): string {
  // Users' emails are stored lower-cased; a domain given in capitals still finds its rows.
  return `${local}@${emailDomain}`.toLowerCase();
}

/**
 * The `e` query of /booking: hex of `<company id>|<event id>` (SPEC.md point 2: the second
 * pipe-separated part is the event id; the first, the company, must match the authhash).
 */
export function demoEventCode(eventId: number, companyId: number = DEMO.companyId): string {
  return Buffer.from(`${companyId}|${eventId}`).toString('hex');
}

/** A date `days` from the company's today, as YYYY-MM-DD. */
const inDays = (days: number) => addDays(todayIn(TIME_ZONE), days);
/** The first Monday after the date `weeks` weeks from the company's today. */
const mondayIn = (weeks: number) => addDays(mondayOf(inDays(weeks * 7)), 7);

/**
 * Venue, two published holiday programs, party slots and pricing, insurances, a coupon and terms.
 * `fixedIds`: the demo's venue and events keep the ids the README's links name.
 */
async function seedCatalog(
  tx: Db,
  tenant: Tenant,
  parentId: number,
  emailDomain: string,
  fixedIds: boolean,
): Promise<{ venueId: number; events: { camp: number; ninja: number } }> {
  const v = (values: object) => tenant.values(values);
  const fixed = (id: number) => (fixedIds ? { id } : {});
  const [venue] = await tx
    .insert(venues)
    .values(
      v({
        ...fixed(DEMO.venueId),
        name: 'Bounce Gymnastics Centre',
        address: '12 Church Street',
        suburb: 'Parramatta',
        state: 'NSW',
        postcode: '2150',
        phone: '02 9635 0000',
      }) as typeof venues.$inferInsert,
    )
    .returning({ id: venues.id });
  const venueId = venue!.id;
  const campStart = mondayIn(1);
  const ninjaStart = mondayIn(2);
  const [campRow, ninjaRow] = await tx
    .insert(events)
    .values([
      v({
        ...fixed(DEMO.events.camp),
        name: 'Summer Gymnastics Holiday Camp',
        venueId,
        startDate: campStart,
        endDate: addDays(campStart, 11),
        ageStart: 5,
        ageEnd: 12,
        intro: 'Two weeks of tumbling, trampoline and games for kids aged 5 to 12.',
        full: '<p>Our coaches run a full program of <strong>gymnastics, trampoline and ninja games</strong>. Bring a water bottle, a hat and a packed lunch.</p><ul><li>Morning camp 9am–12pm</li><li>Full day 9am–3pm</li></ul>',
        cutOffDay: true,
        cutoffDaysBefore: 1,
        cutoffTime: '17:00',
        bookingFee: 250,
        published: true,
      }) as typeof events.$inferInsert,
      v({
        ...fixed(DEMO.events.ninja),
        name: 'Ninja Warrior Week',
        venueId,
        startDate: ninjaStart,
        endDate: addDays(ninjaStart, 4),
        ageStart: 7,
        ageEnd: 100,
        intro: 'Obstacle courses, climbing and balance challenges.',
        full: '<p>A week of ninja obstacle training. Places are limited.</p>',
        bookingFee: 0,
        published: true,
      }) as typeof events.$inferInsert,
    ])
    .returning({ id: events.id });
  const ids = { camp: campRow!.id, ninja: ninjaRow!.id };
  const [morning, fullDay, ninja] = await tx
    .insert(eventSessions)
    .values([
      v({
        eventId: ids.camp,
        name: 'Morning camp',
        startDate: campStart,
        endDate: addDays(campStart, 11),
        startTime: '09:00',
        endTime: '12:00',
        capacity: 20,
      }),
      v({
        eventId: ids.camp,
        name: 'Full day',
        startDate: campStart,
        endDate: addDays(campStart, 11),
        startTime: '09:00',
        endTime: '15:00',
        capacity: 3,
      }),
      v({
        eventId: ids.ninja,
        name: 'Ninja session',
        startDate: ninjaStart,
        endDate: addDays(ninjaStart, 4),
        startTime: '10:00',
        endTime: '13:00',
        capacity: 2,
      }),
    ] as (typeof eventSessions.$inferInsert)[])
    .returning({ id: eventSessions.id });
  await tx
    .insert(eventTickets)
    .values([
      v({ eventId: ids.camp, sessionId: morning!.id, name: 'Morning camp day', price: 4500 }),
      v({ eventId: ids.camp, sessionId: fullDay!.id, name: 'Full day', price: 7500 }),
      v({ eventId: ids.ninja, sessionId: ninja!.id, name: 'Ninja session', price: 5500 }),
    ] as (typeof eventTickets.$inferInsert)[]);
  await tx.insert(eventPriceTiers).values(
    v({
      eventId: ids.camp,
      sessionId: fullDay!.id,
      name: '5 days or more',
      minDays: 5,
      price: 6500,
    }) as typeof eventPriceTiers.$inferInsert,
  );
  await tx.insert(eventContacts).values(
    v({
      eventId: ids.camp,
      name: 'Casey Coach',
      email: demoEmail('camps', `bounce.${emailDomain}`),
      phone: '0400 123 456',
    }) as typeof eventContacts.$inferInsert,
  );
  await tx.insert(insurances).values([
    v({
      name: 'Daily accident cover',
      kind: 'daily',
      price: 300,
      description: 'Per child, per booked day.',
    }),
    v({
      name: 'Season cover',
      kind: 'full',
      price: 2500,
      description: 'Covers every activity until 30 June.',
    }),
  ] as (typeof insurances.$inferInsert)[]);
  await tx.insert(coupons).values(
    v({
      code: DEMO.coupon,
      discountType: 'percent',
      percentOff: 10,
      validFrom: inDays(-30),
      validTo: inDays(365),
      usageLimit: 1000,
      perParentLimit: 5,
    }) as typeof coupons.$inferInsert,
  );
  await tx.insert(nswSettings).values(
    v({
      name: 'Active Kids voucher',
      enabled: true,
      voucherValue: 5000,
      codeFormat: '^[0-9]{8}$',
    }) as typeof nswSettings.$inferInsert,
  );
  await tx.insert(paymentMethods).values(
    v({
      provider: 'test',
      label: 'Card (test mode)',
      enabled: true,
      isDefault: true,
    }) as typeof paymentMethods.$inferInsert,
  );
  await tx.insert(surcharges).values(
    v({
      name: 'Card surcharge',
      paymentMethod: 'test',
      kind: 'percent',
      amount: 150,
    }) as typeof surcharges.$inferInsert,
  );
  await tx.insert(paymentTerms).values([
    v({ name: 'Holiday program terms', appliesTo: 'events', content: DEFAULT_TERMS_HTML, isDefault: true }),
    v({
      name: 'Birthday party terms',
      appliesTo: 'parties',
      content: DEFAULT_PARTY_TERMS_HTML,
      isDefault: true,
    }),
  ] as (typeof paymentTerms.$inferInsert)[]);
  await tx.insert(partySlots).values([
    v({
      name: 'Saturday morning',
      venueId,
      startTime: '10:00',
      durationMinutes: 120,
      daysOfWeek: ['6'],
      capacity: 20,
    }),
    v({
      name: 'Saturday afternoon',
      venueId,
      startTime: '13:30',
      durationMinutes: 120,
      daysOfWeek: ['6'],
      capacity: 20,
    }),
    v({
      name: 'Sunday morning',
      venueId,
      startTime: '10:00',
      durationMinutes: 120,
      daysOfWeek: ['7'],
      capacity: 25,
    }),
  ] as (typeof partySlots.$inferInsert)[]);
  await tx.insert(birthdayPricing).values(
    v({
      name: 'Birthday party',
      basePrice: 39500,
      includedGuests: 10,
      pricePerExtraGuest: 2500,
      deposit: 10000,
    }) as typeof birthdayPricing.$inferInsert,
  );
  await tx.insert(partyInvitationSettings).values(
    v({
      subject: 'You are invited to {{child}}’s party',
      body: DEFAULT_INVITATION_HTML,
    }) as typeof partyInvitationSettings.$inferInsert,
  );
  await tx.insert(restrictedDates).values(
    v({
      date: `${todayIn(TIME_ZONE).slice(0, 4)}-12-25`,
      reason: 'Christmas Day',
      appliesTo: 'all',
      recurringYearly: true,
    }) as typeof restrictedDates.$inferInsert,
  );
  await tx.insert(waivers).values(
    v({
      title: 'Participation and medical waiver',
      body: [
        '<p>I am the parent or legal guardian of the child named below and give permission for them to take part in gymnastics, ninja, trampoline and play activities run by Bounce Gymnastics Parramatta.</p>',
        '<p>I understand that physical activity carries a risk of injury. Our coaches follow safe teaching practice and supervise every session.</p>',
        '<p>I authorise staff to arrange first aid and, if needed, call an ambulance at my expense. I have told the gym about any medical condition below.</p>',
      ].join(''),
      appliesTo: 'all',
      askFields: ['medical', 'allergies', 'emergency_contact', 'photo_consent'],
    }) as typeof waivers.$inferInsert,
  );
  // Bookings that make the demo realistic: the camp's first full day nearly full (1 of 3 left) and
  // the ninja week's first day full (waitlist only). Another family, so the demo parent books freely.
  const [family] = await tx
    .insert(users)
    .values(
      tenant.values({
        role: 'student' as const,
        email: demoEmail('family', emailDomain),
        fullName: 'Jo Family',
        passwordHash: await demoNoSignInHash(),
        status: 'active' as const,
      }),
    )
    .returning();
  const kids = await tx
    .insert(children)
    .values([
      v({ parentId: family!.id, firstName: 'Noah', lastName: 'Family', dob: '2016-05-14', consent: true }),
      v({ parentId: family!.id, firstName: 'Ava', lastName: 'Family', dob: '2018-09-02', consent: true }),
    ] as (typeof children.$inferInsert)[])
    .returning();
  await tx.insert(children).values(
    v({
      parentId,
      firstName: 'Mia',
      lastName: 'Parent',
      dob: '2017-03-21',
      consent: true,
    }) as typeof children.$inferInsert,
  );
  const seedBooking = async (eventId: number, sessionId: number, date: string, unitPrice: number) => {
    const [booking] = await tx
      .insert(bookings)
      .values(
        v({
          parentId: family!.id,
          eventId,
          reference: `demo-${eventId}-${sessionId}`,
          code: `BK-D${eventId}${sessionId}`,
          status: 'confirmed',
          quantity: 2,
          pricing: { subtotal: unitPrice * 2, total: unitPrice * 2 },
          total: unitPrice * 2,
          provider: 'test',
          confirmedAt: new Date(),
        }) as typeof bookings.$inferInsert,
      )
      .returning();
    await tx
      .insert(bookingChildren)
      .values(
        kids.map((k) =>
          v({ bookingId: booking!.id, childId: k.id, insuranceType: 'none' }),
        ) as (typeof bookingChildren.$inferInsert)[],
      );
    await tx.insert(bookingPlaces).values(
      v({
        bookingId: booking!.id,
        sessionId,
        date,
        places: 2,
        unitPrice,
      }) as typeof bookingPlaces.$inferInsert,
    );
  };
  await seedBooking(ids.camp, fullDay!.id, campStart, 7500);
  await seedBooking(ids.ninja, ninja!.id, ninjaStart, 5500);
  // Fixed ids above: move the sequences past them so rows added later never collide.
  if (fixedIds) {
    for (const table of ['venues', 'events']) {
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('${table}', 'id'), greatest((select max(id) from ${table}), 1))`,
        ),
      );
    }
  }
  return { venueId, events: ids };
}

/** The people of a demo company (README.md), their addresses in its domain. */
function demoPeople(emailDomain: string) {
  const email = (local: string) => demoEmail(local, emailDomain);
  return {
    admin: { email: email('admin'), password: 'demo-admin-1', fullName: 'Alex Admin' },
    parent: { email: email('parent'), password: 'demo-parent-1', fullName: 'Pat Parent' },
    coaches: demoCoaches(email),
  };
}

function scopeOf(company: DemoCompany): DemoScope {
  const fixed = company.companyId === DEMO.companyId;
  return {
    tenant: new Tenant(company.companyId),
    emailDomain: company.emailDomain,
    email: (local) => demoEmail(local, company.emailDomain),
    venueId: company.venueId,
    events: company.events,
    timeZone: TIME_ZONE,
    unique: (name) => (fixed ? name : `${name}-${company.companyId}`),
  };
}

/**
 * The company row, its admin and parent, and the catalogue, in one transaction so a half-made
 * company is never left behind. Null when the fixed id (or the authhash) is already taken.
 */
async function insertDemoCompany(db: Db, options: DemoCompanyOptions): Promise<DemoCompany | null> {
  const people = demoPeople(options.emailDomain);
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(companies)
      .values({
        ...(options.id === undefined ? {} : { id: options.id }),
        name: COMPANY_NAME,
        authhash: options.authhash,
        timeZone: TIME_ZONE,
        currency: 'AUD',
        paymentMethod: 'test',
        email: demoEmail('hello', `bounce.${options.emailDomain}`),
        phone: '02 9635 0000',
      })
      .onConflictDoNothing()
      .returning({ id: companies.id });
    if (inserted.length === 0) return null;
    const companyId = inserted[0]!.id;
    // Fixed ids above; move the sequence past them so real signups never collide.
    if (options.id !== undefined) {
      await tx.execute(
        sql`select setval(pg_get_serial_sequence('companies', 'id'), greatest(max(id), 1)) from companies`,
      );
    }
    const tenant = new Tenant(companyId);
    const [, parent] = await tx
      .insert(users)
      .values([
        tenant.values({
          role: 'companyadmin' as const,
          email: people.admin.email,
          fullName: people.admin.fullName,
          phone: '0400 000 001',
          passwordHash: await demoPasswordHash(people.admin.password),
          status: 'active' as const,
        }),
        tenant.values({
          role: 'student' as const,
          email: people.parent.email,
          fullName: people.parent.fullName,
          phone: '0400 000 002',
          passwordHash: await demoPasswordHash(people.parent.password),
          status: 'active' as const,
        }),
      ])
      .returning();
    const catalogue = await seedCatalog(
      tx,
      tenant,
      parent!.id,
      options.emailDomain,
      options.id !== undefined,
    );
    return {
      companyId,
      authhash: options.authhash,
      name: COMPANY_NAME,
      emailDomain: options.emailDomain,
      ...people,
      ...catalogue,
      coupon: DEMO_COUPON,
    };
  });
}

/**
 * Every per-company part after the catalogue, each in its own transaction and each skipped when
 * its own rows are already there, so an older demo database gains the parts added since.
 */
async function seedCompanyParts(db: Db, config: Config, scope: DemoScope): Promise<void> {
  await seedClassesDemo(db, scope);
  await seedCancellationDemo(db, scope);
  await seedInvoicesDemo(db, scope);
  await seedAutopayDemo(db, scope);
  await seedFlagsTasksDemo(db, scope);
  await seedReportsDemo(db, scope);
  await seedUniformsDemo(db, scope);
  await seedMoneyReportsDemo(db, scope);
  await seedCrmDemo(db, scope);
  await seedRemindersDemo(db, scope, config);
  await seedCommunicationsDemo(db, scope);
}

/**
 * Seeds one full copy of the demo company: the same people, catalogue, classes, bookings,
 * invoices and reports as the demo, under its own authhash and email domain, so each end-to-end
 * spec can have a company of its own.
 *
 * ```ts
 * const gym = await seedDemoCompany(db, config, { authhash: 'spec-roll', emailDomain: 'roll.spec.test' });
 * await signIn(app, gym.admin); // admin@roll.spec.test
 * ```
 *
 * Throws when the id or the authhash is taken.
 */
export async function seedDemoCompany(
  db: Db,
  config: Config,
  options: DemoCompanyOptions,
): Promise<DemoCompany> {
  const company = await insertDemoCompany(db, options);
  if (!company)
    throw new Error(`A company with id ${options.id} or authhash ${options.authhash} exists already.`);
  await seedCompanyParts(db, config, scopeOf(company));
  return company;
}

const DEMO_EMAIL_DOMAIN = 'demo.test';

/** The demo company itself, as seedDemo makes it with its fixed ids: DEMO in a copy's shape. */
export const DEMO_COMPANY: DemoCompany = {
  companyId: DEMO.companyId,
  authhash: DEMO.authhash,
  name: COMPANY_NAME,
  emailDomain: DEMO_EMAIL_DOMAIN,
  ...demoPeople(DEMO_EMAIL_DOMAIN),
  venueId: DEMO.venueId,
  events: { ...DEMO.events },
  coupon: DEMO.coupon,
};

export async function seedDemo(db: Db, config: Config): Promise<{ created: boolean; summary: string[] }> {
  const made = await insertDemoCompany(db, {
    id: DEMO.companyId,
    authhash: DEMO.authhash,
    emailDomain: DEMO_EMAIL_DOMAIN,
  });
  // Company 1 already there: the parts run again, each adding only what it finds missing, unless
  // id 1 belongs to another company (a test's copy or a signup made before the demo).
  const [demo] = made
    ? [made]
    : await db
        .select({ id: companies.id })
        .from(companies)
        .where(and(eq(companies.id, DEMO.companyId), eq(companies.authhash, DEMO.authhash)));
  if (demo) await seedCompanyParts(db, config, scopeOf(DEMO_COMPANY));
  // Installation-level, not per company: once, whatever the companies.
  await seedPlansDemo(db);
  await seedOperatorDemo(db);
  const url = config.publicUrl;
  return {
    created: made !== null,
    summary: [
      made !== null ? 'demo company created' : 'demo company already present',
      `staff sign-in:  ${url}/admin/login  ${DEMO.admin.email} / ${DEMO.admin.password}`,
      `operator:       ${url}/admin/login  ${DEMO_OPERATOR.email} / ${DEMO_OPERATOR.password}`,
      `parent sign-in: ${url}/admin/students/login?authhash=${DEMO.authhash}  ${DEMO.parent.email} / ${DEMO.parent.password}`,
      `event booking:  ${url}/booking?e=${demoEventCode(DEMO.events.camp)}&authhash=${DEMO.authhash}`,
      `party booking:  ${url}/birthday-party/booking/?authhash=${DEMO.authhash}`,
      `API reference:  ${url}/api/docs`,
    ],
  };
}
