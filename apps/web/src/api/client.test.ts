import { TOKEN_HEADER } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiClient,
  ApiError,
  AUTH_HASH_STORAGE_KEY,
  CommunicationError,
  type CurrentLocation,
  TOKEN_STORAGE_KEY,
} from './client';

function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** Answers each call with the next Response, or throws the next non-Response (a network failure). */
function stubFetch(...answers: unknown[]) {
  const fetchMock = vi.fn<typeof fetch>();
  for (const answer of answers) {
    if (answer instanceof Response) fetchMock.mockResolvedValueOnce(answer);
    else fetchMock.mockRejectedValueOnce(answer);
  }
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sentHeaders(fetchMock: ReturnType<typeof stubFetch>, call = 0): Headers {
  const init = fetchMock.mock.calls[call]?.[1];
  return new Headers(init?.headers);
}

/** A client whose alert, redirect and location are observable. */
function client(location: CurrentLocation = { pathname: '/admin/dashboard', search: '' }) {
  const alert = vi.fn<(message: string) => void>();
  const redirect = vi.fn<(url: string) => void>();
  const api = new ApiClient({ alert, redirect, location: () => location });
  return { api, alert, redirect };
}

describe('Authorization header', () => {
  it('says Public without a token and Bearer <token> with one', async () => {
    const fetchMock = stubFetch(json({ ok: 1 }), json({ ok: 2 }));
    const { api } = client();

    await api.get('/rest/acl');
    expect(sentHeaders(fetchMock, 0).get('Authorization')).toBe('Public');

    api.setToken('tok-123');
    await api.get('/rest/acl');
    expect(sentHeaders(fetchMock, 1).get('Authorization')).toBe('Bearer tok-123');
  });

  it('sends query parameters and a JSON body', async () => {
    const fetchMock = stubFetch(json({ ok: true }));
    const { api } = client();

    await api.post(
      '/rest',
      { username: 'a@b.test', password: 'pw' },
      { query: { authhash: 'h 1', skip: undefined } },
    );

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/rest?authhash=h+1');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ username: 'a@b.test', password: 'pw' }));
    expect(sentHeaders(fetchMock).get('Content-Type')).toBe('application/json');
  });
});

describe('token storage', () => {
  it('stores the token from any response carrying the token header, in memory and storage', async () => {
    const fetchMock = stubFetch(json({}, { headers: { [TOKEN_HEADER]: 'fresh-token' } }), json({}));
    const { api } = client();

    await api.post('/rest', { username: 'a', password: 'b' });

    expect(api.getToken()).toBe('fresh-token');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('fresh-token');
    await api.get('/rest/acl');
    expect(sentHeaders(fetchMock, 1).get('Authorization')).toBe('Bearer fresh-token');
  });

  it('also takes a token from an error response', async () => {
    stubFetch(json({ message: 'Nope' }, { status: 400, headers: { [TOKEN_HEADER]: 'rotated' } }));
    const { api } = client();

    await expect(api.get('/api/v1/x')).rejects.toBeInstanceOf(ApiError);
    expect(api.getToken()).toBe('rotated');
  });

  it('keeps token and auth hash under separate keys and reads them back on start', () => {
    const { api } = client();
    api.setToken('tok');
    api.setAuthHash('hash');

    expect(TOKEN_STORAGE_KEY).not.toBe(AUTH_HASH_STORAGE_KEY);
    expect(window.localStorage.getItem('tumble.token')).toBe('tok');
    expect(window.localStorage.getItem('tumble.authhash')).toBe('hash');

    const reloaded = new ApiClient();
    expect(reloaded.getToken()).toBe('tok');
    expect(reloaded.getAuthHash()).toBe('hash');
  });

  it('logout keeps the auth hash when asked to, and clears the token', () => {
    const { api } = client();
    api.setToken('tok');
    api.setAuthHash('hash');

    api.clearSession({ keepAuthHash: true });

    expect(api.getToken()).toBeNull();
    expect(window.localStorage.getItem('tumble.token')).toBeNull();
    expect(window.localStorage.getItem('tumble.authhash')).toBe('hash');
  });
});

describe('failures', () => {
  it('turns a network failure into the communication error message', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const { api } = client();

    const error = await api.get('/rest/acl').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CommunicationError);
    expect((error as Error).message).toBe(
      'Communication Error: An error occured while communicating with the server. Please try again.',
    );
    expect((error as Error).message).toBe(messages.communicationError);
  });

  it('treats an HTML page where JSON was expected as a communication error', async () => {
    stubFetch(new Response('<!doctype html><p>proxy</p>', { headers: { 'Content-Type': 'text/html' } }));
    const { api } = client();

    await expect(api.get('/rest/acl')).rejects.toThrow(messages.communicationError);
  });

  it('lets an abort through as an abort', async () => {
    const controller = new AbortController();
    controller.abort();
    stubFetch(new DOMException('The operation was aborted.', 'AbortError'));
    const { api } = client();

    const error = await api.get('/rest/acl', { signal: controller.signal }).catch((e: unknown) => e);

    expect(error).not.toBeInstanceOf(CommunicationError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('throws an ApiError with the status and the parsed { message } body', async () => {
    stubFetch(json({ message: 'Too many attempts.' }, { status: 429 }));
    const { api } = client();

    const error = await api.post('/rest', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).body).toEqual({ message: 'Too many attempts.' });
    expect((error as ApiError).serverMessage).toBe('Too many attempts.');
  });

  it('returns the generated form response of a rejected form post', async () => {
    const form = {
      valid: false,
      error: { html_message: 'Please fix the errors.', element: [{ name: 'email', messages: ['Taken.'] }] },
    };
    stubFetch(json(form, { status: 422 }));
    const { api } = client();

    await expect(api.postForm('/api/v1/companies/signup', {})).resolves.toEqual(form);
  });

  it('rejects a 2xx body that does not match the schema', async () => {
    stubFetch(json({ unexpected: true }));
    const { api } = client();
    const { linkCheckResponse } = await import('@tumble/contracts/auth');

    await expect(api.get('/api/v1/auth/activate', { schema: linkCheckResponse })).rejects.toBeInstanceOf(
      CommunicationError,
    );
  });
});

describe('403 rule (the shared client applies it to every call)', () => {
  it('on update-guest with an auth hash: student login with a redirect back', async () => {
    stubFetch(json({ message: 'Forbidden' }, { status: 403 }));
    const { api, alert, redirect } = client({
      pathname: '/birthday-party/update-guest/',
      search: '?id=5&authhash=H1',
    });
    api.setToken('tok');
    api.setAuthHash('H1');

    await expect(api.get('/birthday-party/update-guest')).rejects.toMatchObject({ status: 403 });

    expect(alert).toHaveBeenCalledExactlyOnceWith('Your session has expired. Please login again.');
    expect(redirect).toHaveBeenCalledExactlyOnceWith(
      `/admin/students/login?authhash=H1&redirect=${encodeURIComponent('/birthday-party/update-guest/?id=5&authhash=H1')}`,
    );
    expect(api.getToken()).toBeNull();
    expect(api.getAuthHash()).toBeNull();
    expect(window.localStorage.getItem('tumble.token')).toBeNull();
    expect(window.localStorage.getItem('tumble.authhash')).toBeNull();
  });

  it('for a student with an auth hash and company id: student login with the company id', async () => {
    stubFetch(json({ message: 'Forbidden' }, { status: 403 }));
    const { api, alert, redirect } = client({ pathname: '/booking/checkout', search: '?authhash=H2&b=1' });
    api.setToken('tok');
    api.setAuthHash('H2');
    api.setUserMeta({ role: 'student', companyId: 7 });

    await expect(api.get('/api/v1/students/children')).rejects.toBeInstanceOf(ApiError);

    expect(alert).toHaveBeenCalledExactlyOnceWith(messages.sessionExpired);
    expect(redirect).toHaveBeenCalledExactlyOnceWith('/admin/students/login?authhash=H2&id=7');
    expect(api.getUserMeta()).toBeNull();
  });

  it('after a reload, still knows a student session: the 403 of the first call goes to student login', async () => {
    const first = client();
    first.api.setToken('tok');
    first.api.setAuthHash('H3');
    first.api.setUserMeta({ role: 'student', companyId: 9 });
    stubFetch(json({ message: 'Forbidden' }, { status: 403 }));
    // A new client reads what the page left in storage, as after a reload.
    const { api, redirect } = client({ pathname: '/admin/students/profile', search: '' });
    await expect(api.get('/rest/acl')).rejects.toBeInstanceOf(ApiError);
    expect(redirect).toHaveBeenCalledExactlyOnceWith('/admin/students/login?authhash=H3&id=9');
    expect(window.localStorage.getItem('tumble.meta')).toBeNull();
  });

  it('otherwise: /admin/login', async () => {
    stubFetch(json({ message: 'Forbidden' }, { status: 403 }));
    const { api, alert, redirect } = client({ pathname: '/admin/term-classes', search: '' });
    api.setToken('tok');
    api.setAuthHash('H3');
    api.setUserMeta({ role: 'companyadmin', companyId: 7 });

    await expect(api.get('/api/v1/admin/term-classes')).rejects.toBeInstanceOf(ApiError);

    expect(alert).toHaveBeenCalledExactlyOnceWith(messages.sessionExpired);
    expect(redirect).toHaveBeenCalledExactlyOnceWith('/admin/login');
    expect(api.getToken()).toBeNull();
  });

  it('a student without a known company goes to /admin/login too', async () => {
    stubFetch(json({}, { status: 403 }));
    const { api, redirect } = client({ pathname: '/booking/checkout', search: '' });
    api.setToken('tok');
    api.setUserMeta({ role: 'student', companyId: 7 });

    await expect(api.get('/x')).rejects.toBeInstanceOf(ApiError);

    expect(redirect).toHaveBeenCalledExactlyOnceWith('/admin/login');
  });

  it.each(['/admin/login', '/admin/login/', '/admin/students/login', '/admin/students/login/'])(
    'on %s it clears the session but neither alerts nor redirects (no loop)',
    async (pathname) => {
      stubFetch(json({ message: 'Forbidden' }, { status: 403 }));
      const { api, alert, redirect } = client({ pathname, search: '?authhash=H4' });
      const cleared = vi.fn();
      api.onSessionCleared(cleared);
      api.setToken('tok');
      api.setAuthHash('H4');

      await expect(api.get('/rest/acl')).rejects.toMatchObject({ status: 403 });

      expect(alert).not.toHaveBeenCalled();
      expect(redirect).not.toHaveBeenCalled();
      expect(api.getToken()).toBeNull();
      expect(cleared).toHaveBeenCalledOnce();
    },
  );

  it('alerts once when several calls fail with 403 together', async () => {
    stubFetch(json({}, { status: 403 }), json({}, { status: 403 }));
    const { api, alert, redirect } = client();
    api.setToken('tok');

    await Promise.allSettled([api.get('/a'), api.get('/b')]);

    expect(alert).toHaveBeenCalledOnce();
    expect(redirect).toHaveBeenCalledOnce();
  });

  it('keeps the session of a 403 whose reason is wrong_role: a staff member on a parent page (issue 21 point 13)', async () => {
    stubFetch(
      json({ message: 'You do not have permission to do this.', reason: 'wrong_role' }, { status: 403 }),
    );
    const { api, alert, redirect } = client({ pathname: '/event-booking/checkout', search: '?authhash=H5' });
    api.setToken('tok');
    api.setUserMeta({ role: 'companystaff', companyId: 7 });

    const error = await api.get('/api/v1/students/profile').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).wrongRole).toBe(true);
    expect(alert).not.toHaveBeenCalled();
    expect(redirect).not.toHaveBeenCalled();
    expect(api.getToken()).toBe('tok');
  });

  it('still ends the session on a 403 whose reason is session_expired', async () => {
    stubFetch(json({ message: messages.sessionExpired, reason: 'session_expired' }, { status: 403 }));
    const { api, alert } = client();
    api.setToken('tok');

    await expect(api.get('/rest/acl')).rejects.toMatchObject({ status: 403, wrongRole: false });
    expect(alert).toHaveBeenCalledExactlyOnceWith(messages.sessionExpired);
    expect(api.getToken()).toBeNull();
  });

  it('leaves other error statuses alone', async () => {
    stubFetch(json({ message: 'Unauthorised' }, { status: 401 }));
    const { api, alert, redirect } = client();
    api.setToken('tok');

    await expect(api.get('/rest/acl')).rejects.toMatchObject({ status: 401 });

    expect(alert).not.toHaveBeenCalled();
    expect(redirect).not.toHaveBeenCalled();
    expect(api.getToken()).toBe('tok');
  });
});

describe('download', () => {
  it('GETs the file with the bearer token and returns its bytes as a Blob of its type', async () => {
    const fetchMock = stubFetch(
      new Response('%PDF-1.7 receipt', { headers: { 'Content-Type': 'application/pdf' } }),
    );
    const { api } = client();
    api.setToken('tok-pdf');

    const blob = await api.download('/api/v1/students/payments/5/receipt', { query: { v: 2 } });

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/students/payments/5/receipt?v=2');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('GET');
    expect(sentHeaders(fetchMock).get('Authorization')).toBe('Bearer tok-pdf');
    expect(blob.type).toBe('application/pdf');
    expect(await blob.text()).toBe('%PDF-1.7 receipt');
  });

  it('takes a rotated token from the file response', async () => {
    stubFetch(
      new Response('a,b\r\n', {
        headers: { 'Content-Type': 'text/csv', [TOKEN_HEADER]: 'rotated-on-download' },
      }),
    );
    const { api } = client();
    api.setToken('old');

    await api.download('/api/v1/admin/reports/birthday-parties');

    expect(api.getToken()).toBe('rotated-on-download');
  });

  it('throws an ApiError with the server message when the file is not there', async () => {
    stubFetch(json({ message: 'This receipt does not exist.' }, { status: 404 }));
    const { api } = client();

    const error = await api.download('/api/v1/students/payments/9/receipt').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).serverMessage).toBe('This receipt does not exist.');
  });

  it('applies the 403 rule like every other call', async () => {
    stubFetch(json({ message: 'Forbidden' }, { status: 403 }));
    const { api, alert, redirect } = client({ pathname: '/admin/students/payments', search: '' });
    api.setToken('tok');

    await expect(api.download('/api/v1/students/payments/5/receipt')).rejects.toMatchObject({ status: 403 });

    expect(alert).toHaveBeenCalledExactlyOnceWith(messages.sessionExpired);
    expect(redirect).toHaveBeenCalledExactlyOnceWith('/admin/login');
    expect(api.getToken()).toBeNull();
  });

  it('treats an HTML page (a proxy or the SPA fallback) as a communication error, not a file', async () => {
    stubFetch(new Response('<!doctype html><p>app</p>', { headers: { 'Content-Type': 'text/html' } }));
    const { api } = client();

    await expect(api.download('/api/v1/students/payments/5/receipt')).rejects.toBeInstanceOf(
      CommunicationError,
    );
  });

  it('turns a network failure into a communication error', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const { api } = client();

    await expect(api.download('/api/v1/students/waivers/1/pdf')).rejects.toThrow(messages.communicationError);
  });
});
