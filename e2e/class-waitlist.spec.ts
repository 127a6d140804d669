import { describe, expect, it } from 'vitest';
import { apiSearch, topShot, uniqueTag } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiCall, apiOk, payWith, testCards } from './support/booking.ts';
import { waitForMail } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();
const ZONE = 'Australia/Sydney';

/** A calendar date in the company's zone, `days` from today. */
function dayFromToday(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const isoWeekday = (date: string) => String(((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1);

interface FinderClass {
  id: number;
  name: string;
  trial: { session_id: number; date: string; price: number } | null;
}

/** POST /api/v1/admin/<resource>: a record staff make, saying why when it is refused. */
async function create(token: string, resource: string, values: Record<string, unknown>) {
  const answer = await apiCall('POST', `/api/v1/admin/${resource}`, { token, body: values });
  expect(answer.body, `create ${resource}: ${JSON.stringify(answer.body)}`).toMatchObject({ valid: true });
}

/**
 * Staff make a term, a class and a registration form offering it (and trials) of their own, so the
 * file's tests never meet. The term runs from a week ago to six weeks ahead, without closures: the
 * company's running term may end within days of today or close on the class's next day (a public
 * holiday, the seed's maintenance day), and a trial is followed up with a place from the session
 * after it. The class meets on the weekday of the day after tomorrow.
 */
async function classAndForm(name: string, capacity: number) {
  const admin = await apiSignIn(company().admin.email, company().admin.password);
  const termName = `Term of ${name}`;
  await create(admin, 'terms', {
    name: termName,
    start_date: dayFromToday(-7),
    end_date: dayFromToday(42),
    status: 'open',
  });
  const term = (await apiSearch(admin, 'terms', termName)).find((t) => t.name === termName);
  expect(term, `${termName} saved`).toBeDefined();
  const type = (await apiSearch(admin, 'class-types', '')).find((t) => t.trial_allowed === true);
  expect(type, 'a class type with trials').toBeDefined();
  await create(admin, 'term-classes', {
    name,
    term_id: term!.id,
    class_type_id: type!.id,
    weekday: isoWeekday(dayFromToday(2)),
    start_time: '07:00',
    duration_minutes: 45,
    capacity,
    status: 'active',
  });
  const classId = (await apiSearch(admin, 'term-classes', name)).find((r) => r.name === name)!.id;
  await apiOk('POST', `/api/v1/admin/term-classes/${classId}/generate`, { token: admin });
  const formName = `Form ${name}`;
  await create(admin, 'registration-forms', {
    name: formName,
    term_ids: [term!.id],
    class_type_ids: [type!.id],
    trials_offered: true,
    payment: 'card',
    published: true,
  });
  const form = String(
    (await apiSearch(admin, 'registration-forms', formName)).find((r) => r.name === formName)!.key,
  );
  return { admin, classId, form };
}

/**
 * A class and form of this spec; the parent books and pays for a trial of a new child in its next
 * session, and the session runs. Returns what the spec needs.
 */
async function paidTrial(tag: string) {
  const className = `Trial Tumblers ${tag}`;
  const { admin, classId, form } = await classAndForm(className, 6);

  // The parent books a trial for a new child and pays with the test card.
  const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
  const { classes } = await apiOk<{ classes: FinderClass[] }>(
    'GET',
    `/api/v1/registration/classes?${new URLSearchParams({ f: form, authhash: company().authhash })}`,
    { token: parent },
  );
  const cls = classes.find((c) => c.id === classId);
  expect(cls?.trial, 'the class offers a trial').toBeTruthy();
  const childName = `Tia${tag}`;
  const selection = {
    f: form,
    children: [{ first_name: childName, last_name: 'Trial', dob: '2019-04-02', consent: 1 }],
    choices: [{ child: 0, term_class_id: classId, kind: 'trial', session_id: cls!.trial!.session_id }],
    answers: [{}],
  };
  const quote = await apiOk<{ amount_due: number }>(
    'POST',
    `/api/v1/registration/quote?authhash=${company().authhash}`,
    {
      token: parent,
      body: selection,
    },
  );
  const checkout = await apiOk<{ sessionId?: string; valid: boolean }>(
    'POST',
    `/api/v1/registration/checkout?authhash=${company().authhash}`,
    { token: parent, body: { ...selection, accept_terms: true, amount: quote.amount_due } },
  );
  if (checkout.sessionId)
    await apiOk('POST', '/integrations/test/pay', {
      body: { session: checkout.sessionId, card_number: testCards.pays.replaceAll(' ', '') },
    });

  // The trial session has run: staff moved it to an earlier day (the latest day before today that
  // the term allows), so the trial follow-up job finds it ended.
  let moved = false;
  for (let back = 1; back <= 6 && !moved; back++) {
    const answer = await apiCall(
      'POST',
      `/api/v1/admin/term-classes/${classId}/class-sessions/dispatch/move`,
      {
        token: admin,
        body: { ids: [cls!.trial!.session_id], values: { date: dayFromToday(-back), start_time: '07:00' } },
      },
    );
    moved = answer.status === 200 && (answer.body as { success?: boolean }).success === true;
  }
  expect(moved, 'the trial session moved to an earlier day').toBe(true);
  return { className, childName, form };
}

describe.each(bothViewports)('trial conversion (%s)', (viewport) => {
  const fixture = usePage('class-waitlist', viewport, browser);

  it('after a trial the parent gets a one-tap Enrol link, sees the held place and its price, and pays with the test card', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport).replace(/[^A-Za-z]/g, '');
    const { className, childName } = await paidTrial(tag);

    // The follow-up job runs every minute: the mail holds a place from the next session.
    const mail = await waitForMail(company().parent.email, `Enrol ${childName} in ${className}`, 180_000);
    const link = mail.links.find((l) => l.includes('/registration/accept/?token='));
    expect(link, mail.body).toBeDefined();
    const path = link!.slice(link!.indexOf('/registration/accept/'));

    await page.goto(path);
    await submitSignIn(page, company().parent.email, company().parent.password);
    await expectAt(page, '/registration/accept/');
    await shows(page.getByRole('heading', { level: 1, name: 'Enrol after your trial' }), 'the accept page');
    const place = page.getByRole('article', { name: `${childName} Trial` });
    await shows(place, 'the held place');
    expect(await place.textContent()).toContain(className);
    expect(await place.textContent()).toContain('First session:');
    await shows(page.getByTestId('hold-expiry'), 'until when the place is held');
    const summary = page.getByRole('region', { name: 'Price' });
    await shows(summary.getByText('Total', { exact: true }), 'the price');
    await expectFitsWidth(page);
    await shot('1-held-place');

    // The form's questions, when it asks any.
    const answers = page
      .getByRole('region', { name: `Questions about ${childName} Trial` })
      .getByRole('textbox');
    for (const box of await answers.all()) await box.fill('None');
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    await page.getByRole('button', { name: 'Pay and enrol' }).click();
    await expectAt(page, '/payments/test');
    await shot('2-card');
    await payWith(page, testCards.pays);
    // Back on the link, which shows the enrolment's confirmation.
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: UI_TIMEOUT * 2 })
      .toBe('/registration/accept/');
    await shows(
      page.getByRole('heading', { level: 1, name: /Enrolment confirmed!|Payment received/ }),
      'the confirmation',
    );
    await shot('3-enrolled');

    // The link is used: the page says so.
    await page.goto(path);
    await shows(
      page.getByRole('heading', { level: 1, name: 'This place is no longer held' }),
      'the closed link',
    );
    await shot('4-used-link');
  }, 300_000);
});

describe.each(bothViewports)('waitlist offer (%s)', (viewport) => {
  const fixture = usePage('class-waitlist-offer', viewport, browser);

  it('a parent waits for a full class; a withdrawal offers the place by mail; No thanks releases it', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport).replace(/[^A-Za-z]/g, '');
    const className = `Waitlist Wombats ${tag}`;
    const { admin, classId, form } = await classAndForm(className, 1);

    // The parent's two new children: one takes the only place, the other waits.
    const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
    const names = [`Fay${tag}`, `Gus${tag}`];
    for (const first of names)
      await apiOk('POST', '/api/v1/students/children', {
        token: parent,
        body: { first_name: first, last_name: 'Wait', dob: '2018-05-01' },
      });
    const kids = await apiOk<{ id: number; first_name: string }[]>('GET', '/api/v1/students/children', {
      token: parent,
    });
    const [placed, waiting] = names.map((n) => kids.find((k) => k.first_name === n)!.id);
    await apiOk('POST', `/api/v1/admin/term-classes/${classId}/class-students`, {
      token: admin,
      body: { child_id: placed },
    });
    const joined = await apiOk<{ message: string }>(
      'POST',
      `/api/v1/registration/waitlist?authhash=${company().authhash}`,
      {
        token: parent,
        body: { f: form, term_class_id: classId, children: [waiting], any_number: false },
      },
    );
    expect(joined.message).toContain('You are on the waitlist');

    // Staff withdraw the placed child: the place is offered to the waiting one at once.
    const list = await apiOk<{
      students: { child_id: number; enrolment_id: number | null; starts_on: string | null }[];
    }>('GET', `/api/v1/admin/term-classes/${classId}/class-students`, { token: admin });
    const place = list.students.find((s) => s.child_id === placed)!;
    await apiOk('POST', `/api/v1/admin/term-classes/${classId}/class-students/withdraw`, {
      token: admin,
      body: { enrolment_id: place.enrolment_id, from: place.starts_on },
    });
    const mail = await waitForMail(company().parent.email, `A place is free: ${className}`, 120_000);
    const accept = mail.links.find(
      (l) => l.includes('/registration/accept/?token=') && !l.includes('decline=1'),
    );
    const decline = mail.links.find((l) => l.includes('decline=1'));
    expect(accept && decline, mail.body).toBeTruthy();

    await page.goto(accept!.slice(accept!.indexOf('/registration/accept/')));
    await submitSignIn(page, company().parent.email, company().parent.password);
    await shows(page.getByRole('heading', { level: 1, name: 'A place has come up' }), 'the offer');
    await shows(page.getByRole('article', { name: `${names[1]} Wait` }), 'the offered place');
    await shows(page.getByRole('region', { name: 'Price' }).getByText('Total', { exact: true }), 'the price');
    await expectFitsWidth(page);
    await shot('1-offer');

    // The mail's decline link asks first, then releases the place.
    await page.goto(decline!.slice(decline!.indexOf('/registration/accept/')));
    await shows(page.getByRole('heading', { level: 1, name: 'Release this place?' }), 'the question');
    await shot('2-decline');
    await page.getByRole('button', { name: 'No thanks, release it' }).click();
    await shows(page.getByRole('heading', { level: 1, name: 'Place released' }), 'the released place');
    await shot('3-released');
    const after = await apiOk<{ students: { child_id: number; waitlist_status: string | null }[] }>(
      'GET',
      `/api/v1/admin/term-classes/${classId}/class-students`,
      { token: admin },
    );
    expect(after.students.find((s) => s.child_id === waiting)?.waitlist_status ?? 'declined').toBe(
      'declined',
    );
  }, 300_000);
});
