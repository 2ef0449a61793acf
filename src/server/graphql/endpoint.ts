/**
 * `/api/graphql`, served by GraphQL Yoga inside the Hono app, so the bearer middleware on
 * `/api/*` has already decided who is asking: no token is a 401 problem document, as on
 * every REST route. Mistakes in a query are GraphQL errors (`errors` in the answer),
 * never a 500.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { readBodyText } from '../http/body.js';
import type { AppEnv, Services } from '../http/context.js';
import { essence, namesMediaRange, namesMediaType, negotiateOrThrow } from '../http/negotiation.js';
import { operationsOf, type Answer, type TagObject } from '../http/openapi.js';
import { graphqlQueryExample } from '../http/openapi/examples.js';
import { schemaRef, type ResponseObject } from '../http/openapi/objects.js';
import { methodNotAllowed, unsupportedMediaType } from '../http/problem.js';
import type { GraphqlContext } from './schema.js';
import { graphqlTypeDefs } from './type-defs.js';

export const graphqlPath = '/api/graphql';

/**
 * What GraphQL over HTTP answers with: the newer type to a client that names it, plain JSON
 * to one that does not. A wildcard (`*\/*`, `application/*`) is how older clients and plain
 * HTTP tools ask, and for them the spec (and graphql-http's audit) wants application/json,
 * whose errors come with a 200 those clients expect.
 */
function graphqlMediaTypes(c: Context<AppEnv>) {
  const newer = 'application/graphql-response+json';
  return namesMediaType(c, newer)
    ? ([newer, 'application/json'] as const)
    : (['application/json', newer] as const);
}

type Yoga = YogaServerInstance<GraphqlContext, object>;

/** Yoga's logger, written through the service's pino logger (masked errors land here). */
function yogaLogger(logger: Logger) {
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const err = args.find((arg) => arg instanceof Error);
      logger[level]({ err, args: err ? undefined : args }, 'graphql');
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/**
 * What one GraphQL document may ask for. Every limit is checked before anything runs (the
 * tokens while the document is parsed, the rest while it is validated), so a hostile
 * document costs milliseconds: 12,000 aliases took 14 s of everyone's time without them.
 * The schema has no cycles, so no honest query comes near: selecting every field of every
 * query costs well under the budget.
 */
export const graphqlLimits = {
  /** Names, punctuation and values together. */
  tokens: 1000,
  /** Fields within fields (a fragment adds no level); introspection is exempt. */
  depth: 6,
  aliases: 15,
  directives: 50,
  /** Graphql-armor's cost: 2 for an object, 1 for a scalar, times 1.5 for each level. */
  cost: 5000,
} as const;

const yogas = new WeakMap<Services, Promise<Yoga>>();

/**
 * Yoga, graphql and the schema are loaded at the first GraphQL request: they are some
 * 30 MB of memory that a service which is never asked a GraphQL query does without.
 */
function yogaFor(services: Services): Promise<Yoga> {
  let yoga = yogas.get(services);
  if (!yoga) {
    yoga = createYogaFor(services);
    yogas.set(services, yoga);
  }
  return yoga;
}

async function createYogaFor(services: Services): Promise<Yoga> {
  const [
    { createYoga, createGraphQLError },
    { graphqlSchema },
    { maxTokensPlugin },
    { maxDepthPlugin },
    { maxAliasesPlugin },
    { maxDirectivesPlugin },
    { costLimitPlugin },
  ] = await Promise.all([
    import('graphql-yoga'),
    import('./schema.js'),
    import('@escape.tech/graphql-armor-max-tokens'),
    import('@escape.tech/graphql-armor-max-depth'),
    import('@escape.tech/graphql-armor-max-aliases'),
    import('@escape.tech/graphql-armor-max-directives'),
    import('@escape.tech/graphql-armor-cost-limit'),
  ]);
  // A limit stops the parse or the validation at once, with an error answered as Yoga
  // answers a document that breaks the schema (400; 200 to a client that accepts only
  // application/json). Thrown as it is, Yoga would answer 200 whatever the client accepts,
  // and call every limit a syntax error.
  const refusal = {
    onReject: [
      (_context: unknown, error: Error) => {
        throw createGraphQLError(error.message.replace(/^Syntax Error: /, ''), {
          extensions: { code: 'LIMIT_EXCEEDED', http: { spec: true, status: 400 } },
        });
      },
    ],
  };
  return createYoga<GraphqlContext, object>({
    schema: graphqlSchema,
    graphqlEndpoint: graphqlPath,
    // GraphiQL loads its code from a CDN and cannot send the bearer token a browser lacks.
    graphiql: false,
    landingPage: false,
    // Cross-origin access is the app's decision, not Yoga's.
    cors: false,
    multipart: false,
    logging: yogaLogger(services.logger),
    maskedErrors: true,
    plugins: [
      maxTokensPlugin({ n: graphqlLimits.tokens, ...refusal }),
      maxDepthPlugin({ n: graphqlLimits.depth, flattenFragments: true, ...refusal }),
      maxAliasesPlugin({ n: graphqlLimits.aliases, ...refusal }),
      maxDirectivesPlugin({ n: graphqlLimits.directives, ...refusal }),
      costLimitPlugin({ maxCost: graphqlLimits.cost, flattenFragments: true, ...refusal }),
    ],
  });
}

export const graphqlTag: TagObject = {
  name: 'GraphQL',
  description:
    'A read-only GraphQL view of the same data, with the same tokens and scopes. Its schema:' +
    `\n\n\`\`\`graphql\n${graphqlTypeDefs}\n\`\`\``,
};

const operation = operationsOf(graphqlTag);

const graphqlAnswer: Answer = {
  status: 200,
  description:
    'The data; errors inside resolvers (a bad page, say) come in `errors` beside it. ' +
    'application/graphql-response+json when Accept names it, else application/json.',
  content: {
    'application/graphql-response+json': { schema: schemaRef('GraphqlResponse') },
    'application/json': { schema: schemaRef('GraphqlResponse') },
  },
};

const graphqlErrors: Record<string, ResponseObject> = {
  '400': {
    description:
      'The query cannot be parsed, does not fit the schema, or passes a limit (' +
      `${graphqlLimits.tokens} tokens, depth ${graphqlLimits.depth}, ${graphqlLimits.aliases} ` +
      `aliases, ${graphqlLimits.directives} directives, cost ${graphqlLimits.cost}; code ` +
      'LIMIT_EXCEEDED): `errors` says which. Answered to a client whose Accept names ' +
      'application/graphql-response+json; the others (`*/*`, `application/json`, no Accept) ' +
      'get application/json and these errors with a 200, as GraphQL over HTTP says for that type.',
    content: { 'application/graphql-response+json': { schema: schemaRef('GraphqlResponse') } },
  },
};

/**
 * The query of a GET, as GraphQL over HTTP defines it. Yoga reads it and answers what is
 * wrong in GraphQL's own terms, so this schema describes it and validates nothing.
 */
const graphqlGetQuery = z.object({
  query: z.string().check(z.describe('The GraphQL document.')),
  variables: z.optional(z.string()).check(z.describe('JSON object of the variables.')),
  operationName: z.optional(z.string()).check(z.describe('The operation to run.')),
});

async function answerGraphql(c: Context<AppEnv>): Promise<Response> {
  const method = c.req.method;
  // HEAD comes here as GET does; GraphQL over HTTP answers GET and POST alone.
  if (method !== 'GET' && method !== 'POST') throw methodNotAllowed(['GET', 'POST']);
  // Yoga answers these two with an empty body; the API's errors are problem documents.
  const accept = negotiateOrThrow(c, graphqlMediaTypes(c));
  if (method === 'POST' && essence(c.req.header('content-type')) !== 'application/json') {
    throw unsupportedMediaType('Send the GraphQL request as application/json.', [
      'application/json',
    ]);
  }
  const context: GraphqlContext = { principal: c.get('principal'), services: c.get('services') };
  // Yoga negotiates again on the raw header and answers an empty 406 where ours found a
  // type (`Accept: x`, `application/json; charset=latin1`): it gets the type chosen here,
  // or no Accept when the client named no media range, so that Yoga answers plain JSON.
  const headers = new Headers(c.req.raw.headers);
  if (!namesMediaRange(c)) headers.delete('Accept');
  else headers.set('Accept', accept);
  // The same bound as every other document body: a query is never megabytes long.
  const body = method === 'POST' ? await readBodyText(c.req.raw) : undefined;
  const request = new Request(c.req.url, { method, headers, body });
  return (await yogaFor(c.get('services'))).fetch(request, context);
}

/** `/api/graphql`, to be mounted there. */
export const graphqlRoutes = new Hono<AppEnv>()
  .get(
    '/',
    operation('graphqlGet', 'Run a GraphQL query (GET)', {
      query: graphqlGetQuery,
      answer: graphqlAnswer,
      problems: [406],
      otherResponses: graphqlErrors,
    }),
    answerGraphql,
  )
  .post(
    '/',
    operation('graphqlPost', 'Run a GraphQL query (POST)', {
      body: {
        description: 'The GraphQL request.',
        content: {
          'application/json': {
            schema: schemaRef('GraphqlRequest'),
            example: { query: graphqlQueryExample },
          },
        },
      },
      answer: graphqlAnswer,
      problems: [406, 408, 413, 415],
      otherResponses: graphqlErrors,
    }),
    answerGraphql,
  );
