/**
 * What a route says about itself: its operation in the OpenAPI document, carried as the
 * route's first handler (`operation(…)` in http/routes/ and graphql/endpoint.ts). Which
 * operations exist, their parameters and the problems they answer with are declared by
 * the routes; the document (openapi/document.ts), the 405s with `Allow`, the paths that
 * need no token and the tests' route list are all read back from the app's routes.
 */
import type { MiddlewareHandler } from 'hono';
import { describeRoute, uniqueSymbol, type DescribeRouteOptions } from 'hono-openapi';
import * as z from 'zod/mini';
import { ignoredFieldsHeader, maxJsonDepth } from './body.js';
import {
  collectionContent,
  collectionHeaders,
  inputContent,
  resourceContent,
} from './openapi/components.js';
import { resourceDocs, type InputResourceKey, type ResourceKey } from './openapi/resources.js';
import {
  responseRef,
  type HeaderObject,
  type JsonSchema,
  type MediaTypeObject,
  type OperationObject,
  type ParameterObject,
  type Reference,
  type RequestBodyObject,
  type ResponseObject,
} from './openapi/objects.js';
import {
  mediaTypeLimits,
  slugOfStatus,
  type ProblemSlug,
  type ProblemStatus,
} from './openapi/problems.js';
import { problemTypes } from './problem.js';

/** Values as Markdown code, for descriptions: `a`, `b`. */
export const codeList = (values: readonly string[], separator = ', ') =>
  values.map((value) => `\`${value}\``).join(separator);

// ---------------------------------------------------------------------------------------
// Operations

/**
 * The query or the headers of an operation, as the zod object schema that reads them
 * (`validateQuery` of body.ts): each field a parameter, its `z.describe` the parameter's
 * description, its input type the parameter's schema.
 */
export type ParameterSchema = z.ZodMiniObject;

/** The parameters of the document, read from the schema a route reads them with. */
function parametersOf(schema: ParameterSchema, location: 'query' | 'header'): ParameterObject[] {
  const { properties = {}, required = [] } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(properties).map(([name, property]) => {
    // What the schema says of the parameter rather than of its value belongs on the
    // parameter (respond.ts, `pageNumber`).
    const { description, allowEmptyValue, ...valueSchema } = property;
    if (typeof description !== 'string')
      throw new Error(`Describe the ${location} parameter ${name} (z.describe).`);
    return {
      name,
      in: location,
      description,
      required: required.includes(name),
      schema: valueSchema,
      ...(allowEmptyValue === true ? { allowEmptyValue } : {}),
    };
  });
}

/**
 * The same parameters, accepted where the specification lists them but of no effect: for
 * the document only, since nothing reads them.
 */
export function ignoredParameters(schema: ParameterSchema, where = 'here'): ParameterSchema {
  const description = `Accepted as the specification lists it; it has no effect ${where}.`;
  return z.object(
    Object.fromEntries(
      Object.entries(schema.shape).map(([name, field]) => [
        name,
        (field as z.ZodMiniType).check(z.describe(description)),
      ]),
    ),
  );
}

export interface TagObject {
  name: string;
  description: string;
}

export type Body =
  | { input: InputResourceKey; description?: string }
  | { description: string; content: Record<string, MediaTypeObject> };

export type Answer =
  | { status: 200 | 201 | 202; resource: ResourceKey; description?: string }
  | { status: 200 | 201; collection: ResourceKey; description?: string }
  | { status: 204; description: string }
  | {
      status: 200;
      description: string;
      content: Record<string, MediaTypeObject>;
      headers?: Record<string, HeaderObject>;
    };

/** What a route says about itself; its method and path are the route's own. */
export interface OperationSpec {
  /** The operationId; on a second name of a resource, suffixed with the collection's name. */
  id: string;
  tag: string;
  summary: string;
  description?: string;
  /** The query, as the schema the route validates it with. */
  query?: ParameterSchema;
  /** The request headers the route reads, as a schema of their values. */
  headers?: ParameterSchema;
  body?: Body;
  answer: Answer;
  /**
   * Problem statuses besides 401, which every operation that needs a token can answer; a
   * problem type's slug where its status has more than one (422).
   */
  problems: readonly (ProblemStatus | ProblemSlug)[];
  /** `public`: no token; `bearer-or-query`: also `?access_token=` (EventSource sends no headers). */
  access?: 'public' | 'bearer-or-query';
  /** Answers that are not problem documents (GraphQL reports its own errors). */
  otherResponses?: Record<string, ResponseObject>;
}

// The answers and problems of the usual operations of a resource, declared alike.

export const listOf = (resource: ResourceKey) =>
  ({ answer: { status: 200, collection: resource }, problems: [400, 404, 406] }) as const;

export const readingOf = (resource: ResourceKey) =>
  ({ answer: { status: 200, resource }, problems: [404, 406] }) as const;

export const creationOf = (resource: InputResourceKey) =>
  ({
    body: { input: resource },
    answer: { status: 201, resource },
    // 403 and 409: a JSON:API body with an id of its own, or of another type.
    problems: [400, 403, 404, 406, 408, 409, 413, 415, 422],
  }) as const;

/** The header of an answer that names the fields of the body the service ignored. */
export const ignoredFieldsHeaderObject: HeaderObject = {
  description:
    "The fields of the body that are the service's to set (read-only, such as `id` or " +
    '`createdAt`) and were ignored: an RFC 9651 list of strings, each a JSON pointer into the ' +
    'body (`"/createdAt", "/id"`). Absent when nothing was ignored.',
  schema: { type: 'string' },
};

/** A download's file name header (RFC 6266), as results and file contents send it. */
export const contentDispositionHeader: HeaderObject = {
  description: 'attachment, with the file name (RFC 6266).',
  schema: { type: 'string' },
};

function answerResponse(answer: Answer): ResponseObject {
  if ('resource' in answer) {
    const { noun } = resourceDocs[answer.resource];
    const response: ResponseObject = {
      description:
        answer.description ?? (answer.status === 201 ? `The ${noun}, created.` : `The ${noun}.`),
      content: resourceContent(answer.resource),
    };
    if (answer.status === 201) {
      response.headers = {
        Location: { description: `The IRI of the new ${noun}.`, schema: { type: 'string' } },
      };
    }
    return response;
  }
  if ('collection' in answer) {
    return {
      description: answer.description ?? `A page of ${resourceDocs[answer.collection].plural}.`,
      headers: collectionHeaders,
      content: collectionContent(answer.collection),
    };
  }
  if ('content' in answer) {
    return {
      description: answer.description,
      content: answer.content,
      ...(answer.headers ? { headers: answer.headers } : {}),
    };
  }
  return { description: answer.description };
}

function requestBody(body: Body): RequestBodyObject {
  if ('input' in body) {
    return {
      description:
        body.description ??
        "The writable fields. The resource's other fields may be sent back as they were read: " +
          'they are ignored, and the answer names them in Extractor-Ignored-Fields. Any other ' +
          `field answers 422. At most ${mediaTypeLimits()}; JSON nested at most ` +
          `${maxJsonDepth} levels deep.`,
      required: true,
      content: inputContent(body.input),
    };
  }
  return { description: body.description, required: true, content: body.content };
}

/** The operation object of a spec, without what depends on where it is served (see below). */
function operationObject(spec: OperationSpec): OperationObject {
  const operation: OperationObject = {
    operationId: spec.id,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    parameters: [
      ...(spec.query ? parametersOf(spec.query, 'query') : []),
      ...(spec.headers ? parametersOf(spec.headers, 'header') : []),
    ],
    responses: {},
  };
  if (spec.body) operation.requestBody = requestBody(spec.body);
  if (spec.access === 'public') operation.security = [];
  if (spec.access === 'bearer-or-query')
    operation.security = [{ bearerAuth: [] }, { accessTokenQuery: [] }];

  const answer = answerResponse(spec.answer);
  if (spec.body && 'input' in spec.body)
    answer.headers = { ...answer.headers, [ignoredFieldsHeader]: ignoredFieldsHeaderObject };
  const responses: Record<string, ResponseObject | Reference> = {
    [String(spec.answer.status)]: answer,
  };
  const problems = [...spec.problems, ...(spec.access === 'public' ? [] : [401])];
  for (const problem of problems) {
    const slug = typeof problem === 'number' ? slugOfStatus(problem) : problem;
    responses[String(problemTypes[slug].status)] = responseRef(slug);
  }
  Object.assign(responses, spec.otherResponses);
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
  );
  return operation;
}

/**
 * The route's own description, carried as its first handler (hono-openapi's
 * `describeRoute`): the document (openapi/document.ts), the 405s, the token exemptions and the tests'
 * route list are all read from the routes that carry one.
 */
export function documented(spec: OperationSpec): MiddlewareHandler {
  return describeRoute(operationObject(spec) as DescribeRouteOptions);
}

/**
 * `documented` for the operations of one tag: `operation(id, summary, spec)` reads as the
 * route's first line says what it does.
 */
export function operationsOf(
  tag: TagObject,
): (
  id: string,
  summary: string,
  spec: Omit<OperationSpec, 'id' | 'tag' | 'summary'>,
) => MiddlewareHandler {
  return (id, summary, spec) => documented({ id, tag: tag.name, summary, ...spec });
}

/** A route's operation object, if it carries one. */
export function operationOfHandler(handler: unknown): OperationObject | undefined {
  const marked = (handler as { [uniqueSymbol]?: { spec?: OperationObject } } | undefined)?.[
    uniqueSymbol
  ];
  return marked?.spec;
}

/** Who may call an operation: anyone, the bearer of a token, or also `?access_token=`. */
export function accessOf(operation: OperationObject): 'public' | 'bearer' | 'bearer-or-query' {
  if (!operation.security) return 'bearer';
  if (operation.security.length === 0) return 'public';
  return operation.security.some((scheme) => 'accessTokenQuery' in scheme)
    ? 'bearer-or-query'
    : 'bearer';
}
