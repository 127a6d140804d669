/**
 * Errors a service throws to end a request with a given status. The error handler in app.ts turns
 * them into `{ message }` (CONVENTIONS.md point 5); anything else is a 500 and is logged.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
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

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this.') {
    super(403, message);
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
