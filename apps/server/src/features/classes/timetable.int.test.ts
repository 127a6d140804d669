import type { TimetableResponse } from '@tumble/contracts/timetable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tenant } from '../../platform/tenancy.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createConfirmedParty } from '../../testing/waiver-fixtures.ts';
import { coaches, coachLeaves } from '../coaches/coaches.tables.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { partySlots } from '../parties/parties.tables.ts';
import { rooms, venues } from '../venues/venues.tables.ts';
import { classSessions, classTypes, termClasses, terms } from './classes.tables.ts';

/**
 * Sydney moves its clocks forward at 2am on Sunday 4 October 2026: the week of Monday 28 September
 * holds both offsets (+10 before, +11 from the Sunday).
 */
const WEEK = { monday: '2026-09-28', wednesday: '2026-09-30', saturday: '2026-10-03', sunday: '2026-10-04' };

describe('the timetable', () => {
  let t: TestContext;
  let staff: { headers: Record<string, string> };
  let coachSession: { headers: Record<string, string> };
  let otherStaff: { headers: Record<string, string> };
  let ids: { saturday: number; sunday: number; wednesday: number };

  /** A company's week of classes: two rooms, two coaches (one on leave from the Thursday), an event. */
  async function seedCompany(companyId: number) {
    const { db } = t.database;
    const tenant = new Tenant(companyId);
    const [venue] = await db
      .insert(venues)
      .values(tenant.values({ name: 'Gym' }))
      .returning();
    const [floor, kinder] = await db
      .insert(rooms)
      .values([
        tenant.values({ venueId: venue!.id, name: 'Main floor' }),
        tenant.values({ venueId: venue!.id, name: 'Kinder room' }),
      ])
      .returning();
    const coachUser = await createUser(db, companyId, { role: 'companycoach', fullName: 'Casey Coach' });
    const leaveUser = await createUser(db, companyId, { role: 'companycoach', fullName: 'Sam Away' });
    const [casey, sam] = await db
      .insert(coaches)
      .values([tenant.values({ userId: coachUser.id }), tenant.values({ userId: leaveUser.id })])
      .returning();
    await db
      .insert(coachLeaves)
      .values(tenant.values({ coachId: sam!.id, startDate: '2026-10-01', endDate: '2026-10-07' }));
    const [type] = await db
      .insert(classTypes)
      .values(tenant.values({ name: 'Kinder Gym', colour: '#f08c00' }))
      .returning();
    const [term] = await db
      .insert(terms)
      .values(tenant.values({ name: 'Term 3 2026', startDate: '2026-07-20', endDate: '2026-10-09' }))
      .returning();
    const klass = async (name: string, weekday: number, roomId: number, coachId: number) =>
      (
        await db
          .insert(termClasses)
          .values(
            tenant.values({
              termId: term!.id,
              classTypeId: type!.id,
              name,
              weekday,
              startTime: '09:00',
              durationMinutes: 45,
              roomId,
              leadCoachId: coachId,
              capacity: 8,
            }),
          )
          .returning()
      )[0]!;
    const saturdayClass = await klass('Saturday Kinder', 6, floor!.id, sam!.id);
    const sundayClass = await klass('Sunday Kinder', 7, kinder!.id, casey!.id);
    const wednesdayClass = await klass('Wednesday Kinder', 3, floor!.id, casey!.id);
    const session = async (termClassId: number, date: string, roomId: number, coachId: number) =>
      (
        await db
          .insert(classSessions)
          .values(
            tenant.values({
              termClassId,
              slotDate: date,
              date,
              startTime: '09:00',
              durationMinutes: 45,
              roomId,
              coachId,
            }),
          )
          .returning()
      )[0]!.id;
    const saturday = await session(saturdayClass.id, WEEK.saturday, floor!.id, sam!.id);
    const sunday = await session(sundayClass.id, WEEK.sunday, kinder!.id, casey!.id);
    const wednesday = await session(wednesdayClass.id, WEEK.wednesday, floor!.id, casey!.id);
    // Outside the week on both sides: not listed.
    await session(wednesdayClass.id, '2026-09-23', floor!.id, casey!.id);
    await session(sundayClass.id, '2026-10-05', kinder!.id, casey!.id);
    const [event] = await db
      .insert(events)
      .values(
        tenant.values({
          name: 'Spring Camp',
          startDate: '2026-09-28',
          endDate: '2026-10-09',
          published: true,
        }),
      )
      .returning();
    await db.insert(eventSessions).values(
      tenant.values({
        eventId: event!.id,
        name: 'Morning',
        startDate: '2026-09-28',
        endDate: '2026-10-09',
        startTime: '09:00',
        endTime: '12:00',
        daysOfWeek: ['1', '2'],
        capacity: 10,
      }),
    );
    const parent = await createUser(db, companyId, { role: 'student' });
    const child = await createChild(db, companyId, parent.id, 'Ivy');
    const [slot] = await db
      .insert(partySlots)
      .values(
        tenant.values({
          name: 'Sunday afternoon',
          roomId: kinder!.id,
          startTime: '13:00',
          durationMinutes: 120,
          daysOfWeek: ['7'],
          capacity: 20,
        }),
      )
      .returning();
    const party = { parentId: parent.id, slotId: slot!.id, childId: child.id };
    await createConfirmedParty(db, companyId, { ...party, date: WEEK.sunday });
    await createConfirmedParty(db, companyId, { ...party, date: '2026-10-11' });
    return { saturday, sunday, wednesday, coachUser };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: 'Australia/Sydney' });
    const other = await createCompany(db, { timeZone: 'Australia/Sydney' });
    const seeded = await seedCompany(company.id);
    ids = seeded;
    staff = await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }));
    coachSession = await sessionFor(db, seeded.coachUser);
    otherStaff = await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }));
  });
  afterAll(() => t.close());

  const timetable = async (headers: Record<string, string>, query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/admin/timetable?${query}`, headers });
    return { status: response.statusCode, body: response.json() as TimetableResponse };
  };
  const summary = (body: TimetableResponse) =>
    body.groups.map((g) => ({
      label: g.label,
      items: g.items.map((i) => `${i.kind} ${i.date} ${i.start_time}-${i.end_time} ${i.title}`),
    }));

  it('lists the Monday-to-Sunday week of any of its days at local times across a daylight-saving change', async () => {
    const { status, body } = await timetable(staff.headers, `week=${WEEK.wednesday}&by=room`);
    expect(status).toBe(200);
    expect(body.week).toEqual({
      start: WEEK.monday,
      end: WEEK.sunday,
      previous: '2026-09-21',
      next: '2026-10-05',
    });
    expect(body.days).toHaveLength(7);
    const items = body.groups.flatMap((g) => g.items).filter((i) => i.kind === 'class');
    const saturday = items.find((i) => i.id === ids.saturday)!;
    const sunday = items.find((i) => i.id === ids.sunday)!;
    // Both at 9am on the wall clock; the instants differ by the hour Sydney moved.
    expect([saturday.start_time, saturday.end_time]).toEqual(['09:00', '09:45']);
    expect([sunday.start_time, sunday.end_time]).toEqual(['09:00', '09:45']);
    expect(saturday.starts_at).toBe('2026-10-02T23:00:00.000Z');
    expect(sunday.starts_at).toBe('2026-10-03T22:00:00.000Z');
    expect(saturday.link).toBe(`/admin/roll/${ids.saturday}`);
  });

  it('groups by room: each room in name order with its blocks in time order (parties in the room of their slot), events under No room', async () => {
    const { body } = await timetable(staff.headers, `week=${WEEK.monday}&by=room`);
    expect(summary(body)).toEqual([
      {
        label: 'Kinder room',
        items: ['class 2026-10-04 09:00-09:45 Sunday Kinder', 'party 2026-10-04 13:00-15:00 Birthday party'],
      },
      {
        label: 'Main floor',
        items: [
          'class 2026-09-30 09:00-09:45 Wednesday Kinder',
          'class 2026-10-03 09:00-09:45 Saturday Kinder',
        ],
      },
      {
        label: 'No room',
        items: ['event 2026-09-28 09:00-12:00 Spring Camp', 'event 2026-09-29 09:00-12:00 Spring Camp'],
      },
    ]);
    const main = body.groups[1]!.items;
    expect(main.map((i) => [i.colour, i.detail, i.room])).toEqual([
      ['#f08c00', 'Kinder Gym', 'Main floor'],
      ['#f08c00', 'Kinder Gym', 'Main floor'],
    ]);
  });

  it('groups by coach and marks the session of a coach on leave as needing cover', async () => {
    const { body } = await timetable(staff.headers, `week=${WEEK.sunday}&by=coach`);
    expect(summary(body)).toEqual([
      {
        label: 'Casey Coach',
        items: [
          'class 2026-09-30 09:00-09:45 Wednesday Kinder',
          'class 2026-10-04 09:00-09:45 Sunday Kinder',
        ],
      },
      { label: 'Sam Away', items: ['class 2026-10-03 09:00-09:45 Saturday Kinder'] },
      {
        label: 'No coach',
        items: [
          'event 2026-09-28 09:00-12:00 Spring Camp',
          'event 2026-09-29 09:00-12:00 Spring Camp',
          'party 2026-10-04 13:00-15:00 Birthday party',
        ],
      },
    ]);
    const cover = body.groups.flatMap((g) => g.items).filter((i) => i.needs_cover);
    expect(cover.map((i) => i.id)).toEqual([ids.saturday]);
  });

  it('shows another company nothing of it', async () => {
    const { status, body } = await timetable(otherStaff.headers, `week=${WEEK.monday}&by=room`);
    expect(status).toBe(200);
    expect(body.groups).toEqual([]);
    const byCoach = await timetable(otherStaff.headers, `week=${WEEK.monday}&by=coach`);
    expect(byCoach.body.groups).toEqual([]);
  });

  it('lets a coach read it; a parent may not', async () => {
    const coach = await timetable(coachSession.headers, `week=${WEEK.monday}&by=room`);
    expect(coach.status).toBe(200);
    expect(coach.body.groups.flatMap((g) => g.items)).toHaveLength(6);
    const parent = await sessionFor(
      t.database.db,
      await createUser(t.database.db, (await createCompany(t.database.db)).id, { role: 'student' }),
    );
    expect((await timetable(parent.headers, '')).status).toBe(403);
  });

  it('answers this week by default and refuses an impossible date or grouping with a message', async () => {
    const { status, body } = await timetable(staff.headers, '');
    expect(status).toBe(200);
    expect(body.by).toBe('room');
    expect(body.week.start <= body.today && body.today <= body.week.end).toBe(true);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/timetable?week=2026-02-30',
      headers: staff.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Choose a valid date.');
    const by = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/timetable?by=venue',
      headers: staff.headers,
    });
    expect(by.statusCode).toBe(400);
    expect(by.json().message).toContain('Group the timetable by room or by coach.');
  });
});
