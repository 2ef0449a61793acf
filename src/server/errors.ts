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

/**
 * What the request would store finds no room (see isInsufficientStorage): nothing of it was
 * kept. `abandoned`: the rest of its body was not read, so its connection is closed.
 */
export class InsufficientStorageError extends DomainError {
  constructor(
    detail: string,
    readonly abandoned = false,
  ) {
    super(detail);
  }
}

export function describeFieldError(error: FieldError): string {
  const where =
    'parameter' in error ? `query parameter ${error.parameter}` : error.pointer || 'the body';
  return `${where}: ${error.detail}`;
}

/**
 * Error codes that mean a write found no room, or nowhere it may write: the system's (a full
 * disk, a used-up quota, a read-only mount), SQLite's (`SQLITE_FULL` is what it makes of
 * ENOSPC; a quota's EDQUOT reaches it as a failed write, and a full disk on the first open
 * as a shared-memory index it cannot size) and PostgreSQL's `disk_full` (53100).
 */
const insufficientStorageCodes = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'SQLITE_FULL',
  'SQLITE_IOERR_WRITE',
  'SQLITE_IOERR_SHMSIZE',
  '53100',
]);

/**
 * Whether `error` (or an error it was caused by) is a write that found no room: the request
 * or the work that made it cannot be done now, but the service is not broken, and it can
 * be done again once there is room (http/problem.ts answers 507).
 */
export function isInsufficientStorage(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (insufficientStorageCodes.has(code) || /^SQLITE_READONLY/.test(code))
    )
      return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
