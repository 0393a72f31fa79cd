/**
 * Domain errors thrown by services. Only plugins/app/errors.ts turns them into HTTP replies,
 * each with the body shape of contract §5.
 */
export class DomainError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** 404 `{"detail": "<Model> with id `x` not found"}` */
export class NotFoundError extends DomainError {}

/** 409 `{"detail": "..."}` */
export class ConflictError extends DomainError {}

/** 422 `{"detail": "..."}`: a business rule refused the request. */
export class UnprocessableError extends DomainError {}

/** 422 `{"code": "...", "message": "..."}`: a business rule with a code the frontend translates. */
export class CodedUnprocessableError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** 403 ForbiddenOperationError shape. */
export class ForbiddenError extends DomainError {
  constructor(message = 'Operation not allowed') {
    super(message);
  }
}

/** 401 UnauthorizedError shape. */
export class UnauthorizedError extends DomainError {
  constructor(message = 'Could not validate credentials') {
    super(message);
  }
}

/** 429 `{"detail": "..."}` with a `Retry-After` header of `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** 400 BadRequestError shape. */
export class BadRequestError extends DomainError {}

/** One entry of the 422 validation shape. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
}

/** 422 ValidationError shape; raised for request-schema problems found after parsing. */
export class RequestValidationError extends DomainError {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => i.msg).join('; '));
  }

  /** A model-level error as pydantic reports it (`type: value_error`, `Value error, <text>`). */
  static valueError(loc: (string | number)[], text: string): RequestValidationError {
    return new RequestValidationError([{ type: 'value_error', loc, msg: `Value error, ${text}` }]);
  }
}
