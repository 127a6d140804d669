import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pgCode } from './db-errors.ts';
import { type AppError, BadRequestError } from './errors.ts';

/**
 * Control characters no form, query or JSON value legitimately carries: C0 except tab, line feed
 * and carriage return, plus DEL. PostgreSQL refuses NUL in text outright (a 500 before this guard);
 * the others would be stored and echoed into mail, PDFs and CSV exports.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const CONTROL_CHARACTER_MESSAGE = 'Text may not contain control characters.';
/** Half of a UTF-16 surrogate pair with no other half (JSON's "\\ud800"): no character at all. */
export const BROKEN_TEXT_MESSAGE = 'Text may not contain broken characters.';
export const OUT_OF_RANGE_MESSAGE = 'A number is out of range.';

/** Whether any string (key or value) anywhere in a parsed query, params or JSON body passes `test`. */
function anyString(value: unknown, test: (text: string) => boolean, depth = 0): boolean {
  if (typeof value === 'string') return test(value);
  // A JSON body is at most 1 MB; deeper nesting than this is no form of ours.
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => anyString(v, test, depth + 1));
  return Object.entries(value).some(([k, v]) => test(k) || anyString(v, test, depth + 1));
}

export function hasControlCharacter(value: unknown): boolean {
  return anyString(value, (text) => CONTROL.test(text));
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function hasBrokenText(value: unknown): boolean {
  return anyString(value, (text) => LONE_SURROGATE.test(text));
}

/** The refusal for text no field may hold, or null. */
function badText(value: unknown): BadRequestError | null {
  if (hasControlCharacter(value)) return new BadRequestError(CONTROL_CHARACTER_MESSAGE);
  if (hasBrokenText(value)) return new BadRequestError(BROKEN_TEXT_MESSAGE);
  return null;
}

/**
 * Refuses control characters before anything reads the request: the query, path and headers as
 * soon as the route is known (the session and module checks that run next look the company up by
 * the query's authhash), and the parsed JSON body before the route's own validation. No feature has
 * to remember them.
 */
export const inputGuard = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    const refusal = badText(request.query) ?? badText(request.params) ?? badText(request.headers);
    if (refusal) throw refusal;
  });
  app.addHook('preValidation', async (request) => {
    const refusal = badText(request.body);
    if (refusal) throw refusal;
  });
});

/**
 * A number PostgreSQL cannot hold (an id or count beyond its 32-bit integer, SQLSTATE 22003) is the
 * caller's mistake, not ours: 400. Schemas bound ids to 1..2147483647 (contracts/http.ts `dbId`);
 * this catches any value that reaches a query some other way (a query-string id parsed by hand).
 * The statement failed, so its transaction rolled back: nothing was written.
 */
export function inputOutOfRange(error: unknown): AppError | null {
  return pgCode(error) === '22003' ? new BadRequestError(OUT_OF_RANGE_MESSAGE) : null;
}
