import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { expect, it } from 'vitest';
import { createTestDatabase } from '../testing/harness.ts';
import { connectDatabase } from './client.ts';
import { migrationsFolder } from './migrate.ts';

it('moves existing payments, redemptions, terms and references (0012-0015)', async () => {
  const testDb = await createTestDatabase({ empty: true });
  const database = connectDatabase(testDb.url, { max: 2 });
  const { db } = database;
  const old = await mkdtemp(path.join(os.tmpdir(), 'mig-'));
  await cp(migrationsFolder, old, { recursive: true });
  const journal = JSON.parse(await readFile(path.join(old, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 11);
  await writeFile(path.join(old, 'meta/_journal.json'), JSON.stringify(journal));
  await migrate(db, { migrationsFolder: old });
  const q = async (text: string) => (await db.execute(sql.raw(text))).rows;
  await q(
    `insert into companies (name, authhash, email, time_zone) values ('A', 'a', 'a@a.test', 'Australia/Sydney')`,
  );
  const [c] = await q(`select id from companies`);
  const cid = (c as { id: number }).id;
  await q(
    `insert into users (company_id, role, email, full_name, password_hash) values (${cid}, 'student', 'p@a.test', 'P', 'x')`,
  );
  const [u] = await q(`select id from users`);
  const uid = (u as { id: number }).id;
  await q(
    `insert into events (company_id, name, start_date, end_date) values (${cid}, 'E', '2030-01-01', '2030-01-02')`,
  );
  const [e] = await q(`select id from events`);
  const eid = (e as { id: number }).id;
  await q(
    `insert into children (company_id, parent_id, first_name, last_name, dob) values (${cid}, ${uid}, 'K', 'L', '2018-01-01')`,
  );
  const [k] = await q(`select id from children`);
  const kid = (k as { id: number }).id;
  await q(
    `insert into coupons (company_id, code, discount_type, percent_off, used_count) values (${cid}, 'TEN', 'percent', 10, 2)`,
  );
  const [cp1] = await q(`select id from coupons`);
  const couponId = (cp1 as { id: number }).id;
  await q(`insert into bookings (company_id, parent_id, event_id, reference, status, quantity, pricing, total, coupon_id, coupon_code, nsw_code, provider)
           values (${cid}, ${uid}, ${eid}, 'ref1', 'confirmed', 1, '{}', 100, ${couponId}, 'TEN', '12345678', 'test')`);
  const [b] = await q(`select id from bookings`);
  const bid = (b as { id: number }).id;
  await q(
    `insert into coupon_redemptions (company_id, coupon_id, parent_id, booking_id) values (${cid}, ${couponId}, ${uid}, ${bid})`,
  );
  await q(
    `insert into party_slots (company_id, name, start_time, duration_minutes, capacity, days_of_week) values (${cid}, 'S', '10:00', 60, 10, '{6}')`,
  );
  const [s] = await q(`select id from party_slots`);
  await q(`insert into party_bookings (company_id, parent_id, slot_id, date, child_id, reference, status, guests, pricing, total, deposit, balance, coupon_code, provider)
           values (${cid}, ${uid}, ${(s as { id: number }).id}, '2030-01-05', ${kid}, 'pref', 'confirmed', 10, '{}', 100, 50, 50, 'TEN', 'test')`);
  const [pb] = await q(`select id from party_bookings`);
  const pid = (pb as { id: number }).id;
  await q(
    `insert into payments (company_id, booking_id, provider, provider_ref, amount, status) values (${cid}, ${bid}, 'test', 't1', 100, 'paid')`,
  );
  await q(
    `insert into payments (company_id, party_booking_id, provider, provider_ref, amount, status) values (${cid}, ${pid}, 'test', 't2', 50, 'paid')`,
  );
  await q(
    `insert into payment_terms (company_id, name, applies_to, content) values (${cid}, 'T', 'events', '<p>x</p>')`,
  );

  await migrate(db, { migrationsFolder });
  expect(await q(`select purchase_kind, purchase_id from payments order by id`)).toEqual([
    { purchase_kind: 'event', purchase_id: bid },
    { purchase_kind: 'party', purchase_id: pid },
  ]);
  expect(
    await q(`select coupon_id, purchase_kind, purchase_id, voucher_code from coupon_redemptions order by id`),
  ).toEqual([
    { coupon_id: couponId, purchase_kind: 'event', purchase_id: bid, voucher_code: '12345678' },
    { coupon_id: couponId, purchase_kind: 'party', purchase_id: pid, voucher_code: null },
  ]);
  expect(await q(`select is_default from payment_terms`)).toEqual([{ is_default: true }]);
  const [codes] = await q(`select (select code from bookings) as b, (select code from party_bookings) as p`);
  expect(codes).toMatchObject({
    b: expect.stringMatching(/^BK-[2-9A-HJ-NP-Z]{5}$/),
    p: expect.stringMatching(/^BP-[2-9A-HJ-NP-Z]{5}$/),
  });
  await database.close();
  await testDb.drop();
});
