import { messages } from '@tumble/contracts/messages';
import { waiverMessages } from '@tumble/contracts/waiver';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { addDays } from '../../platform/time.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import {
  createChild,
  createConfirmedBooking,
  createConfirmedParty,
  createWaiverTemplate,
  SIGNATURE,
} from '../../testing/waiver-fixtures.ts';
import { signedWaivers, waivers, waiverUses } from './waivers.tables.ts';

describe('waivers', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let other: Awaited<ReturnType<typeof createCompany>>;
  let eventId: number;
  let parentId: number;
  let template: Awaited<ReturnType<typeof createWaiverTemplate>>;

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const page = (kind: 'event-booking' | 'birthday-party', id: string, authhash = company.authhash) =>
    get(`/api/v1/${kind}/waiver?id=${id}&authhash=${authhash}`);
  const check = (
    kind: 'event-booking' | 'birthday-party',
    id: string,
    childId: number,
    authhash = company.authhash,
  ) => post(`/api/v1/${kind}/waiver/check?authhash=${authhash}`, { id, child_id: childId });
  const sign = (
    kind: 'event-booking' | 'birthday-party',
    id: string,
    childId: number,
    overrides: Record<string, unknown> = {},
  ) =>
    post(
      `/api/v1/${kind}/waiver?authhash=${company.authhash}`,
      {
        id,
        child_id: childId,
        first_name: 'Mia',
        last_name: 'Tester',
        dob: '2018-04-09',
        medical: 'Asthma, has a puffer',
        photo_consent: true,
        signer_name: 'Pat Parent',
        signature: SIGNATURE,
        agree: true,
        ...overrides,
      },
      { 'user-agent': 'waiver-test' },
    );
  const signedCount = async () => (await t.database.db.select({ n: count() }).from(signedWaivers))[0]!.n;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    other = await createCompany(t.database.db);
    eventId = (await createBookableEvent(t.database.db, company.id)).event.id;
    parentId = (await createUser(t.database.db, company.id, { role: 'student', fullName: 'Pat Parent' })).id;
    template = await createWaiverTemplate(t.database.db, company.id);
  });
  afterAll(() => t.close());

  it('signs once per child, reuses the waiver for a second booking, and never changes the stored waiver', async () => {
    const mia = await createChild(t.database.db, company.id, parentId, 'Mia');
    const leo = await createChild(t.database.db, company.id, parentId, 'Leo');
    const { booking: first } = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [mia.id, leo.id],
    });

    const loaded = (await page('event-booking', first.reference)).json();
    expect(loaded).toMatchObject({ valid: true, title: 'Holiday Camp', hash: first.reference });
    expect(loaded.waiver).toMatchObject({
      id: template.id,
      version: 1,
      ask_fields: ['medical', 'photo_consent'],
    });
    expect(loaded.people.map((p: { status: string }) => p.status)).toEqual(['needed', 'needed']);

    expect((await check('event-booking', first.reference, mia.id)).json()).toEqual({
      valid: true,
      message: '',
      found: false,
      id: 0,
    });
    const info = (
      await get(
        `/api/v1/event-booking/waiver/child-info?id=${first.reference}&authhash=${company.authhash}&child_id=${mia.id}`,
      )
    ).json();
    expect(info).toEqual({
      first_name: 'Mia',
      last_name: 'Tester',
      dob: '2018-04-09',
      photo_consent: false,
      parent_name: 'Pat Parent',
    });

    // Bad input: a form error on the field, nothing stored.
    const unsigned = (await sign('event-booking', first.reference, mia.id, { signature: '' })).json();
    expect(unsigned.valid).toBe(false);
    expect(unsigned.error.element).toContainEqual({
      name: 'signature',
      messages: [waiverMessages.signatureRequired],
    });
    const notPng = (
      await sign('event-booking', first.reference, mia.id, { signature: 'data:image/png;base64,AAAA' })
    ).json();
    expect(notPng.error.element).toContainEqual({
      name: 'signature',
      messages: [waiverMessages.signatureRequired],
    });
    const badDate = (
      await sign('event-booking', first.reference, mia.id, { dob: '2025-02-30', agree: false })
    ).json();
    expect(badDate.error.element.map((e: { name: string }) => e.name).sort()).toEqual(['agree', 'dob']);
    expect(await signedCount()).toBe(0);

    const signed = await sign('event-booking', first.reference, mia.id);
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toMatchObject({ valid: true, info: { message: waiverMessages.signed } });
    const [stored] = await t.database.db
      .select()
      .from(signedWaivers)
      .where(eq(signedWaivers.childId, mia.id));
    expect(stored).toMatchObject({
      companyId: company.id,
      waiverId: template.id,
      waiverVersion: 1,
      bodyHtml: template.body,
      parentId,
      signerName: 'Pat Parent',
      answers: { medical: 'Asthma, has a puffer', photo_consent: true },
      userAgent: 'waiver-test',
    });
    expect(stored!.signaturePng.subarray(1, 4).toString()).toBe('PNG');
    expect(stored!.ip).not.toBe('');

    const after = (await page('event-booking', first.reference)).json();
    expect(after.people.map((p: { status: string }) => p.status)).toEqual(['signed', 'needed']);

    // The stored waiver is evidence: the database refuses to change or remove it.
    await expect(
      t.database.db
        .update(signedWaivers)
        .set({ signerName: 'Someone else' })
        .where(eq(signedWaivers.id, stored!.id)),
    ).rejects.toThrow();
    await expect(
      t.database.db.delete(signedWaivers).where(eq(signedWaivers.id, stored!.id)),
    ).rejects.toThrow();
    const [again] = await t.database.db.select().from(signedWaivers).where(eq(signedWaivers.id, stored!.id));
    expect(again).toEqual(stored);

    // A second booking for Mia: check finds the waiver, mark covers the new booking, nothing is signed twice.
    const { booking: second } = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [mia.id],
    });
    const found = (await check('event-booking', second.reference, mia.id)).json();
    expect(found).toEqual({ valid: true, message: '', found: true, id: stored!.id });
    const marked = await get(
      `/api/v1/event-booking/waiver/mark?authhash=${company.authhash}&guest_id=${mia.id}&hash=${second.reference}&waiver_id=${stored!.id}`,
    );
    expect(marked.json()).toEqual({ valid: true, message: messages.waiverFound });
    expect((await page('event-booking', second.reference)).json().people[0].status).toBe('signed');
    expect(await signedCount()).toBe(1);
    expect((await t.database.db.select({ n: count() }).from(waiverUses))[0]!.n).toBe(2);
  });

  it('answers invalid for an unknown id, another company’s authhash, an unknown authhash, and a child not on the booking', async () => {
    const child = await createChild(t.database.db, company.id, parentId);
    const { booking } = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [child.id],
    });
    const invalid = { valid: false, message: waiverMessages.invalidLink };
    expect((await page('event-booking', 'nope')).json()).toMatchObject(invalid);
    expect((await page('event-booking', booking.reference, other.authhash)).json()).toMatchObject(invalid);
    expect((await page('event-booking', booking.reference, 'unknown-hash')).json()).toMatchObject(invalid);
    expect((await check('event-booking', booking.reference, child.id, other.authhash)).json()).toMatchObject(
      invalid,
    );
    expect((await check('event-booking', booking.reference, child.id + 1000)).json()).toMatchObject(invalid);
    // An event booking reference is not a party link, and the other way round.
    expect((await page('birthday-party', booking.reference)).json()).toMatchObject(invalid);
    const before = await signedCount();
    const foreign = await post(`/api/v1/event-booking/waiver?authhash=${other.authhash}`, {
      id: booking.reference,
      child_id: child.id,
      first_name: 'Mia',
      last_name: 'Tester',
      dob: '2018-04-09',
      signer_name: 'X',
      signature: SIGNATURE,
      agree: true,
    });
    expect(foreign.json()).toMatchObject({
      valid: false,
      error: { html_message: waiverMessages.invalidLink },
    });
    expect(
      (
        await get(
          `/api/v1/event-booking/waiver/child-info?id=${booking.reference}&authhash=${other.authhash}&child_id=${child.id}`,
        )
      ).statusCode,
    ).toBe(404);
    expect(await signedCount()).toBe(before);
  });

  it('refuses a tampered hash and a waiver that belongs to another child', async () => {
    const ava = await createChild(t.database.db, company.id, parentId, 'Ava');
    const ben = await createChild(t.database.db, company.id, parentId, 'Ben');
    const { booking } = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [ava.id, ben.id],
    });
    await sign('event-booking', booking.reference, ava.id, { first_name: 'Ava' });
    const [avaWaiver] = await t.database.db
      .select()
      .from(signedWaivers)
      .where(eq(signedWaivers.childId, ava.id));
    const mark = (hash: string, childId: number, waiverId: number) =>
      get(
        `/api/v1/event-booking/waiver/mark?authhash=${company.authhash}&guest_id=${childId}&hash=${hash}&waiver_id=${waiverId}`,
      );
    expect((await mark(`${booking.reference}x`, ava.id, avaWaiver!.id)).json()).toEqual({
      valid: false,
      message: waiverMessages.invalidLink,
    });
    // Ben's booking line cannot be covered with Ava's waiver.
    expect((await mark(booking.reference, ben.id, avaWaiver!.id)).json()).toEqual({
      valid: false,
      message: waiverMessages.notThisChild,
    });
    expect((await page('event-booking', booking.reference)).json().people[1].status).toBe('needed');
  });

  it('a changed template must be signed again', async () => {
    const kid = await createChild(t.database.db, company.id, parentId, 'Zoe');
    const first = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [kid.id],
    });
    await sign('event-booking', first.booking.reference, kid.id, { first_name: 'Zoe' });
    expect((await check('event-booking', first.booking.reference, kid.id)).json().found).toBe(true);

    const admin = await createUser(t.database.db, company.id, { role: 'companyadmin' });
    const { headers } = await sessionFor(t.database.db, admin);
    const saved = await post(
      `/api/v1/admin/waivers/${template.id}`,
      {
        title: template.title,
        body: '<p>New wording: trampolines included.</p>',
        applies_to: 'all',
        ask_fields: ['medical', 'photo_consent'],
        active: true,
      },
      headers,
    );
    expect(saved.statusCode).toBe(200);
    const [changed] = await t.database.db.select().from(waivers).where(eq(waivers.id, template.id));
    expect(changed!.version).toBe(2);

    const second = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [kid.id],
    });
    expect((await check('event-booking', second.booking.reference, kid.id)).json()).toMatchObject({
      valid: true,
      found: false,
    });
    // The first booking's waiver was for the old text: it shows as needed again.
    expect((await page('event-booking', first.booking.reference)).json().people[0].status).toBe('needed');
    await sign('event-booking', second.booking.reference, kid.id, { first_name: 'Zoe' });
    const versions = (
      await t.database.db
        .select()
        .from(signedWaivers)
        .where(eq(signedWaivers.childId, kid.id))
        .orderBy(signedWaivers.id)
    ).map((w) => [w.waiverVersion, w.bodyHtml]);
    expect(versions).toEqual([
      [1, template.body],
      [2, '<p>New wording: trampolines included.</p>'],
    ]);
    template = changed!;
  });

  it('two submits at once store one waiver', async () => {
    const kid = await createChild(t.database.db, company.id, parentId, 'Kai');
    const { booking } = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [kid.id],
    });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        sign('event-booking', booking.reference, kid.id, { first_name: 'Kai' }),
      ),
    );
    expect(answers.every((a) => a.json().valid === true)).toBe(true);
    const rows = await t.database.db.select().from(signedWaivers).where(eq(signedWaivers.childId, kid.id));
    expect(rows).toHaveLength(1);
  });

  it('party guests sign through their own link; the same guest at a later party is found', async () => {
    const setup = await createPartySetup(t.database.db, company.id);
    const birthday = await createChild(t.database.db, company.id, parentId, 'Ivy');
    const date = addDays(new Date().toISOString().slice(0, 10), 30);
    const guests = [{ childName: 'Sam Guest', parentEmail: 'sam.parent@example.test' }];
    const {
      party,
      guests: [sam],
    } = await createConfirmedParty(t.database.db, company.id, {
      parentId,
      slotId: setup.morning.id,
      childId: birthday.id,
      date,
      guests,
    });

    const guestPage = (await page('birthday-party', sam!.waiverToken)).json();
    expect(guestPage).toMatchObject({ valid: true, title: 'Ivy’s birthday party' });
    expect(guestPage.people).toEqual([
      { id: sam!.id, first_name: 'Sam', last_name: 'Guest', status: 'needed', signed_at: null },
    ]);
    // The guest's link cannot be used for the birthday child, nor by id.
    expect((await check('birthday-party', sam!.waiverToken, birthday.id)).json().valid).toBe(false);
    expect((await page('birthday-party', String(sam!.id))).json().valid).toBe(false);

    const signed = await sign('birthday-party', sam!.waiverToken, sam!.id, {
      first_name: 'Sam',
      last_name: 'Guest',
      signer_name: 'Sam’s Mum',
    });
    expect(signed.json().valid).toBe(true);
    const [stored] = await t.database.db
      .select()
      .from(signedWaivers)
      .where(eq(signedWaivers.partyGuestId, sam!.id));
    expect(stored).toMatchObject({ childId: null, parentId: null, signerEmail: 'sam.parent@example.test' });

    const later = await createConfirmedParty(t.database.db, company.id, {
      parentId,
      slotId: setup.afternoon.id,
      childId: birthday.id,
      date: addDays(date, 7),
      guests,
    });
    const laterSam = later.guests[0]!;
    expect((await check('birthday-party', laterSam.waiverToken, laterSam.id)).json()).toMatchObject({
      valid: true,
      found: true,
      id: stored!.id,
    });

    // The birthday child signs on the party's own link (the party reference).
    const own = (await page('birthday-party', party.reference)).json();
    expect(own.people.map((p: { id: number }) => p.id)).toEqual([birthday.id]);

    // Staff see the birthday child and the guests; another company sees neither the party nor the guest link.
    const staff = await sessionFor(
      t.database.db,
      await createUser(t.database.db, company.id, { role: 'companystaff' }),
    );
    const status = await get(`/api/v1/admin/waivers/status?kind=party&booking_id=${party.id}`, staff.headers);
    expect(status.json().people.map((p: { name: string; role: string }) => [p.name, p.role])).toEqual([
      ['Ivy Tester', 'child'],
      ['Sam Guest', 'guest'],
    ]);
    const foreign = await sessionFor(
      t.database.db,
      await createUser(t.database.db, other.id, { role: 'companyadmin' }),
    );
    expect(
      (await get(`/api/v1/admin/waivers/status?kind=party&booking_id=${party.id}`, foreign.headers))
        .statusCode,
    ).toBe(404);
    expect((await page('birthday-party', sam!.waiverToken, other.authhash)).json().valid).toBe(false);
    expect((await page('birthday-party', party.reference, other.authhash)).json().valid).toBe(false);
  });

  it('staff see who still needs a waiver, resend the request, and download the signed PDF; other companies get 404', async () => {
    const kid = await createChild(t.database.db, company.id, parentId, 'Noa');
    const sis = await createChild(t.database.db, company.id, parentId, 'Eve');
    const { booking } = await createConfirmedBooking(t.database.db, company.id, {
      parentId,
      eventId,
      childIds: [kid.id, sis.id],
    });
    await sign('event-booking', booking.reference, kid.id, { first_name: 'Noa' });
    const staff = await createUser(t.database.db, company.id, { role: 'companystaff' });
    const { headers } = await sessionFor(t.database.db, staff);
    const status = await get(`/api/v1/admin/waivers/status?kind=event&booking_id=${booking.id}`, headers);
    expect(status.statusCode).toBe(200);
    const body = status.json();
    expect(body.people.map((p: { name: string; status: string }) => [p.name, p.status])).toEqual([
      ['Noa Tester', 'signed'],
      ['Eve Tester', 'needed'],
    ]);
    expect(body.links[0].url).toContain(`/event-booking/waiver/?id=${booking.reference}`);

    const mailsBefore = (await t.database.db.select({ n: count() }).from(mailOutbox))[0]!.n;
    const resend = await post(
      '/api/v1/admin/waivers/resend',
      { kind: 'event', booking_id: booking.id },
      headers,
    );
    expect(resend.json()).toEqual({ success: true, message: 'Waiver request sent (1 email).' });
    const mails = await t.database.db.select().from(mailOutbox).orderBy(mailOutbox.id);
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.subject).toBe('Please sign the waiver: Holiday Camp');
    expect(mails.at(-1)!.text).toContain('Eve');

    const pdf = await get(`/api/v1/admin/signed-waivers/${body.people[0].signed_waiver_id}/pdf`, headers);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const foreignStaff = await createUser(t.database.db, other.id, { role: 'companyadmin' });
    const foreign = await sessionFor(t.database.db, foreignStaff);
    expect(
      (await get(`/api/v1/admin/waivers/status?kind=event&booking_id=${booking.id}`, foreign.headers))
        .statusCode,
    ).toBe(404);
    expect(
      (await post('/api/v1/admin/waivers/resend', { kind: 'event', booking_id: booking.id }, foreign.headers))
        .statusCode,
    ).toBe(404);
    expect(
      (await get(`/api/v1/admin/signed-waivers/${body.people[0].signed_waiver_id}/pdf`, foreign.headers))
        .statusCode,
    ).toBe(404);
    // A parent is not staff.
    const parentSession = await sessionFor(t.database.db, { id: parentId, companyId: company.id });
    expect(
      (await get(`/api/v1/admin/waivers/status?kind=event&booking_id=${booking.id}`, parentSession.headers))
        .statusCode,
    ).toBe(403);
  });
});
