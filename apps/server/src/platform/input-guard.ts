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
export const OUT_OF_RANGE_MESSAGE = 'A number is out of range.';

/** Whether any string (key or value) anywhere in a parsed query, params or JSON body has one. */
export function hasControlCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return CONTROL.test(value);
  // A JSON body is at most 1 MB; deeper nesting than this is no form of ours.
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasControlCharacter(v, depth + 1));
  return Object.entries(value).some(([k, v]) => CONTROL.test(k) || hasControlCharacter(v, depth + 1));
}

/**
 * Refuses control characters in every route's query, params and parsed JSON body before the
 * route's own validation, so no feature has to remember them (issue 21 point 22).
 */
export const inputGuard = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (
      hasControlCharacter(request.query) ||
      hasControlCharacter(request.params) ||
      hasControlCharacter(request.body)
    ) {
      throw new BadRequestError(CONTROL_CHARACTER_MESSAGE);
    }
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
