import type { Role } from '@tumble/contracts/auth';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { TOKEN_HEADER } from '@tumble/contracts/wire';
import type { z } from 'zod';

/**
 * Whether 2xx bodies are checked against the contracts' zod schemas: in development, in the unit
 * tests, and in a build made with VITE_VALIDATE_RESPONSES=true. A production build trusts its own
 * server and leaves the check out, so zod is not part of the public pages' first load (issue 19:
 * /booking under 150 KB of gzipped JS). Vite replaces these at build time, so in production every
 * `VALIDATE_RESPONSES ? schema : undefined` folds to undefined and the schema is dropped from the
 * bundle; pass schemas that way at call sites on the public pages' path.
 */
export const VALIDATE_RESPONSES: boolean =
  import.meta.env.DEV ||
  import.meta.env.MODE === 'test' ||
  import.meta.env.VITE_VALIDATE_RESPONSES === 'true';

/** Browser storage keys (SPEC.md point 9: token and auth hash are kept under separate keys). */
export const TOKEN_STORAGE_KEY = 'tumble.token';
export const AUTH_HASH_STORAGE_KEY = 'tumble.authhash';
/**
 * Who the token belongs to (role and company). Kept beside the token because the 403 rule needs it
 * after a reload, when the call that fails with 403 is the one that would have loaded it.
 */
export const USER_META_STORAGE_KEY = 'tumble.meta';

/** A non-2xx answer. `body` is the parsed JSON: `{ message }` or a generated form response. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(messageOf(body) ?? `The server answered with status ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The server's `{ message }`, when it sent one. */
  get serverMessage(): string | undefined {
    return messageOf(this.body);
  }

  /**
   * A 403 for a signed-in user whose role may not make this call (a staff member on a parent's
   * checkout): the session is fine, another account is needed (decision 004).
   */
  get wrongRole(): boolean {
    return this.status === 403 && reasonOf(this.body) === 'wrong_role';
  }

  /** The generated form response, when the body is one. */
  get formResponse(): FormResponse | undefined {
    return isFormResponse(this.body) ? this.body : undefined;
  }
}

/** The request never got an answer we could read (offline, DNS, CORS, a proxy's HTML page). */
export class CommunicationError extends Error {
  constructor(cause?: unknown) {
    super(messages.communicationError, { cause });
    this.name = 'CommunicationError';
  }
}

/**
 * A generated form response (SPEC.md point 3) is the only body with a boolean `valid`. Checked by
 * hand rather than with the contract's schema so that the client itself needs no zod.
 */
function isFormResponse(body: unknown): body is FormResponse {
  return (
    typeof body === 'object' && body !== null && typeof (body as { valid?: unknown }).valid === 'boolean'
  );
}

function reasonOf(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'reason' in body) {
    const { reason } = body as { reason: unknown };
    if (typeof reason === 'string') return reason;
  }
  return undefined;
}

function messageOf(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.length > 0) return message;
  }
  return undefined;
}

/** What the 403 rule needs to know about the signed-in user, taken from GET /rest/acl. */
export interface UserMeta {
  role: Role | null;
  companyId: number | null;
  /** The company's currency (ISO 4217), for the amounts the SPA formats itself. */
  currency?: string | null;
}

export interface CurrentLocation {
  pathname: string;
  search: string;
}

type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions<T> {
  query?: Query;
  body?: unknown;
  /** Validates a 2xx body; a body that does not match is treated as a communication error. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Prefix of every path; empty because the SPA and the API share an origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  storage?: () => Storage | undefined;
  location?: () => CurrentLocation;
  /** Says that the session expired (window.alert by default). */
  alert?: (message: string) => void;
  /** Leaves the page after the session expired (a full page load by default, so no stale state survives). */
  redirect?: (url: string) => void;
}

const LOGIN_PATH = /^\/admin\/(students\/)?login\/?$/;
const UPDATE_GUEST_PATH = /^\/birthday-party\/update-guest\/?$/;

export function isLoginPath(pathname: string): boolean {
  return LOGIN_PATH.test(pathname);
}

/** Where the 403 rule of SPEC.md point 4 sends the visitor. */
export function sessionExpiredTarget(
  location: CurrentLocation,
  authHash: string | null,
  meta: UserMeta | null,
): string {
  if (authHash && UPDATE_GUEST_PATH.test(location.pathname)) {
    const params = new URLSearchParams({ authhash: authHash, redirect: location.pathname + location.search });
    return `/admin/students/login?${params}`;
  }
  if (authHash && meta?.role === 'student' && meta.companyId !== null) {
    const params = new URLSearchParams({ authhash: authHash, id: String(meta.companyId) });
    return `/admin/students/login?${params}`;
  }
  return '/admin/login';
}

function parseMeta(stored: string | null): UserMeta | null {
  if (!stored) return null;
  try {
    const meta = JSON.parse(stored) as Partial<UserMeta>;
    return {
      role: meta.role ?? null,
      companyId: typeof meta.companyId === 'number' ? meta.companyId : null,
      currency: typeof meta.currency === 'string' ? meta.currency : null,
    };
  } catch {
    return null;
  }
}

function defaultStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Storage can be disabled (private mode, blocked cookies); the token then lives in memory only.
    return undefined;
  }
}

/**
 * The one fetch client of the SPA. Every call carries `Authorization: Bearer <token>`, or
 * `Authorization: Public` without a token (SPEC.md point 6); any response carrying the token header
 * replaces the token (SPEC.md point 4).
 */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly options: ApiClientOptions;
  private token: string | null;
  private authHash: string | null;
  private userMeta: UserMeta | null = null;
  private sessionExpiryHandled = false;
  private readonly listeners = new Set<() => void>();
  private readonly clearedListeners = new Set<() => void>();

  constructor(options: ApiClientOptions = {}) {
    this.options = options;
    this.baseUrl = options.baseUrl ?? '';
    this.token = this.read(TOKEN_STORAGE_KEY);
    this.authHash = this.read(AUTH_HASH_STORAGE_KEY);
    this.userMeta = this.token ? parseMeta(this.read(USER_META_STORAGE_KEY)) : null;
  }

  getToken = (): string | null => this.token;

  getAuthHash = (): string | null => this.authHash;

  getUserMeta = (): UserMeta | null => this.userMeta;

  setToken(token: string): void {
    this.sessionExpiryHandled = false;
    if (token === this.token) return;
    this.token = token;
    this.write(TOKEN_STORAGE_KEY, token);
    this.emit();
  }

  /** Public pages name the company by authhash; it is remembered for the 403 rule and for sign-in. */
  setAuthHash(authHash: string): void {
    if (authHash === this.authHash) return;
    this.authHash = authHash;
    this.write(AUTH_HASH_STORAGE_KEY, authHash);
    this.emit();
  }

  setUserMeta(meta: UserMeta): void {
    const changed = meta.role !== this.userMeta?.role || meta.companyId !== this.userMeta?.companyId;
    this.userMeta = meta;
    this.write(USER_META_STORAGE_KEY, JSON.stringify(meta));
    if (changed) this.emit();
  }

  /** Forgets the session: token, cached user meta and (unless kept, as on logout) the auth hash. */
  clearSession(options: { keepAuthHash?: boolean } = {}): void {
    this.token = null;
    this.userMeta = null;
    this.write(TOKEN_STORAGE_KEY, null);
    this.write(USER_META_STORAGE_KEY, null);
    if (!options.keepAuthHash) {
      this.authHash = null;
      this.write(AUTH_HASH_STORAGE_KEY, null);
    }
    for (const listener of this.clearedListeners) listener();
    this.emit();
  }

  /** For useSyncExternalStore: called whenever the token, auth hash or user meta changes. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Called after the session was cleared, so caches of user data can be dropped. */
  onSessionCleared(listener: () => void): () => void {
    this.clearedListeners.add(listener);
    return () => this.clearedListeners.delete(listener);
  }

  get<T = unknown>(path: string, options: Omit<RequestOptions<T>, 'body'> = {}): Promise<T> {
    return this.request('GET', path, options);
  }

  post<T = unknown>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'body'> = {}): Promise<T> {
    return this.request('POST', path, { ...options, body });
  }

  /**
   * Posts a generated form and returns its form response, whether the server answered 2xx or an
   * error status with a form response body (validation failures). Other failures throw.
   */
  async postForm(
    path: string,
    body: unknown,
    options: Omit<RequestOptions<FormResponse>, 'body' | 'schema'> = {},
  ) {
    try {
      const form = await this.request('POST', path, { ...options, body });
      if (!isFormResponse(form))
        throw new CommunicationError(new Error('The answer is not a form response.'));
      return form;
    } catch (error) {
      const form = error instanceof ApiError ? error.formResponse : undefined;
      if (form) return form;
      throw error;
    }
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const response = await this.send(method, path, options, 'application/json');
    const text = await readBody(() => response.text(), options.signal);
    const parsed = parseBody(text, response.headers.get('Content-Type'));
    if (!response.ok) throw this.failure(response.status, parsed, text);
    if (!parsed.ok) throw new CommunicationError(parsed.error);
    if (!options.schema || !VALIDATE_RESPONSES) return parsed.value as T;
    const checked = options.schema.safeParse(parsed.value);
    if (!checked.success) throw new CommunicationError(checked.error);
    return checked.data;
  }

  /**
   * GETs a file (PDF receipt, signed waiver, CSV report) as a Blob. Downloads need the bearer token,
   * so pages fetch them here and save them with `saveBlob` rather than linking to them. Failures
   * throw like every other call, and a 403 ends the session the same way.
   */
  async download(path: string, options: Pick<RequestOptions<Blob>, 'query' | 'signal'> = {}): Promise<Blob> {
    const response = await this.send('GET', path, options, '*/*');
    const contentType = response.headers.get('Content-Type');
    if (!response.ok) {
      const text = await readBody(() => response.text(), options.signal);
      throw this.failure(response.status, parseBody(text, contentType), text);
    }
    if (contentType?.includes('text/html')) {
      // An HTML page here comes from a proxy or the SPA fallback; saving it as the file would mislead.
      throw new CommunicationError(new Error(`Unexpected content type: ${contentType}`));
    }
    return readBody(() => response.blob(), options.signal);
  }

  /** Sends one call with the session's Authorization header and takes any new token from the answer. */
  private async send(
    method: string,
    path: string,
    options: Omit<RequestOptions<unknown>, 'schema'>,
    accept: string,
  ): Promise<Response> {
    const headers = new Headers({ Accept: accept });
    headers.set('Authorization', this.token ? `Bearer ${this.token}` : 'Public');
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }

    const doFetch = this.options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(this.url(path, options.query), {
        method,
        headers,
        body,
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new CommunicationError(error);
    }

    const token = response.headers.get(TOKEN_HEADER);
    if (token) this.setToken(token);
    return response;
  }

  /** The error of a non-2xx answer, after applying the 403 rule. */
  private failure(status: number, parsed: ParsedBody, text: string): ApiError {
    const error = new ApiError(status, parsed.ok ? parsed.value : text);
    if (status === 403 && !error.wrongRole) this.handleForbidden();
    return error;
  }

  /**
   * SPEC.md point 4 gives two readings of the 403 rule. Reading chosen: "the shared client applies
   * the 403 rule to every call" — any 403 clears the session, and, unless the visitor is already on
   * a login page (which would loop), alerts once and sends them to the right login page. The one
   * exception is a 403 whose `reason` is `wrong_role`: the session is alive but belongs to a role
   * that may not make the call, so it is kept and the page says whose it is (decision 004).
   */
  private handleForbidden(): void {
    const location = this.location();
    const target = sessionExpiredTarget(location, this.authHash, this.userMeta);
    this.clearSession();
    if (isLoginPath(location.pathname) || this.sessionExpiryHandled) return;
    this.sessionExpiryHandled = true;
    (this.options.alert ?? ((message: string) => window.alert(message)))(messages.sessionExpired);
    (this.options.redirect ?? ((url: string) => window.location.assign(url)))(target);
  }

  private location(): CurrentLocation {
    if (this.options.location) return this.options.location();
    return { pathname: window.location.pathname, search: window.location.search };
  }

  private url(path: string, query: Query | undefined): string {
    if (!query) return this.baseUrl + path;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
      for (const item of values) {
        if (item !== undefined && item !== null) params.append(key, String(item));
      }
    }
    const search = params.toString();
    return search ? `${this.baseUrl}${path}${path.includes('?') ? '&' : '?'}${search}` : this.baseUrl + path;
  }

  private storage(): Storage | undefined {
    return (this.options.storage ?? defaultStorage)();
  }

  private read(key: string): string | null {
    try {
      return this.storage()?.getItem(key) || null;
    } catch {
      return null;
    }
  }

  private write(key: string, value: string | null): void {
    try {
      const storage = this.storage();
      if (value === null) storage?.removeItem(key);
      else storage?.setItem(key, value);
    } catch {
      // Quota or privacy settings: the in-memory value still serves this page.
    }
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

type ParsedBody = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Reads a response body; a connection dropped mid-body is a communication error, an abort stays an abort. */
async function readBody<T>(read: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CommunicationError(error);
  }
}

function parseBody(text: string, contentType: string | null): ParsedBody {
  if (text.length === 0) return { ok: true, value: undefined };
  // Files (CSV, PDF) come through `download`, never here.
  if (!contentType?.includes('json')) {
    // The API answers JSON only; an HTML page here comes from a proxy or the SPA fallback.
    return { ok: false, error: new Error(`Unexpected content type: ${contentType ?? 'none'}`) };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The client the app uses. Tests build their own with `new ApiClient({...})` or stub global fetch. */
export const api = new ApiClient();
