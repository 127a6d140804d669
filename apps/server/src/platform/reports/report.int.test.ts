import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { createChild, createConfirmedParty } from '../../testing/waiver-fixtures.ts';
import { csvCell } from './report.ts';

/**
 * The report pattern, through the party report: filters from the URL, the tenant's rows only, the
 * meta the SPA draws the table and chart from, and the same rows as CSV.
 */
describe('reports: the birthday party report', () => {
  let t: TestContext;
  let adminA: Record<string, string>;
  let adminB: Record<string, string>;
  const url = '/api/v1/admin/reports/birthday-parties';

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const a = (await createCompany(db)).id;
    const b = (await createCompany(db)).id;
    const password = 'a long enough password';
    adminA = (await signIn(t.app, await createUser(db, a, { role: 'companyadmin', password }))).headers;
    adminB = (await signIn(t.app, await createUser(db, b, { role: 'companyadmin', password }))).headers;
    const { morning } = await createPartySetup(db, a);
    const parent = await createUser(db, a, { role: 'student' });
    const child = await createChild(db, a, parent.id);
    for (const date of ['2031-03-07', '2031-03-21', '2031-05-02', '2032-01-10'])
      await createConfirmedParty(db, a, { parentId: parent.id, slotId: morning.id, childId: child.id, date });
  });
  afterAll(() => t.close());

  it('answers the meta, the filters used and one query’s rows per table', async () => {
    const response = await t.app.inject({ method: 'GET', url: `${url}?year=2031`, headers: adminA });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.meta).toMatchObject({
      name: 'birthday-parties',
      title: 'Birthday party report',
      filters: [{ name: 'year', type: 'year' }],
      tables: [
        { name: 'months', chart: { x: 'month', y: 'revenue' } },
        {
          name: 'parties',
          columns: expect.arrayContaining([{ name: 'total', label: 'Total', type: 'money' }]),
        },
      ],
    });
    expect(body.filters).toEqual({ year: 2031 });
    expect(body.data.months.map((m: { month: string; parties: number }) => [m.month, m.parties])).toEqual([
      ['2031-03', 2],
      ['2031-05', 1],
    ]);
    expect(body.data.parties).toHaveLength(3);
  });

  it('shows another company none of these parties', async () => {
    const body = (await t.app.inject({ method: 'GET', url: `${url}?year=2031`, headers: adminB })).json();
    expect(body.data).toEqual({ months: [], parties: [] });
  });

  it('refuses a filter outside its range with 400, never a 500', async () => {
    for (const year of ['abc', '1999', '99999999999'])
      expect(
        (await t.app.inject({ method: 'GET', url: `${url}?year=${year}`, headers: adminA })).statusCode,
      ).toBe(400);
  });

  it('gives the same rows as CSV, money in dollars, each table under its header', async () => {
    const csv = await t.app.inject({ method: 'GET', url: `${url}?year=2031&format=csv`, headers: adminA });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="birthday-parties-2031.csv"');
    const lines = csv.body.split('\r\n');
    expect(lines.slice(0, 3)).toEqual([
      'Month,Parties,Guests,Deposits,Balances,Revenue',
      '2031-03,2,20,200.00,590.00,790.00',
      '2031-05,1,10,100.00,295.00,395.00',
    ]);
    expect(lines[3]).toBe('');
    expect(lines[4]).toBe('Reference,Date,Slot,Guests,Total,Deposit,Balance');
  });

  it('never lets a cell be read as a spreadsheet formula', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell(null)).toBe('');
  });
});
