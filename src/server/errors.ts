/**
 * What can go wrong in the service's domain, said in the domain's words. Domain modules
 * (buckets, extractors, files, runs, sessions, tokens) throw these and know nothing of
 * HTTP; the edge (http/problem.ts) turns each into its problem document and status.
 */

/** One thing wrong with an input: where (a JSON pointer into it, or a query parameter) and what. */
export type FieldError =
  | { /** JSON pointer (RFC 6901) into the input. */ pointer: string; detail: string }
  | { /** A query parameter's name. */ parameter: string; detail: string };

export abstract class DomainError extends Error {
  constructor(message?: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Nothing is there, or nothing the caller may see: the two are told apart to no one. */
export class NotFoundError extends DomainError {}

/** The input cannot be read at all (malformed, empty, or more than one may send). */
export class UnreadableInputError extends DomainError {}

/** The thing is in a state that does not allow the request; `currentStatus` names it. */
export class ConflictError extends DomainError {
  constructor(
    detail: string,
    readonly currentStatus?: string,
  ) {
    super(detail);
  }
}

/**
 * The caller may not set what the input sets (and may know that such a thing exists,
 * unlike NotFoundError): one entry for each field it may not set.
 */
export class ForbiddenInputError extends DomainError {
  constructor(
    detail: string,
    readonly errors: FieldError[],
  ) {
    super(detail);
  }
}

/** The caller may see the thing, but not do this with it (a session, a download its extractor forbids). */
export class NotAllowedError extends DomainError {}

/** The input could be read, but its values break the rules: one entry for each. */
export class InvalidInputError extends DomainError {
  constructor(readonly errors: FieldError[]) {
    super(errors.map(describeFieldError).join('; '));
  }
}

/**
 * The input is larger than the limit. `abandoned`: the rest of it was not read, so the
 * connection it came on cannot carry another request.
 */
export class InputTooLargeError extends DomainError {
  constructor(
    detail: string,
    readonly abandoned = false,
  ) {
    super(detail);
  }
}

/**
 * The input arrived too slowly to wait for (body-pace.ts). The rest of it is not read, so
 * the connection it came on is closed.
 */
export class InputTooSlowError extends DomainError {}

/** The input (or a file in it) is of a type the service does not take; `accepted` lists those it does. */
export class UnsupportedInputError extends DomainError {
  constructor(
    detail: string,
    readonly accepted: readonly string[],
  ) {
    super(detail);
  }
}

/**
 * The caller has as much under way as it may (page requests of one token, say); it may
 * ask again after `retryAfterSeconds`.
 */
export class TooManyRequestsError extends DomainError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
  }
}

export function describeFieldError(error: FieldError): string {
  const where =
    'parameter' in error ? `query parameter ${error.parameter}` : error.pointer || 'the body';
  return `${where}: ${error.detail}`;
}
