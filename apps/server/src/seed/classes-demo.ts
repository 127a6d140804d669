import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../features/accounts/accounts.tables.ts';
import { type CalendarTerm, calendarTerms } from '../features/classes/calendar/term-calendar.ts';
import {
  attendance,
  classEnrolments,
  classSessions,
  classTypes,
  termClasses,
  termClosures,
  terms,
} from '../features/classes/classes.tables.ts';
import { coaches, coachLeaves } from '../features/coaches/coaches.tables.ts';
import { embedOrigins, registrationForms } from '../features/registration/registration.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { rooms } from '../features/venues/venues.tables.ts';
import { addDays, datesBetween, isoWeekday, mondayOf, todayIn, zonedInstant } from '../platform/time.ts';
import { type DemoScope, demoNoSignInHash, demoPasswordHash } from './demo-scope.ts';

/** The coaches of a demo company (README.md): staff users with role companycoach. */
export function demoCoaches(email: (local: string) => string) {
  return {
    casey: { email: email('coach'), password: 'demo-coach-1', fullName: 'Casey Coach' },
    sam: { email: email('coach2'), password: 'demo-coach-2', fullName: 'Sam Rivera' },
  };
}

/** The demo's own coaches (README.md): coach@demo.test and coach2@demo.test. */
export const DEMO_COACHES = demoCoaches((local) => `${local}@demo.test`);

/** Weeks of classes the demo's term has left at least, so next week's sessions are always there. */
const WEEKS_LEFT = 3;

/**
 * The NSW term of the built-in calendar that holds `today` with at least three weeks to run; in
 * the school holidays, near a term's end or past the calendar, ten weeks from three Mondays ago.
 * Either way the demo has a term running, with past sessions and rolls and weeks still to come.
 */
function currentTerm(today: string): CalendarTerm {
  const running = calendarTerms().find(
    (t) => t.region === 'NSW' && t.startDate <= today && addDays(today, WEEKS_LEFT * 7) <= t.endDate,
  );
  const start = addDays(mondayOf(today), -WEEKS_LEFT * 7);
  return (
    running ?? {
      region: 'NSW',
      year: 2027,
      term: 4,
      name: `Term from ${start}`,
      startDate: start,
      endDate: addDays(start, 69),
      confirmed: false,
      closures: [],
    }
  );
}

/** Families beyond the demo's own, each with children of class ages. */
const FAMILIES = [
  {
    local: 'nguyen',
    fullName: 'Lee Nguyen',
    kids: [
      { key: 'ella', firstName: 'Ella', dob: '2021-04-10', consent: true, medicalNotes: null },
      { key: 'max', firstName: 'Max', dob: '2019-08-22', consent: true, medicalNotes: null },
    ],
  },
  {
    local: 'sharma',
    fullName: 'Priya Sharma',
    kids: [
      {
        key: 'arjun',
        firstName: 'Arjun',
        dob: '2020-11-03',
        consent: true,
        medicalNotes: 'Asthma: reliever inhaler in his bag.',
      },
      { key: 'anika', firstName: 'Anika', dob: '2022-02-14', consent: false, medicalNotes: null },
    ],
  },
  {
    local: 'walker',
    fullName: 'Tom Walker',
    kids: [
      {
        key: 'ruby',
        firstName: 'Ruby',
        dob: '2022-06-30',
        consent: true,
        medicalNotes: 'Peanut allergy: EpiPen with the front desk.',
      },
      { key: 'jack', firstName: 'Jack', dob: '2017-12-05', consent: true, medicalNotes: null },
    ],
  },
  {
    local: 'chen',
    fullName: 'Sophie Chen',
    kids: [
      { key: 'olivia', firstName: 'Olivia', dob: '2021-09-18', consent: true, medicalNotes: null },
      { key: 'leo', firstName: 'Leo', dob: '2016-03-09', consent: false, medicalNotes: null },
    ],
  },
] as const;

type TypeKey = 'kinder' | 'rec' | 'ninja';
type RoomKey = 'floor' | 'kinder';
type CoachKey = keyof ReturnType<typeof demoCoaches>;
type ChildKey = (typeof FAMILIES)[number]['kids'][number]['key'] | 'noah' | 'ava' | 'mia';

/** Twelve weekly classes across the two rooms, with who is enrolled in each. */
const CLASSES: {
  type: TypeKey;
  name: string;
  weekday: number;
  start: string;
  room: RoomKey;
  coach: CoachKey;
  kids: ChildKey[];
}[] = [
  {
    type: 'kinder',
    name: 'Kinder Gym Monday',
    weekday: 1,
    start: '09:30',
    room: 'kinder',
    coach: 'sam',
    kids: ['ella', 'anika', 'ruby'],
  },
  {
    type: 'kinder',
    name: 'Kinder Gym Tuesday',
    weekday: 2,
    start: '10:00',
    room: 'kinder',
    coach: 'casey',
    kids: ['olivia', 'ruby', 'anika'],
  },
  {
    type: 'kinder',
    name: 'Kinder Gym Wednesday',
    weekday: 3,
    start: '09:30',
    room: 'kinder',
    coach: 'sam',
    kids: ['ella', 'olivia'],
  },
  {
    type: 'kinder',
    name: 'Kinder Gym Saturday',
    weekday: 6,
    start: '08:30',
    room: 'kinder',
    coach: 'casey',
    kids: ['anika', 'ruby', 'olivia', 'ella'],
  },
  {
    type: 'rec',
    name: 'Recreational Gymnastics Monday',
    weekday: 1,
    start: '16:00',
    room: 'floor',
    coach: 'casey',
    kids: ['noah', 'mia', 'jack'],
  },
  {
    type: 'rec',
    name: 'Recreational Gymnastics Tuesday',
    weekday: 2,
    start: '16:30',
    room: 'floor',
    coach: 'sam',
    kids: ['ava', 'max', 'arjun'],
  },
  {
    type: 'rec',
    name: 'Recreational Gymnastics Wednesday',
    weekday: 3,
    start: '16:00',
    room: 'floor',
    coach: 'casey',
    kids: ['mia', 'leo', 'ava'],
  },
  {
    type: 'rec',
    name: 'Recreational Gymnastics Thursday',
    weekday: 4,
    start: '16:30',
    room: 'floor',
    coach: 'sam',
    kids: ['jack', 'max'],
  },
  {
    type: 'ninja',
    name: 'Ninja Kids Tuesday',
    weekday: 2,
    start: '17:30',
    room: 'floor',
    coach: 'casey',
    kids: ['noah', 'leo', 'max'],
  },
  {
    type: 'ninja',
    name: 'Ninja Kids Thursday',
    weekday: 4,
    start: '17:30',
    room: 'floor',
    coach: 'casey',
    kids: ['jack', 'arjun', 'noah'],
  },
  {
    type: 'ninja',
    name: 'Ninja Kids Friday',
    weekday: 5,
    start: '16:00',
    room: 'floor',
    coach: 'sam',
    kids: ['leo', 'arjun'],
  },
  {
    type: 'rec',
    name: 'Recreational Gymnastics Saturday',
    weekday: 6,
    start: '09:00',
    room: 'floor',
    coach: 'sam',
    kids: ['ava', 'mia', 'noah', 'max'],
  },
];

/**
 * A demo company's classes: the current NSW term from the built-in calendar with its
 * public holidays as closures, three class types, twelve classes in two rooms, two coaches with
 * verified checks (Sam on leave this week: Casey covers all but one of Sam's sessions, which needs
 * cover), the dated sessions of the term, enrolments for the demo's children and four more
 * families, and a roll taken for every past session. Idempotent on its own: it runs when the
 * company's first coach does not exist yet, so an older demo database gains it too.
 */
export async function seedClassesDemo(db: Db, scope: DemoScope): Promise<boolean> {
  const { tenant, venueId, timeZone } = scope;
  const coachLogins = demoCoaches(scope.email);
  return db.transaction(async (tx) => {
    const [seeded] = await tx
      .select({ id: users.id })
      .from(users)
      .where(tenant.where(users, eq(users.email, coachLogins.casey.email)));
    if (seeded) return false;

    const today = todayIn(timeZone);
    const term = currentTerm(today);
    const [termRow] = await tx
      .insert(terms)
      .values(
        tenant.values({
          name: term.name,
          startDate: term.startDate,
          endDate: term.endDate,
          region: term.region,
          status: 'open' as const,
        }),
      )
      .returning();
    // The calendar's public holidays inside the term; a term without one (NSW Term 4 has none)
    // gets a facility closure a fortnight out, so the timetable shows a skipped day either way.
    const closures = term.closures.length
      ? term.closures
      : (() => {
          const day = addDays(today, 14) <= term.endDate ? addDays(today, 14) : term.endDate;
          return [{ startDate: day, endDate: day, reason: 'Gym closed: floor maintenance' }];
        })();
    await tx
      .insert(termClosures)
      .values(closures.map((c) => tenant.values({ termId: termRow!.id, ...c, kind: 'closed' as const })));
    const closed = (date: string) => closures.some((c) => c.startDate <= date && date <= c.endDate);

    const roomRows = await tx
      .insert(rooms)
      .values([
        tenant.values({ venueId, name: 'Main floor', capacity: 30 }),
        tenant.values({ venueId, name: 'Kinder room', capacity: 12 }),
      ])
      .returning();
    const roomIds: Record<RoomKey, number> = { floor: roomRows[0]!.id, kinder: roomRows[1]!.id };

    const typeRows = await tx
      .insert(classTypes)
      .values([
        tenant.values({
          name: 'Kinder Gym',
          description: '<p>Movement, balance and confidence for pre-schoolers, with a parent nearby.</p>',
          level: 'Pre-school',
          ageMinMonths: 24,
          ageMaxMonths: 60,
          defaultDurationMinutes: 45,
          colour: '#f08c00',
          capacityDefault: 8,
          price: 2200,
          trialAllowed: true,
          trialPrice: 1000,
          makeupAllowed: true,
          makeupExpiry: 'end_of_term' as const,
          gst: 'gst_free' as const,
        }),
        tenant.values({
          name: 'Recreational Gymnastics',
          description: '<p>Rolls, handstands, bars and beam, skill by skill.</p>',
          level: 'Beginner to intermediate',
          ageMinMonths: 60,
          ageMaxMonths: 156,
          defaultDurationMinutes: 60,
          colour: '#1c7ed6',
          capacityDefault: 10,
          pricingModel: 'term' as const,
          price: 22000,
          trialAllowed: true,
          trialPrice: 1500,
          makeupAllowed: true,
          makeupExpiry: 'days' as const,
          makeupExpiryDays: 30,
          makeupCapPerTerm: 2,
        }),
        tenant.values({
          name: 'Ninja Kids',
          description: '<p>Obstacle courses, climbing and parkour moves.</p>',
          level: 'All levels',
          ageMinMonths: 72,
          ageMaxMonths: 156,
          defaultDurationMinutes: 60,
          colour: '#2f9e44',
          capacityDefault: 10,
          price: 2500,
        }),
      ])
      .returning();
    const types: Record<TypeKey, (typeof typeRows)[number]> = {
      kinder: typeRows[0]!,
      rec: typeRows[1]!,
      ninja: typeRows[2]!,
    };

    // Coaches: staff users who sign in, each with a cleared, verified, current check.
    const coachUsers = await tx
      .insert(users)
      .values(
        await Promise.all(
          Object.values(coachLogins).map(async (c, i) =>
            tenant.values({
              role: 'companycoach' as const,
              email: c.email,
              fullName: c.fullName,
              phone: `0400 000 01${i + 1}`,
              passwordHash: await demoPasswordHash(c.password),
              status: 'active' as const,
            }),
          ),
        ),
      )
      .returning();
    const coachRows = await tx
      .insert(coaches)
      .values(
        coachUsers.map((u, i) =>
          tenant.values({
            userId: u.id,
            name: u.fullName,
            phone: u.phone,
            qualifications:
              i === 0 ? 'Gymnastics Australia Intermediate Coach' : 'Gymnastics Australia Beginner Coach',
            wwccNumber: i === 0 ? 'WWC0123456E' : 'WWC0654321E',
            wwccVerifiedOn: addDays(today, -60),
            wwccOutcome: 'cleared' as const,
            wwccExpiresOn: addDays(today, 3 * 365),
          }),
        ),
      )
      .returning();
    const coachIds: Record<CoachKey, number> = { casey: coachRows[0]!.id, sam: coachRows[1]!.id };
    const coachUserIds: Record<CoachKey, number> = { casey: coachUsers[0]!.id, sam: coachUsers[1]!.id };

    // Sam is on leave this week (within the term).
    const leaveStart = mondayOf(today) < term.startDate ? term.startDate : mondayOf(today);
    const leaveEnd = addDays(leaveStart, 6);
    await tx.insert(coachLeaves).values(
      tenant.values({
        coachId: coachIds.sam,
        startDate: leaveStart,
        endDate: leaveEnd,
        reason: 'Annual leave',
      }),
    );

    // Children: those the events demo made (Jo Family's Noah and Ava, the demo parent's Mia), and four
    // more families.
    const own = await tx
      .select({ id: children.id, firstName: children.firstName })
      .from(children)
      .where(tenant.where(children, inArray(children.firstName, ['Noah', 'Ava', 'Mia'])));
    const childIds = new Map<ChildKey, number>(own.map((c) => [c.firstName.toLowerCase() as ChildKey, c.id]));
    for (const family of FAMILIES) {
      const [parent] = await tx
        .insert(users)
        .values(
          tenant.values({
            role: 'student' as const,
            email: scope.email(family.local),
            fullName: family.fullName,
            passwordHash: await demoNoSignInHash(),
            status: 'active' as const,
          }),
        )
        .returning();
      const kids = await tx
        .insert(children)
        .values(
          family.kids.map((k) =>
            tenant.values({
              parentId: parent!.id,
              firstName: k.firstName,
              lastName: family.fullName.split(' ')[1]!,
              dob: k.dob,
              consent: k.consent,
              medicalNotes: k.medicalNotes,
            }),
          ),
        )
        .returning();
      for (const [i, k] of family.kids.entries()) childIds.set(k.key, kids[i]!.id);
    }

    for (const [index, c] of CLASSES.entries()) {
      const type = types[c.type];
      const [klass] = await tx
        .insert(termClasses)
        .values(
          tenant.values({
            termId: termRow!.id,
            classTypeId: type.id,
            name: c.name,
            weekday: c.weekday,
            startTime: c.start,
            durationMinutes: type.defaultDurationMinutes,
            venueId,
            roomId: roomIds[c.room],
            leadCoachId: coachIds[c.coach],
            capacity: type.capacityDefault,
          }),
        )
        .returning();
      // The class's weekday across the term, less the closures (what the generator does).
      const dates = datesBetween(term.startDate, term.endDate).filter(
        (d) => isoWeekday(d) === String(c.weekday) && !closed(d),
      );
      const sessions = await tx
        .insert(classSessions)
        .values(
          dates.map((date) => {
            // Casey covers Sam's leave, except the Saturday class that clashes with her own.
            const covered = c.coach === 'sam' && date >= leaveStart && date <= leaveEnd && c.weekday !== 6;
            return tenant.values({
              termClassId: klass!.id,
              slotDate: date,
              date,
              startTime: c.start,
              durationMinutes: type.defaultDurationMinutes,
              roomId: roomIds[c.room],
              coachId: covered ? coachIds.casey : coachIds[c.coach],
              editedAt: covered ? new Date() : null,
            });
          }),
        )
        .returning();
      const kidIds = c.kids.flatMap((k) => (childIds.has(k) ? [childIds.get(k)!] : []));
      if (kidIds.length) {
        await tx.insert(classEnrolments).values(
          kidIds.map((childId) =>
            tenant.values({
              termClassId: klass!.id,
              childId,
              kind: 'enrolled' as const,
              startsOn: term.startDate,
            }),
          ),
        );
      }
      // A trial child in the next session of the first Kinder Gym class.
      const next = sessions.find((s) => s.date >= today);
      if (index === 0 && next && childIds.has('olivia')) {
        await tx.insert(classEnrolments).values(
          tenant.values({
            termClassId: klass!.id,
            childId: childIds.get('olivia')!,
            kind: 'trial' as const,
            sessionId: next.id,
          }),
        );
      }
      // The roll of every past session: mostly present, now and then absent or late.
      const marks = sessions
        .filter((s) => s.date < today)
        .flatMap((s, si) =>
          kidIds.map((childId, ki) => {
            const n = si * 3 + ki + index;
            const status = n % 9 === 0 ? 'absent' : n % 7 === 0 ? 'late' : 'present';
            return tenant.values({
              sessionId: s.id,
              childId,
              status: status as 'absent' | 'late' | 'present',
              note: status === 'absent' ? 'Unwell' : null,
              markedBy: coachUserIds[s.coachId === coachIds.casey ? 'casey' : 'sam'],
              markedAt: zonedInstant(s.date, c.start, timeZone),
            });
          }),
        );
      if (marks.length) await tx.insert(attendance).values(marks);
    }
    // The public registration form of the README's demo: /registration/?f=term-classes&authhash=…
    await tx.insert(registrationForms).values(
      tenant.values({
        key: 'term-classes',
        name: 'Term classes',
        intro: '<p>Find a class for your child’s age, book a trial or enrol for the rest of the term.</p>',
        termIds: [termRow!.id],
        askQuestions: ['medical_notes', 'school'],
        requiredQuestions: ['medical_notes'],
        questions: [
          { key: 'medical_notes', label: 'Medical notes', kind: 'medical_notes' as const, required: true },
          { key: 'school', label: 'School', kind: 'school' as const, required: false },
        ],
        trialsOffered: true,
      }),
    );
    // A local test page may embed the demo form (the snippet on the form's page; README).
    await tx.insert(embedOrigins).values(tenant.values({ origin: 'http://localhost:8080' }));
    return true;
  });
}
