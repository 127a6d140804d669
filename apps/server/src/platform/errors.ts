import type { ErrorReason } from '@tumble/contracts/http';

/**
 * Errors a service throws to end a request with a given status. The error handler in app.ts turns
 * them into `{ message }` (CONVENTIONS.md point 5); anything else is a 500 and is logged.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Why, for a client that must act differently on the same status (see ForbiddenError). */
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found.') {
    super(404, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Please sign in.') {
    super(401, message);
  }
}

/**
 * 403. The SPA ends the session on a 403 (SPEC.md point 4) unless the reason is `wrong_role`: a
 * signed-in user whose role may not do this (a staff member on a parent's checkout) is not an
 * expired session (decision 004).
 */
export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this.', reason: ErrorReason = 'wrong_role') {
    super(403, message, {}, reason);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
