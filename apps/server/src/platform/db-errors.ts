import { AppError } from './errors.ts';

/** The SQLSTATE of a pg error, also when Drizzle wraps it (`cause`). */
export function pgCode(error: unknown): string | undefined {
  return (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
}

const message = (error: unknown) =>
  `${(error as Error)?.message ?? ''} ${(error as { cause?: Error })?.cause?.message ?? ''}`;

/**
 * Database trouble that is nobody's input mistake, as an answer the client can act on:
 * - the database cannot be reached or is restarting: 503, try again in a few seconds;
 * - a row lock was not granted within LOCK_TIMEOUT_MS (a rush on one session): 503, try again;
 * - a deadlock or serialization failure: 409, try again.
 * Anything else stays unknown (null): a real bug, answered 500 and logged.
 */
export function databaseTrouble(error: unknown): AppError | null {
  const code = pgCode(error);
  if (code === '55P03')
    return new AppError(503, 'This is very busy right now. Please try again in a moment.', {
      'Retry-After': '2',
    });
  if (code === '40P01' || code === '40001')
    return new AppError(409, 'This changed at the same moment elsewhere. Please try again.', {
      'Retry-After': '1',
    });
  const unreachable =
    (code !== undefined && (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code))) ||
    /ECONNREFUSED|ECONNRESET|EPIPE|Connection terminated|timeout exceeded when trying to connect|the database system is (starting up|shutting down)/i.test(
      message(error),
    );
  if (unreachable)
    return new AppError(503, 'The service is briefly unavailable. Please try again in a few seconds.', {
      'Retry-After': '5',
    });
  return null;
}
