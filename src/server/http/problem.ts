/**
 * One error type for the whole edge. Whatever goes wrong in a request ends as an RFC 9457
 * problem document (`application/problem+json`): thrown `ProblemError`s carry their
 * status, the domain's errors (errors.ts) are mapped to theirs by `problemOf`, and
 * anything else is logged and answered with a 500 that reveals nothing.
 */
import {
  ConflictError,
  ForbiddenInputError,
  InputTooLargeError,
  InputTooSlowError,
  InsufficientStorageError,
  InvalidInputError,
  NotAllowedError,
  NotFoundError,
  TooManyRequestsError,
  UnreadableInputError,
  UnsupportedInputError,
  describeFieldError,
  isInsufficientStorage,
  type FieldError,
} from '../errors.js';

export type { FieldError };

export const problemMediaType = 'application/problem+json';

interface ProblemInit {
  status: number;
  slug: string;
  title: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  extensions?: Record<string, unknown>;
}

export class ProblemError extends Error {
  readonly status: number;
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(init: ProblemInit) {
    super(init.detail);
    this.name = 'ProblemError';
    this.status = init.status;
    this.slug = init.slug;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
    this.extensions = init.extensions ?? {};
  }

  toJSON(instance?: string): Record<string, unknown> {
    return {
      type: `/api/docs#problem-${this.slug}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
      ...(instance ? { instance } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
      ...this.extensions,
    };
  }
}

/** Every problem type the service answers with, for the docs page and the OpenAPI document. */
export const problemTypes = {
  'bad-request': { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'not-acceptable': { status: 406, title: 'Not acceptable' },
  'request-timeout': { status: 408, title: 'Request timeout' },
  conflict: { status: 409, title: 'Conflict' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'validation-error': { status: 422, title: 'Validation error' },
  'too-many-requests': { status: 429, title: 'Too many requests' },
  'unreadable-document': { status: 422, title: 'Document cannot be shown' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'not-ready': { status: 503, title: 'Not ready' },
  'insufficient-storage': { status: 507, title: 'Insufficient storage' },
} as const;

type ProblemSlug = keyof typeof problemTypes;

function problem(
  slug: ProblemSlug,
  detail: string,
  extra: Partial<ProblemInit> = {},
): ProblemError {
  const { status, title } = problemTypes[slug];
  return new ProblemError({ status, slug, title, detail, ...extra });
}

export const badRequest = (detail: string, errors?: FieldError[]) =>
  problem('bad-request', detail, { errors });

export const badQuery = (parameter: string, detail: string) =>
  problem('bad-request', `Query parameter ${parameter} ${detail}.`, {
    errors: [{ parameter, detail }],
  });

/**
 * A 401 with its RFC 6750 challenge. A request that brought no bearer token gets the bare
 * challenge (§3.1: no error code then); one whose token is unknown, expired or revoked gets
 * `error="invalid_token"`, which tells a client to get a new token rather than retry.
 */
export const unauthorized = (detail: string, error?: 'invalid_token') =>
  problem('unauthorized', detail, {
    headers: {
      'WWW-Authenticate': error
        ? `Bearer realm="extractor", error="${error}", error_description="${challengeText(detail)}"`
        : 'Bearer realm="extractor"',
    },
  });

/** Text as an RFC 6750 `error_description` may hold it: printable ASCII without `"` and `\`. */
function challengeText(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, "'");
}

export const forbidden = (detail: string, errors?: FieldError[]) =>
  problem('forbidden', detail, { errors });

export const notFound = (detail = 'There is nothing at this address.') =>
  problem('not-found', detail);

/** A 405; HEAD is listed after GET, since every GET route answers HEAD too (RFC 9110 §9.3.2). */
export const methodNotAllowed = (methods: readonly string[]) => {
  const allowed = methods.flatMap((method) =>
    method === 'GET' && !methods.includes('HEAD') ? ['GET', 'HEAD'] : [method],
  );
  return problem('method-not-allowed', `This address answers ${allowed.join(', ')}.`, {
    headers: { Allow: allowed.join(', ') },
  });
};

export const notAcceptable = (offered: readonly string[]) =>
  problem(
    'not-acceptable',
    `None of the requested media types can be produced. Available: ${offered.join(', ')}.`,
    {
      extensions: { allowed: [...offered] },
    },
  );

/** The body came too slowly; the rest of it is not read, so the connection is closed. */
export const requestTimeout = (detail: string) =>
  problem('request-timeout', detail, { headers: { Connection: 'close' } });

export const conflict = (detail: string, extensions?: Record<string, unknown>) =>
  problem('conflict', detail, { extensions });

export const payloadTooLarge = (detail: string) => problem('payload-too-large', detail);

export const unsupportedMediaType = (detail: string, accepted: readonly string[]) =>
  problem('unsupported-media-type', detail, {
    headers: { 'Accept-Post': accepted.join(', ') },
    extensions: { allowed: [...accepted] },
  });

export const validationError = (errors: FieldError[], detail?: string) =>
  problem(
    'validation-error',
    detail ??
      (errors.length === 1
        ? describeFieldError(errors[0]!)
        : `${errors.length} values are invalid: ${errors.map(describeFieldError).join('; ')}`),
    { errors },
  );

/** More under way than the caller may have at once (RFC 6585); Retry-After says when to ask again. */
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  problem('too-many-requests', detail, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/** A file that cannot be read or drawn: damaged, or past one of the document limits. */
export const unreadableDocument = (detail: string) => problem('unreadable-document', detail);

/** GET /readyz when a part the process needs cannot be reached; `checks` says which. */
export const notReady = (detail: string, checks: Record<string, string>) =>
  problem('not-ready', detail, {
    headers: { 'Cache-Control': 'no-store', 'Retry-After': '5' },
    extensions: { checks },
  });

/**
 * A write found no room (a full disk, a used-up quota, a read-only mount): the request
 * is not done and nothing of it is kept; it can be sent again once there is room.
 */
export const insufficientStorage = (
  detail = 'The service has no room left to store this: its disk is full. Nothing was kept; try again later.',
) => problem('insufficient-storage', detail);

export const internalError = () =>
  problem('internal-error', 'Something went wrong on our side. The request was not completed.');

/** The problem a domain error stands for; `undefined` for anything that is not one. */
export function problemOf(error: unknown): ProblemError | undefined {
  if (error instanceof ProblemError) return error;
  if (error instanceof NotFoundError) return notFound(error.message || undefined);
  if (error instanceof ConflictError)
    return conflict(
      error.message,
      error.currentStatus === undefined ? undefined : { currentStatus: error.currentStatus },
    );
  if (error instanceof InvalidInputError) return validationError(error.errors);
  if (error instanceof ForbiddenInputError) return forbidden(error.message, error.errors);
  if (error instanceof NotAllowedError) return forbidden(error.message);
  if (error instanceof UnreadableInputError) return badRequest(error.message);
  if (error instanceof InputTooLargeError) {
    const problem = payloadTooLarge(error.message);
    // The rest of the body is not read into anything: the connection is closed, after the
    // client has sent it (http/lingering-close.ts).
    if (error.abandoned) problem.headers.Connection = 'close';
    return problem;
  }
  if (error instanceof InputTooSlowError) return requestTimeout(error.message);
  if (error instanceof TooManyRequestsError)
    return tooManyRequests(error.message, error.retryAfterSeconds);
  if (error instanceof UnsupportedInputError)
    return unsupportedMediaType(error.message, error.accepted);
  if (error instanceof InsufficientStorageError) {
    const problem = insufficientStorage(error.message);
    if (error.abandoned) problem.headers.Connection = 'close';
    return problem;
  }
  // Not a domain error: the store or the disk said so, wherever the write was made.
  if (isInsufficientStorage(error)) return insufficientStorage();
  return undefined;
}

export function problemResponse(error: ProblemError, instance?: string): Response {
  const headers = new Headers(error.headers);
  headers.set('Content-Type', problemMediaType);
  return new Response(JSON.stringify(error.toJSON(instance)), { status: error.status, headers });
}
