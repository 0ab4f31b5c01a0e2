import type { ProblemSlug } from './catalogue';

export interface FieldError {
  field: string;
  code: string;
  detail: string;
}

/**
 * An error raised by domain code. It carries a stable code (a problem slug), never an HTTP status:
 * only this library turns it into one.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ProblemSlug,
    detail: string,
    readonly errors: FieldError[] = [],
  ) {
    super(detail);
    this.name = 'DomainError';
  }
}

/** The resource does not exist for this caller: a bare 404, also for another owner's resource. */
export class NotFoundError extends Error {
  constructor(what = 'resource') {
    super(`${what} not found`);
    this.name = 'NotFoundError';
  }
}

export function validationError(errors: FieldError[], detail = 'The request is invalid.'): DomainError {
  return new DomainError('validation', detail, errors);
}
