import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import {
  type WaiverChildInfo,
  type WaiverPageResponse,
  type WaiverPerson,
  waiverMessages,
  waiverPaths,
} from '@tumble/contracts/waiver';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';
import { reloadPage } from './reload-page';
import { WAIVER_RELOAD_DELAY_MS } from './waiver-page';

// jsdom cannot reload a page, and window.location.reload cannot be replaced there.
vi.mock('./reload-page', () => ({ reloadPage: vi.fn() }));

const PAGE = '/event-booking/waiver/?id=REF1&authhash=H1';
const API = waiverPaths.event.api;
const SIGNATURE_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';

type Handler = Parameters<typeof stubServer>[0][string];

function person(overrides: Partial<WaiverPerson> = {}): WaiverPerson {
  return { id: 11, first_name: 'Mia', last_name: 'Lee', status: 'needed', signed_at: null, ...overrides };
}

function pageAnswer(overrides: Partial<WaiverPageResponse> = {}): WaiverPageResponse {
  return {
    valid: true,
    message: '',
    title: 'Ninja Holiday Camp',
    hash: 'REF1',
    waiver: {
      id: 3,
      title: 'Activity waiver',
      body: '<p>I understand that gymnastics carries a risk of injury.</p>',
      version: 2,
      ask_fields: ['medical', 'photo_consent'],
    },
    people: [person()],
    ...overrides,
  };
}

function childInfo(overrides: Partial<WaiverChildInfo> = {}): WaiverChildInfo {
  return {
    first_name: 'Mia',
    last_name: 'Lee',
    dob: '2019-05-04',
    photo_consent: true,
    parent_name: 'Sam Lee',
    ...overrides,
  };
}

const notFound = { valid: true, message: '', found: false, id: 0 };

function stubWaiver(handlers: Record<string, Handler> = {}) {
  return stubServer({
    'GET /rest/acl': () => json(studentAcl()),
    [`GET ${API}`]: () => json(pageAnswer()),
    [`POST ${API}/check`]: () => json(notFound),
    [`GET ${API}/child-info`]: () => json(childInfo()),
    ...handlers,
  });
}

/** The calls made to one path of the waiver API, as [url, init]. */
function callsTo(fetchMock: ReturnType<typeof stubServer>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(
      ([url, init]) =>
        new URL(String(url), 'http://x').pathname === path && (init?.method ?? 'GET') === method,
    )
    .map(([url, init]) => ({ url: new URL(String(url), 'http://x'), init }));
}

function queryOf(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

/** A canvas 2D context that accepts every drawing call; jsdom implements none. */
function fakeContext(): Partial<CanvasRenderingContext2D> {
  return {
    setTransform: vi.fn(),
    beginPath: vi.fn(),
    arc: vi.fn(),
    fill: vi.fn(),
    moveTo: vi.fn(),
    lineTo: vi.fn(),
    stroke: vi.fn(),
    drawImage: vi.fn(),
  };
}

/** A pen stroke across the signature box. */
function drawSignature() {
  const canvas = screen.getByRole('img', { name: 'Signature' });
  const pen = { pointerId: 1, pointerType: 'pen', button: 0 };
  fireEvent.pointerDown(canvas, { ...pen, clientX: 10, clientY: 40 });
  fireEvent.pointerMove(canvas, { ...pen, clientX: 80, clientY: 60 });
  fireEvent.pointerUp(canvas, { ...pen, clientX: 80, clientY: 60 });
}

/** Taken before any test fakes timers: real time must pass for the stubbed fetch to answer. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Lets requests finish while the faked clock stands still: only what is due now runs (React Query
 * hands answers over in zero-delay timeouts). Neither waitFor fits: vi.waitFor moves the faked
 * clock on every check, and Testing Library's waits on a faked zero-delay timeout when it ends.
 */
async function settleWithClockStopped(done: () => boolean) {
  for (let tries = 0; tries < 200 && !done(); tries++) {
    await act(async () => {
      vi.advanceTimersByTime(0);
      await new Promise((resolve) => realSetTimeout(resolve, 10));
    });
  }
}

beforeEach(() => {
  vi.mocked(reloadPage).mockClear();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => fakeContext() as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(SIGNATURE_PNG);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('EventWaiverPage', () => {
  it('shows the server message when the link names no booking, and checks nobody', async () => {
    const fetchMock = stubWaiver({
      [`GET ${API}`]: () =>
        json(
          pageAnswer({
            valid: false,
            message: 'This booking could not be found.',
            title: '',
            waiver: null,
            people: [],
          }),
        ),
    });
    renderApp(PAGE);

    expect((await screen.findByRole('alert')).textContent).toBe('This booking could not be found.');
    expect(queryOf(callsTo(fetchMock, 'GET', API)[0]!.url)).toEqual({ id: 'REF1', authhash: 'H1' });
    expect(callsTo(fetchMock, 'POST', `${API}/check`)).toHaveLength(0);
  });

  it('says there is nothing to sign when the company has no waiver', async () => {
    stubWaiver({ [`GET ${API}`]: () => json(pageAnswer({ waiver: null })) });
    renderApp(PAGE);

    expect(await screen.findByText(waiverMessages.notNeeded)).toBeTruthy();
  });

  it('shows the server message when the check is invalid', async () => {
    stubWaiver({
      [`POST ${API}/check`]: () =>
        json({ valid: false, message: 'This child is not on the booking.', found: false, id: 0 }),
    });
    renderApp(PAGE);

    expect((await screen.findByRole('alert')).textContent).toBe('This child is not on the booking.');
    expect(screen.queryByRole('button', { name: 'Sign waiver' })).toBeNull();
  });

  it('reuses a waiver signed before: marks it, says so, then continues with the next child', async () => {
    let miaMarked = false;
    const fetchMock = stubWaiver({
      [`GET ${API}`]: () =>
        json(
          pageAnswer({
            people: [
              person(miaMarked ? { status: 'signed', signed_at: '2026-03-02' } : {}),
              person({ id: 12, first_name: 'Leo' }),
            ],
          }),
        ),
      [`POST ${API}/check`]: (_url, init) =>
        json(
          JSON.parse(String(init.body)).child_id === 11
            ? { valid: true, message: '', found: true, id: 55 }
            : notFound,
        ),
      [`GET ${API}/mark`]: () => {
        miaMarked = true;
        return json({ valid: true, message: '' });
      },
      [`GET ${API}/child-info`]: () => json(childInfo({ first_name: 'Leo', parent_name: 'Sam Lee' })),
    });
    renderApp(PAGE);
    const user = userEvent.setup();

    expect(await screen.findByText(messages.waiverFound)).toBeTruthy();
    const [check] = callsTo(fetchMock, 'POST', `${API}/check`);
    expect(queryOf(check!.url)).toEqual({ authhash: 'H1' });
    expect(JSON.parse(String(check!.init?.body))).toEqual({ id: 'REF1', child_id: 11 });
    const [mark] = callsTo(fetchMock, 'GET', `${API}/mark`);
    expect(queryOf(mark!.url)).toEqual({ authhash: 'H1', guest_id: '11', hash: 'REF1', waiver_id: '55' });

    // The list is loaded again and shows Mia signed; Leo is still to sign.
    const people = () => screen.getAllByTestId('waiver-person').map((row) => row.textContent);
    await waitFor(() => expect(people()).toEqual(['Mia LeeSigned 02/03/2026', 'Leo LeeNeeds signing']));
    expect(screen.queryByText(waiverMessages.allSigned)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const leo = within(await screen.findByRole('region', { name: 'Waiver for Leo Lee' }));
    expect(((await leo.findByLabelText(/^First name/)) as HTMLInputElement).value).toBe('Leo');
    expect(JSON.parse(String(callsTo(fetchMock, 'POST', `${API}/check`)[1]?.init?.body))).toEqual({
      id: 'REF1',
      child_id: 12,
    });
    expect(callsTo(fetchMock, 'GET', `${API}/mark`)).toHaveLength(1);
  });

  it('says everything is signed once the last waiver was reused', async () => {
    let marked = false;
    stubWaiver({
      [`GET ${API}`]: () =>
        json(pageAnswer({ people: [person(marked ? { status: 'signed', signed_at: '2026-03-02' } : {})] })),
      [`POST ${API}/check`]: () => json({ valid: true, message: '', found: true, id: 55 }),
      [`GET ${API}/mark`]: () => {
        marked = true;
        return json({ valid: true, message: '' });
      },
    });
    renderApp(PAGE);

    expect(await screen.findByText(messages.waiverFound)).toBeTruthy();
    expect(await screen.findByText(waiverMessages.allSigned)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('shows the mark call’s message when the earlier waiver cannot be reused', async () => {
    stubWaiver({
      [`POST ${API}/check`]: () => json({ valid: true, message: '', found: true, id: 55 }),
      [`GET ${API}/mark`]: () => json({ valid: false, message: waiverMessages.notThisChild }),
    });
    renderApp(PAGE);

    expect((await screen.findByRole('alert')).textContent).toBe(waiverMessages.notThisChild);
    expect(screen.queryByText(messages.waiverFound)).toBeNull();
  });

  it('shows the form with the child’s details filled in when no earlier waiver is found', async () => {
    const fetchMock = stubWaiver();
    renderApp(PAGE);

    const form = within(await screen.findByRole('region', { name: 'Waiver for Mia Lee' }));
    expect((await form.findByLabelText(/^First name/)) as HTMLInputElement).toHaveProperty('value', 'Mia');
    expect(queryOf(callsTo(fetchMock, 'GET', `${API}/child-info`)[0]!.url)).toEqual({
      id: 'REF1',
      authhash: 'H1',
      child_id: '11',
    });
    expect(form.getByText('I understand that gymnastics carries a risk of injury.')).toBeTruthy();
    expect(form.getByLabelText(/^Last name/)).toHaveProperty('value', 'Lee');
    expect(form.getByLabelText('Date of birth')).toHaveProperty('value', '04/05/2019');
    // The template asks for medical conditions and photo consent, not allergies or a contact.
    expect(form.getByLabelText('Medical conditions').tagName).toBe('TEXTAREA');
    expect(form.getByLabelText('I consent to photos of my child being taken')).toHaveProperty(
      'checked',
      true,
    );
    expect(form.queryByLabelText('Allergies')).toBeNull();
    expect(form.queryByLabelText('Emergency contact (name and phone)')).toBeNull();
    expect(form.getByLabelText(/^Parent or guardian's full name/)).toHaveProperty('value', 'Sam Lee');
    const today = form.getByLabelText('Date') as HTMLInputElement;
    expect(today.readOnly).toBe(true);
    expect(today.value).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(form.getByRole('img', { name: 'Signature' }).style.touchAction).toBe('none');
    expect(form.getByLabelText('I have read and agree to this waiver')).toHaveProperty('checked', false);
    expect(screen.getAllByTestId('waiver-person').map((row) => row.textContent)).toEqual([
      'Mia LeeSigning now',
    ]);
  });

  it('asks for a signature and sends nothing while the box is empty', async () => {
    const fetchMock = stubWaiver();
    renderApp(PAGE);
    const user = userEvent.setup();

    await user.click(await screen.findByLabelText('I have read and agree to this waiver'));
    await user.click(screen.getByRole('button', { name: 'Sign waiver' }));

    expect(await screen.findByText(waiverMessages.signatureRequired)).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', API)).toHaveLength(0);
  });

  it('forgets the signature when it is cleared', async () => {
    const fetchMock = stubWaiver();
    renderApp(PAGE);
    const user = userEvent.setup();

    await user.click(await screen.findByLabelText('I have read and agree to this waiver'));
    const clear = screen.getByRole('button', { name: 'Clear' });
    expect(clear).toHaveProperty('disabled', true);
    drawSignature();
    expect(clear).toHaveProperty('disabled', false);
    await user.click(clear);
    await user.click(screen.getByRole('button', { name: 'Sign waiver' }));

    expect(await screen.findByText(waiverMessages.signatureRequired)).toBeTruthy();
    expect(clear).toHaveProperty('disabled', true);
    expect(callsTo(fetchMock, 'POST', API)).toHaveLength(0);
  });

  it('posts the signed waiver and reloads the page exactly 1 second later', async () => {
    const fetchMock = stubWaiver({ [`POST ${API}`]: () => json({ valid: true }) });
    renderApp(PAGE);
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText('Medical conditions'), 'Asthma (inhaler in bag)');
    await user.click(screen.getByLabelText('I have read and agree to this waiver'));
    drawSignature();

    // From here the clock only moves when the test says so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByRole('button', { name: 'Sign waiver' }));
    await settleWithClockStopped(() => screen.queryByText(waiverMessages.signed) !== null);
    expect(screen.getByText(waiverMessages.signed)).toBeTruthy();

    const [post] = callsTo(fetchMock, 'POST', API);
    expect(queryOf(post!.url)).toEqual({ authhash: 'H1' });
    expect(JSON.parse(String(post!.init?.body))).toEqual({
      id: 'REF1',
      child_id: 11,
      first_name: 'Mia',
      last_name: 'Lee',
      dob: '2019-05-04',
      medical: 'Asthma (inhaler in bag)',
      allergies: '',
      emergency_contact: '',
      photo_consent: true,
      signer_name: 'Sam Lee',
      signature: SIGNATURE_PNG,
      agree: true,
    });
    expect(WAIVER_RELOAD_DELAY_MS).toBe(1000);
    act(() => vi.advanceTimersByTime(WAIVER_RELOAD_DELAY_MS - 1));
    expect(reloadPage).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['the server fails', () => json({ message: 'Something went wrong. Please try again.' }, { status: 500 })],
    ['the connection drops', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('shows SPEC’s failure message when %s', async (_, answer) => {
    stubWaiver({ [`POST ${API}`]: answer });
    renderApp(PAGE);
    const user = userEvent.setup();

    await user.click(await screen.findByLabelText('I have read and agree to this waiver'));
    drawSignature();
    await user.click(screen.getByRole('button', { name: 'Sign waiver' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(messages.waiverFailed);
    expect(screen.queryByText(waiverMessages.signed)).toBeNull();
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('shows SPEC’s failure message and the server’s reason when it rejects without naming a field', async () => {
    stubWaiver({
      [`POST ${API}`]: () =>
        json({
          valid: false,
          error: { html_message: 'This waiver was <b>updated</b>. Please reload.', element: [] },
        }),
    });
    renderApp(PAGE);
    const user = userEvent.setup();

    await user.click(await screen.findByLabelText('I have read and agree to this waiver'));
    drawSignature();
    await user.click(screen.getByRole('button', { name: 'Sign waiver' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(messages.waiverFailed)).toBeTruthy();
    // html_message is HTML (SPEC.md point 5): shown with its emphasis, never as tags.
    expect(alert.textContent).toContain('This waiver was updated. Please reload.');
    expect(alert.querySelector('b')?.textContent).toBe('updated');
  });

  it('marks the fields the server rejects', async () => {
    stubWaiver({
      [`POST ${API}`]: () =>
        json({
          valid: false,
          error: {
            html_message: 'Please correct the errors below.',
            element: [{ name: 'signer_name', messages: ['Please enter your full name.'] }],
          },
        }),
    });
    renderApp(PAGE);
    const user = userEvent.setup();

    await user.click(await screen.findByLabelText('I have read and agree to this waiver'));
    drawSignature();
    await user.click(screen.getByRole('button', { name: 'Sign waiver' }));

    expect(await screen.findByText('Please enter your full name.')).toBeTruthy();
    expect(screen.getByLabelText(/^Parent or guardian's full name/).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(screen.getByTestId('form-summary').textContent).toBe('Please correct the errors below.');
    expect(screen.queryByText(messages.waiverFailed)).toBeNull();
  });

  it('says every waiver is signed when nobody is left, and checks nobody', async () => {
    const fetchMock = stubWaiver({
      [`GET ${API}`]: () =>
        json(
          pageAnswer({
            people: [
              person({ status: 'signed', signed_at: '2026-02-20T12:00:00Z' }),
              person({ id: 12, first_name: 'Leo', status: 'signed', signed_at: '2026-02-21' }),
            ],
          }),
        ),
    });
    renderApp(PAGE);

    expect(await screen.findByText(waiverMessages.allSigned)).toBeTruthy();
    expect(screen.getAllByTestId('waiver-person').map((row) => row.textContent)).toEqual([
      'Mia LeeSigned 20/02/2026',
      'Leo LeeSigned 21/02/2026',
    ]);
    expect(screen.getByText('2 of 2 signed')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', `${API}/check`)).toHaveLength(0);
  });
});

describe('PartyWaiverPage', () => {
  it('uses the birthday party calls, and asks for a guest’s date of birth the party did not know', async () => {
    const partyApi = waiverPaths.party.api;
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      [`GET ${partyApi}`]: () => json(pageAnswer({ title: "Mia's birthday party" })),
      [`POST ${partyApi}/check`]: () => json(notFound),
      [`GET ${partyApi}/child-info`]: () => json(childInfo({ dob: '' })),
    });
    renderApp('/birthday-party/waiver/?id=GUEST9&authhash=H1');

    expect(await screen.findByRole('heading', { name: "Mia's birthday party" })).toBeTruthy();
    expect(await screen.findByLabelText('Date of birth')).toHaveProperty('value', '');
    expect(queryOf(callsTo(fetchMock, 'GET', partyApi)[0]!.url)).toEqual({ id: 'GUEST9', authhash: 'H1' });
    expect(JSON.parse(String(callsTo(fetchMock, 'POST', `${partyApi}/check`)[0]?.init?.body))).toEqual({
      id: 'GUEST9',
      child_id: 11,
    });

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign waiver' }));
    expect(await screen.findByText('Please enter a valid date of birth.')).toBeTruthy();
    expect(screen.getByLabelText('Date of birth').getAttribute('aria-invalid')).toBe('true');
    expect(callsTo(fetchMock, 'POST', partyApi)).toHaveLength(0);
  });
});
