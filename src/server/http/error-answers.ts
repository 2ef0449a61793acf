/**
 * How a problem is answered to the client that asked: an RFC 9457 problem document, or,
 * to a JSON:API client, the JSON:API error document that says the same (JSON:API 1.1 §11:
 * `{"errors": [{status, code, title, detail, source}]}`). Either way a field error points
 * into the body as it was sent: a JSON:API body's fields are at `/data/attributes/…`.
 */
import type { Accept } from 'hono/utils/accept';
import { parseAccept } from 'hono/utils/accept';
import { jsonApiMediaType } from './json-api.js';
import { qualityOf } from './negotiation.js';
import { problemMediaType, type FieldError, type ProblemError } from './problem.js';

/** Where the fields of a request's body are, when they are not at `/<field>`. */
const bodyFieldLocators = new WeakMap<Request, (pointer: string) => string>();

/**
 * Tells the answers to `request` where its body's fields are: `locate` turns a pointer into
 * the fields (`/label`) into one into the body (`/data/attributes/label`).
 */
export function locateBodyFields(request: Request, locate: (pointer: string) => string): void {
  bodyFieldLocators.set(request, locate);
}

/** The highest quality `entries` give exactly `type` (not a range); -1 when none names it. */
function qualityOfType(entries: readonly Accept[], type: string): number {
  return Math.max(
    -1,
    ...entries.filter((entry) => entry.type.toLowerCase() === type).map(qualityOf),
  );
}

/**
 * Whether `request` comes from a JSON:API client: one whose Accept prefers the JSON:API
 * media type to the problem document's, or, when its Accept names no media type but ranges
 * (or is absent), one that sent a JSON:API body.
 */
export function wantsJsonApiErrors(request: Request): boolean {
  const entries = parseAccept(request.headers.get('accept') ?? '');
  const jsonApi = qualityOfType(entries, jsonApiMediaType);
  const problem = qualityOfType(entries, problemMediaType);
  if (jsonApi > 0 || problem > 0) return jsonApi > problem;
  // A client that names a media type of its own (application/json) reads problem documents.
  if (entries.some((entry) => !entry.type.includes('*'))) return false;
  const contentType = request.headers.get('content-type') ?? '';
  return contentType.split(';')[0]!.trim().toLowerCase() === jsonApiMediaType;
}

function located(errors: FieldError[] | undefined, request: Request): FieldError[] | undefined {
  const locate = bodyFieldLocators.get(request);
  if (!errors || !locate) return errors;
  return errors.map((error) =>
    'pointer' in error ? { ...error, pointer: locate(error.pointer) } : error,
  );
}

/**
 * The JSON:API error document of a problem: one error object for each field error, or one
 * for the whole problem. The problem's type is the error's `links.type` and its slug the
 * `code`; its other members (`currentStatus`, `allowed`) go to `meta`.
 */
function jsonApiErrorDocument(problem: Record<string, unknown>, slug: string): string {
  const { type, title, status, detail, instance, errors, ...extensions } = problem as {
    type: string;
    title: string;
    status: number;
    detail: string;
    instance?: string;
    errors?: FieldError[];
  } & Record<string, unknown>;
  const common = {
    status: String(status),
    code: slug,
    title,
    links: { type },
    meta: { ...(instance ? { instance } : {}), ...extensions },
  };
  const objects =
    errors && errors.length > 0
      ? errors.map((error) => ({
          ...common,
          detail: error.detail,
          source:
            'parameter' in error ? { parameter: error.parameter } : { pointer: error.pointer },
        }))
      : [{ ...common, detail }];
  return JSON.stringify({ jsonapi: { version: '1.1' }, errors: objects });
}

/** The answer to `request` that `error` stands for, in the form its client reads. */
export function answerProblem(error: ProblemError, request: Request, instance?: string): Response {
  const body = { ...error.toJSON(instance) };
  const errors = located(error.errors, request);
  if (errors) body.errors = errors;
  const headers = new Headers(error.headers);
  if (wantsJsonApiErrors(request)) {
    headers.set('Content-Type', jsonApiMediaType);
    return new Response(jsonApiErrorDocument(body, error.slug), { status: error.status, headers });
  }
  headers.set('Content-Type', problemMediaType);
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
