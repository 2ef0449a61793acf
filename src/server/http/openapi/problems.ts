/**
 * The problem documents of the OpenAPI document: one response in components.responses
 * for each problem type of http/problem.ts, saying when the service answers with it.
 */
import { bodyPace } from '../../body-pace.js';
import { pageRequestsPerToken } from '../../files/pages.js';
import { maxBodyBytes } from '../body.js';
import { jsonApiMediaType } from '../json-api.js';
import { problemMediaType, problemTypes } from '../problem.js';
import { eventStreamsPerToken } from '../stream-slots.js';
import { schemaRef, type HeaderObject, type ResponseObject } from './objects.js';

const problemExplanations: Record<keyof typeof problemTypes, { when: string; example: string }> = {
  'bad-request': {
    when:
      'The request cannot be read: no body where one is needed, a body that is not valid JSON, ' +
      'CSV or HTML, a query value that is not a whole number where one is needed, an unknown ' +
      'filter value, a JSON:API query parameter family (`include`, `sort`, `fields`, ' +
      '`page[…]`, `filter[…]`), none of which the service supports. `errors` names each ' +
      'parameter or pointer.',
    example: 'Query parameter page must be a whole number of 1 or more, not "abc".',
  },
  unauthorized: {
    when:
      'The Authorization header is missing, malformed, or carries a token that is unknown, ' +
      'expired or revoked. The answer carries `WWW-Authenticate: Bearer`, with ' +
      '`error="invalid_token"` for a token that is no longer valid (RFC 6750).',
    example: 'This request needs an access token: send "Authorization: Bearer <token>".',
  },
  forbidden: {
    when:
      'The token may not do this: an embed session token starting a run with settings of its ' +
      "own, where the extractor's apply (`errors` names each field), downloading the " +
      'results of an extractor whose allowDownload is off, or a JSON:API body that gives the ' +
      'id of a resource to create (the service makes ids).',
    example:
      "An embed session runs with the extractor's settings; it may not set strategy, chunkSize.",
  },
  'not-found': {
    when:
      'Nothing is at this address, the resource was deleted, or it lies outside what the token ' +
      'may see (an embed session token gets 404, never 403, so ids cannot be probed).',
    example: 'There is nothing at this address.',
  },
  'method-not-allowed': {
    when:
      'The address exists but does not answer this method. The `Allow` header lists those it ' +
      'answers.',
    example: 'This address answers GET, POST.',
  },
  'not-acceptable': {
    when:
      'The Accept header names none of the media types the operation can produce, or names ' +
      'the JSON:API media type only with parameters other than `profile` (JSON:API 1.1). ' +
      '`allowed` lists them.',
    example:
      'None of the requested media types can be produced. Available: application/json, text/csv.',
  },
  'request-timeout': {
    when:
      `A body arrived too slowly: after ${bodyPace.graceMs / 1000} s it has to bring ` +
      `${bodyPace.minBytesPerSecond / 1024} KiB a second on average. Nothing of it is kept, ` +
      'and the connection is closed.',
    example:
      'The request body arrived too slowly: 12 bytes in 11 s. After the first 10 s a body ' +
      'has to bring 8 KiB a second on average.',
  },
  conflict: {
    when:
      'The resource is in a state that does not allow the request: a run command its status does ' +
      'not allow (`currentStatus` names the status), results asked for before there are any, ' +
      'results submitted twice, a file removed while a run works over its bucket, a JSON:API ' +
      "body whose `data.type` names another resource or whose `data.id` is not the resource's.",
    example: 'The run is completed; it cannot be paused.',
  },
  'payload-too-large': {
    when:
      'An upload is larger than MAX_UPLOAD_BYTES (nothing of it is kept), or another body is ' +
      `larger than its media type allows: ${mediaTypeLimits()}.`,
    example: 'The request body is larger than 1048576 bytes.',
  },
  'unsupported-media-type': {
    when:
      "The body's Content-Type is not one the operation reads (a JSON:API one with a parameter " +
      'other than `profile` included), or an uploaded file is not of an accepted type (judged ' +
      'from its bytes, not its name). `allowed` lists the accepted types.',
    example: 'Bodies of type application/xml are not accepted.',
  },
  'validation-error': {
    when:
      'The body can be read but its values are invalid. `errors` holds one entry per violation ' +
      'with a JSON pointer into the body and a message; an unknown strategy or model also lists ' +
      'the allowed values. A field the body does not know is one (with the field meant, for a ' +
      'misspelling), as is a reference to a resource on another host.',
    example: '/chunkSize: Too small: expected number to be >=200',
  },
  'unreadable-document': {
    when:
      'A file cannot be shown (GET …/files/{fileId}/pages/{n}): it is damaged, protected by a ' +
      'password, or passes one of the limits of one document (pages, pixels, memory, time). The ' +
      'detail names the file and the limit, as a run that reads it would fail.',
    example: 'scan.pdf has 5,000 pages; the limit is 1,000 pages',
  },
  'too-many-requests': {
    when:
      'The token has as much under way as it may, in one process: page requests (GET …/files/' +
      `{fileId}/pages/{n} and …/words) past ${pageRequestsPerToken} at once, or event streams ` +
      `past ${eventStreamsPerToken.session} for an embed session token and ` +
      `${eventStreamsPerToken.personal} for a personal access token. The answer carries ` +
      '`Retry-After`; nothing was done for the request, and a request or stream that ends frees ' +
      'its place.',
    example:
      `This token has ${pageRequestsPerToken} page requests under way, the most it may; ask ` +
      'again once one of them is answered.',
  },
  'internal-error': {
    when:
      'Something failed on the server. The request was not completed; nothing about the failure ' +
      'is revealed.',
    example: 'Something went wrong on our side. The request was not completed.',
  },
  'not-ready': {
    when:
      'Only from `GET /readyz`, outside the API: the process cannot reach the database or the ' +
      'file store now, or cannot write to its data directory (`disk`: full, over quota or ' +
      'read-only, which `detail` says). `checks` says which part is `ok` and which is ' +
      '`failing`; the answer carries `Retry-After`.',
    example: 'This process cannot serve requests now: the database cannot be reached.',
  },
  'insufficient-storage': {
    when:
      'A write found no room: the disk of the service is full (or its quota used up, or it ' +
      'was mounted read-only). The request was not done and nothing of it was kept, an ' +
      'upload included; send it again once there is room. `GET /readyz` says not ready ' +
      'meanwhile.',
    example:
      'The service has no room left to store this: its disk is full. Nothing was kept; try ' +
      'again later.',
  },
};

const retryAfterHeader: HeaderObject = {
  description: 'Seconds until it is worth asking again.',
  schema: { type: 'string' },
};

const problemHeaders: Partial<Record<keyof typeof problemTypes, Record<string, HeaderObject>>> = {
  unauthorized: {
    'WWW-Authenticate': {
      description:
        '`Bearer realm="extractor"`; for an unknown, expired or revoked token also ' +
        '`error="invalid_token"` and an `error_description`.',
      schema: { type: 'string' },
    },
  },
  'method-not-allowed': {
    Allow: {
      description: 'The methods the address answers (HEAD wherever GET).',
      schema: { type: 'string' },
    },
  },
  'unsupported-media-type': {
    'Accept-Post': { description: 'The media types a body may have.', schema: { type: 'string' } },
  },
  'too-many-requests': { 'Retry-After': retryAfterHeader },
  'not-ready': { 'Retry-After': retryAfterHeader },
};

export type ProblemSlug = keyof typeof problemTypes;
export type ProblemStatus = 400 | 403 | 404 | 406 | 408 | 409 | 413 | 415 | 422 | 429 | 507;

export function slugOfStatus(status: number): ProblemSlug {
  const slug = (Object.keys(problemTypes) as ProblemSlug[]).find(
    (candidate) => problemTypes[candidate].status === status,
  );
  if (!slug) throw new Error(`No problem type has status ${status}.`);
  return slug;
}

export function problemResponses(): Record<string, ResponseObject> {
  return Object.fromEntries(
    (Object.keys(problemTypes) as ProblemSlug[]).map((slug) => {
      const { status, title } = problemTypes[slug];
      const response: ResponseObject = {
        description: `${title}. ${problemExplanations[slug].when}`,
        content: {
          [problemMediaType]: {
            schema: schemaRef('Problem'),
            example: {
              type: `/api/docs#problem-${slug}`,
              title,
              status,
              detail: problemExplanations[slug].example,
            },
          },
          // To a JSON:API client: one whose Accept prefers it, or that sent JSON:API.
          [jsonApiMediaType]: { schema: schemaRef('JsonApiErrors') },
        },
      };
      if (problemHeaders[slug]) response.headers = problemHeaders[slug];
      return [slug, response];
    }),
  );
}

export function problemListText(): string {
  return (Object.keys(problemTypes) as ProblemSlug[])
    .map(
      (slug) =>
        `- [\`${slug}\`](/api/docs#problem-${slug}): ` +
        `${problemTypes[slug].status} ${problemTypes[slug].title}`,
    )
    .join('\n');
}

/** The largest body of each media type, in words. */
export function mediaTypeLimits(): string {
  return Object.entries(maxBodyBytes)
    .map(([type, bytes]) => `${bytes / 1024} KiB of ${type}`)
    .join(', ');
}
