/**
 * `/api/graphql`, served by GraphQL Yoga inside the Hono app, so the bearer middleware on
 * `/api/*` has already decided who is asking: no token is a 401 problem document, as on
 * every REST route. Mistakes in a query are GraphQL errors (`errors` in the answer),
 * never a 500.
 */
import type { Hono } from 'hono';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { readBodyText } from '../http/body.js';
import type { AppEnv, Services } from '../http/context.js';
import { essence, negotiateOrThrow, parseAccept } from '../http/negotiation.js';
import { methodNotAllowed, unsupportedMediaType } from '../http/problem.js';
import type { GraphqlContext } from './schema.js';

export const graphqlPath = '/api/graphql';

/** What GraphQL over HTTP answers with: the newer type first, plain JSON for older clients. */
const graphqlMediaTypes = ['application/graphql-response+json', 'application/json'] as const;

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
  const [{ createYoga }, { graphqlSchema }] = await Promise.all([
    import('graphql-yoga'),
    import('./schema.js'),
  ]);
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
  });
}

export function registerGraphqlRoutes(app: Hono<AppEnv>): void {
  app.all(graphqlPath, async (c) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'POST') throw methodNotAllowed(['GET', 'POST']);
    // Yoga answers these two with an empty body; the API's errors are problem documents.
    const accept = negotiateOrThrow(c.req.header('accept'), graphqlMediaTypes);
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
    if (parseAccept(c.req.header('accept') ?? '').length === 0) headers.delete('Accept');
    else headers.set('Accept', accept);
    // The same bound as every other document body: a query is never megabytes long.
    const body = method === 'POST' ? await readBodyText(c.req.raw) : undefined;
    const request = new Request(c.req.url, { method, headers, body });
    return (await yogaFor(c.get('services'))).fetch(request, context);
  });
}
