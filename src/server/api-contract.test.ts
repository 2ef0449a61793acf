/**
 * The service against the documents that describe it, as a partner's tools read them: the
 * real server in a process of its own, held to the OpenAPI document it serves by a
 * validating client (testing/openapi-contract.ts: Ajv and the OpenAPI 3.1 meta-schema),
 * and /api/graphql to the GraphQL-over-HTTP audits of graphql-http.
 *
 * Nothing here says what an answer should be: the document does. A change of behaviour that
 * the document follows passes; one it does not (an undocumented status, a field the schema
 * does not have, a media type it does not list) fails here, naming the request.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { serverAudits } from 'graphql-http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventTypes } from '../contract/events.js';
import type { BucketFile, EmbedSession, Extractor, Run } from '../contract/resources.js';
import { isFinalRunStatus } from '../contract/run-status.js';
import { OpenApiContract, essenceOf, type ContractAnswer } from './testing/openapi-contract.js';
import { sampleFiles } from './testing/sample-files.js';
import { startRealServer, type RealServer } from './testing/real-server.js';
import { testStoreLocation, type TestStoreLocation } from './testing/test-database.js';

const token = 'xpat_contract-test-token-0123456789';
const invoiceText = readFileSync(new URL('../../e2e/fixtures/invoices/Orlen.txt', import.meta.url));

/** The tests that work a run through the real worker: ample on a busy machine. */
const runTimeout = 120_000;

let location: TestStoreLocation;
let server: RealServer;
let contract: OpenApiContract;

beforeAll(async () => {
  location = await testStoreLocation();
  server = await startRealServer({
    dataDir: location.dataDir,
    env: {
      ...location.env,
      EXTRACTOR_ADMIN_TOKEN: token,
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_MS: '50',
      // The webhook receiver below listens on this machine.
      WEBHOOK_ALLOW_PRIVATE: '1',
      LOG_LEVEL: 'warn',
    },
  });
  contract = await OpenApiContract.load(server.baseUrl, token);
});

afterAll(async () => {
  await server?.stop();
  await location?.dispose();
});

/** The operation object the document has for an operationId. */
function operationNamed(operationId: string): Record<string, unknown> {
  for (const item of Object.values(contract.document.paths as Record<string, object>))
    for (const operation of Object.values(item) as Record<string, unknown>[])
      if (operation.operationId === operationId) return operation;
  throw new Error(`The document has no operation ${operationId}`);
}

/** The media types the document lists for an operation's answer of this status. */
function answerMediaTypes(operationId: string, status: string): string[] {
  const responses = operationNamed(operationId).responses as Record<string, { content?: object }>;
  return Object.keys(responses[status]?.content ?? {});
}

/** The example the document gives for an operation's request body in this media type. */
function requestExample(operationId: string, mediaType = 'application/json'): unknown {
  const body = operationNamed(operationId).requestBody as {
    content: Record<string, { example?: unknown }>;
  };
  return structuredClone(body.content[mediaType]?.example);
}

/** Answers to expect: the status is the caller's, the rest the contract's. */
function expectStatus(answer: ContractAnswer, ...statuses: number[]): void {
  expect(statuses, `${answer.operationId} answered ${answer.status}: ${answer.text}`).toContain(
    answer.status,
  );
}

/** A service for the webhooks, as a partner runs one: it keeps what it is sent. */
function webhookReceiver(): Promise<{
  url: string;
  deliveries: { headers: Record<string, string>; body: string }[];
  close(): Promise<void>;
}> {
  const deliveries: { headers: Record<string, string>; body: string }[] = [];
  const receiver: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      deliveries.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, '127.0.0.1', () => {
      const address = receiver.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}/hooks`,
        deliveries,
        close: () => new Promise((done) => receiver.close(() => done())),
      });
    }),
  );
}

/** Polls until `ready` holds, as a client without the event stream does. */
async function eventually<T>(what: string, poll: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await poll();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A run of `extractor` over a new bucket holding the invoice, worked to its end. */
async function settledRun(extractorId: string): Promise<{ run: Run; file: BucketFile }> {
  const bucket = await contract.call({
    method: 'POST',
    path: '/api/buckets',
    body: requestExample('createBucket'),
  });
  expectStatus(bucket, 201);
  const bucketId = bucket.json<{ id: string }>().id;
  const form = new FormData();
  form.append('file', new Blob([invoiceText], { type: 'text/plain' }), 'orlen.txt');
  const uploaded = await contract.call({
    method: 'POST',
    path: `/api/buckets/${bucketId}/files`,
    body: form,
  });
  expectStatus(uploaded, 201);
  const [file] = uploaded.json<BucketFile[]>();
  // A JSON:API body that names the bucket and the extractor as relationships only.
  const created = await contract.call({
    method: 'POST',
    path: '/api/extraction_runs',
    headers: { 'Content-Type': 'application/vnd.api+json', Accept: 'application/json' },
    body: {
      data: {
        type: 'ExtractionRun',
        relationships: {
          bucket: { data: { type: 'ExtractionBucket', id: `/api/buckets/${bucketId}` } },
          savedExtractor: {
            data: { type: 'SavedExtractor', id: `/api/extractors/${extractorId}` },
          },
        },
      },
    },
  });
  expectStatus(created, 201);
  const runId = created.json<Run>().id;
  const run = await eventually('the run to end', async () => {
    const polled = await contract.call({ path: `/api/extraction_runs/${runId}` });
    const current = polled.json<Run>();
    return isFinalRunStatus(current.status) ? current : undefined;
  });
  return { run, file: file! };
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1, served as its own operation says', async () => {
    expect(await contract.metaSchemaViolations()).toEqual([]);
    const served = await contract.call({
      path: '/api/docs.json',
      headers: { Accept: 'application/openapi+json' },
      token: null,
    });
    expectStatus(served, 200);
    expect(contract.violations).toEqual([]);
  });

  it('describes timestamps as date-time, problems as RFC 9457 has them, and bodies as sent', () => {
    const schemas = (contract.document.components as { schemas: Record<string, unknown> }).schemas;
    const timestamps: string[] = [];
    const untyped: string[] = [];
    const visit = (schema: unknown, at: string) => {
      if (typeof schema !== 'object' || schema === null) return;
      const { properties } = schema as { properties?: Record<string, unknown> };
      for (const [name, property] of Object.entries(properties ?? {})) {
        if (/At$|^timestamp$/.test(name)) {
          timestamps.push(`${at}.${name}`);
          if (!JSON.stringify(property).includes('"format":"date-time"'))
            untyped.push(`${at}.${name}`);
        }
      }
      for (const child of Object.values(schema)) visit(child, at);
    };
    for (const [name, schema] of Object.entries(schemas)) visit(schema, name);
    expect(timestamps.length).toBeGreaterThan(10);
    expect(untyped).toEqual([]);
    // And the validator holds answers to them: no member the document does not have, no
    // timestamp that is not one.
    const run = '/components/schemas/ExtractionRun';
    expect(contract.schemaErrors(run, { createdAt: 'yesterday' })).toMatch(
      /\/createdAt must match format "date-time"/,
    );
    expect(contract.schemaErrors(run, { unheardOf: 1 })).toMatch(/additional properties/);

    // RFC 9457: `status` is the HTTP status code, and a problem type may add members.
    const problem = '/components/schemas/Problem';
    const notFound = { type: '/api/docs#problem-not-found', title: 'Not found', detail: 'Gone.' };
    expect(contract.schemaErrors(problem, { ...notFound, status: 404, retryAt: 'soon' })).toBe(
      undefined,
    );
    expect(contract.schemaErrors(problem, { ...notFound, status: 404.5 })).toMatch(/integer/);
  });

  it('carries examples that are valid against the schemas beside them', () => {
    const examples = contract.examples();
    // Request bodies and problem documents at the least.
    expect(examples.some((example) => example.request)).toBe(true);
    expect(examples.some((example) => !example.request)).toBe(true);
    for (const example of examples)
      expect(contract.schemaErrors(example.schemaPointer, example.value), example.pointer).toBe(
        undefined,
      );
  });

  it(
    'describes what the service answers to each of its request examples',
    async () => {
      const extractor = await contract.call({
        method: 'POST',
        path: '/api/extractors',
        body: requestExample('createExtractor'),
      });
      expectStatus(extractor, 201);
      const extractorId = extractor.json<Extractor>().id;
      const { run, file } = await settledRun(extractorId);
      const session = await contract.call({
        method: 'POST',
        path: '/api/embed_sessions',
        body: { savedExtractor: extractorId, bucket: run.bucket },
      });
      expectStatus(session, 201);
      // A path parameter of an example's operation: the resource of its collection.
      const ids: Record<string, string> = {
        extractors: extractorId,
        saved_extractors: extractorId,
        buckets: file.bucket.split('/').pop()!,
        runs: run.id,
        extraction_runs: run.id,
        embed_sessions: session.json<EmbedSession>().id,
      };
      const sent = contract.examples().filter((example) => example.request);
      expect(sent.length).toBeGreaterThan(0);
      for (const { request, value } of sent) {
        const { method, template, mediaType } = request!;
        const collection = /^\/api\/(\w+)/.exec(template)![1]!;
        const path = template
          .replace('{id}', ids[collection]!)
          .replace('{fileId}', file.id)
          .replace('{n}', '1');
        const answer = await contract.call({
          method,
          path,
          headers: { 'Content-Type': mediaType },
          body: JSON.stringify(value),
        });
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(500);
      }
      expect(contract.violations).toEqual([]);
    },
    runTimeout,
  );
});

describe('the OpenAPI document: representations and a whole journey', () => {
  it('describes every representation, both ways, and the collections page by page', async () => {
    // A bucket made in each media type the document takes, its example where it has one.
    const content = (operationNamed('createBucket').requestBody as { content: object }).content;
    const bodies: Record<string, string> = {
      'text/csv': 'description\nFrom a CSV body',
      'text/html': '<dl><dt>description</dt><dd>From an HTML body</dd></dl>',
    };
    for (const mediaType of Object.keys(content)) {
      const example = requestExample('createBucket', mediaType);
      const body = example === undefined ? bodies[mediaType] : JSON.stringify(example);
      expect(body, `a body of ${mediaType}`).toBeDefined();
      const created = await contract.call({
        method: 'POST',
        path: '/api/buckets',
        headers: { 'Content-Type': mediaType, Accept: mediaType },
        body,
      });
      expectStatus(created, 201);
    }
    // Every collection in every media type, a page past the first, and a page that is none.
    for (const [operationId, path] of [
      ['listBuckets', '/api/buckets'],
      ['listExtractors', '/api/extractors'],
      ['listRuns', '/api/runs'],
    ] as const) {
      for (const mediaType of answerMediaTypes(operationId, '200'))
        expectStatus(await contract.call({ path, headers: { Accept: mediaType } }), 200);
      expectStatus(await contract.call({ path: `${path}?page=2` }), 200);
      const notAPage = await contract.call({ path: `${path}?page=abc`, breaksDocument: true });
      expectStatus(notAPage, 400);
    }
    // The JSON-LD contexts and the documentation, which need no token.
    const types = (operationNamed('getJsonLdContext').parameters as { schema: { enum: [] } }[])[0]!
      .schema.enum as string[];
    for (const type of types)
      expectStatus(await contract.call({ path: `/api/contexts/${type}`, token: null }), 200);
    expectStatus(await contract.call({ path: '/api/docs', token: null }), 200);
    expect(contract.violations).toEqual([]);
  });

  it(
    'describes a whole journey: extractor, webhooks, bucket, upload, run, results, session, deletion',
    async () => {
      const receiver = await webhookReceiver();
      try {
        const { extractorId, secret } = await extractorWithWebhooks(receiver.url);
        const { run, file } = await settledRun(extractorId);
        await readEverything(run, file);
        await readResults(run);
        const session = await editAndSubmit(run, file, extractorId);
        await askGraphql();
        await provokeProblems(run, extractorId);
        await deleteEverything(file, session.id, extractorId);
        await expectWebhooks(receiver.deliveries, secret);
      } finally {
        await receiver.close();
      }
      expect(contract.violations).toEqual([]);
    },
    runTimeout,
  );
});

// ---------------------------------------------------------------------------------------
// The journey's steps, in its order: each checks the statuses it needs to go on, and the
// contract checks the rest of every request and answer.

/**
 * The extractor, as the document's example makes it, read in every representation, then
 * its webhook settings: on, to the receiver, with a new secret.
 */
async function extractorWithWebhooks(
  webhookUrl: string,
): Promise<{ extractorId: string; secret: string }> {
  const created = await contract.call({
    method: 'POST',
    path: '/api/extractors',
    body: requestExample('createExtractor'),
  });
  expectStatus(created, 201);
  const extractorId = created.json<Extractor>().id;
  for (const mediaType of answerMediaTypes('getExtractor', '200')) {
    const read = await contract.call({
      path: `/api/extractors/${extractorId}`,
      headers: { Accept: mediaType },
    });
    expectStatus(read, 200);
    expect(essenceOf(read.headers.get('content-type'))).toBe(mediaType);
  }
  for (const mediaType of answerMediaTypes('listExtractors', '200'))
    expectStatus(
      await contract.call({ path: '/api/saved_extractors', headers: { Accept: mediaType } }),
      200,
    );
  const replaced = await contract.call({
    method: 'PUT',
    path: `/api/extractors/${extractorId}`,
    body: { ...(requestExample('replaceExtractor') as object), enableWebhook: true, webhookUrl },
  });
  expectStatus(replaced, 200);
  const rotated = await contract.call({
    method: 'POST',
    path: `/api/extractors/${extractorId}/webhook_secret`,
  });
  expectStatus(rotated, 200);
  return { extractorId, secret: rotated.json<Extractor>().webhookSecret! };
}

/** The bucket, its file, its pages and the run, as a client reads them. */
async function readEverything(run: Run, file: BucketFile): Promise<void> {
  const bucketPath = file.bucket;
  for (const path of [
    bucketPath,
    `${bucketPath}/files`,
    `${bucketPath}/files/${file.id}`,
    `${bucketPath}/files/${file.id}/content`,
    `${bucketPath}/files/${file.id}/pages/1`,
    `${bucketPath}/files/${file.id}/pages/1/words`,
    `/api/extraction_runs/${run.id}/events`,
    '/api/runs',
  ])
    expect((await contract.call({ path })).status, path).toBeLessThan(500);
  for (const mediaType of answerMediaTypes('getRun', '200'))
    expectStatus(
      await contract.call({ path: `/api/runs/${run.id}`, headers: { Accept: mediaType } }),
      200,
    );
  // A picture's page, asked for in each media type the document lists for pages.
  const form = new FormData();
  form.append('file', new Blob([sampleFiles.png()], { type: 'image/png' }), 'dot.png');
  const pictures = await contract.call({ method: 'POST', path: `${bucketPath}/files`, body: form });
  expectStatus(pictures, 201);
  const [picture] = pictures.json<BucketFile[]>();
  for (const mediaType of answerMediaTypes('getFilePage', '200')) {
    const page = await contract.call({
      path: `${bucketPath}/files/${picture!.id}/pages/1`,
      headers: { Accept: mediaType },
    });
    expect(page.status, `${mediaType}: ${page.text}`).toBeLessThan(500);
  }
}

/** The results, in every media type and every format the document lists. */
async function readResults(run: Run): Promise<void> {
  const resultsPath = `/api/extraction_runs/${run.id}/results`;
  for (const mediaType of answerMediaTypes('getResults', '200')) {
    const results = await contract.call({ path: resultsPath, headers: { Accept: mediaType } });
    expectStatus(results, 200);
    expect(essenceOf(results.headers.get('content-type'))).toBe(mediaType);
  }
  // XML under its other name, as RFC 7303 allows a client to ask for it.
  const textXml = await contract.call({ path: resultsPath, headers: { Accept: 'text/xml' } });
  expectStatus(textXml, 200);
  expect(textXml.text).toMatch(/^<\?xml/);
  const parameters = operationNamed('getResults').parameters as {
    name: string;
    schema: { enum?: string[] };
  }[];
  const formats = parameters.find((parameter) => parameter.name === 'format')!.schema.enum!;
  for (const format of formats)
    expectStatus(await contract.call({ path: `${resultsPath}?format=${format}` }), 200);
}

/**
 * A person's edits, through an embed session as the partner mints it and the person's
 * page uses it, then the submission. The session, still open.
 */
async function editAndSubmit(
  run: Run,
  file: BucketFile,
  extractorId: string,
): Promise<EmbedSession> {
  const edited = await contract.call({
    method: 'PUT',
    path: `/api/extraction_runs/${run.id}/results`,
    body: { documents: [{ file: run.documents[0]!.file, data: { invoice_number: 'F 1' } }] },
  });
  expectStatus(edited, 200);
  const draft = await contract.call({
    method: 'PUT',
    path: `/api/extraction_runs/${run.id}/documents/${file.id}/results`,
    body: requestExample('saveDocumentResults'),
  });
  expectStatus(draft, 200);

  const minted = await contract.call({
    method: 'POST',
    path: '/api/embed_sessions',
    body: { savedExtractor: extractorId, bucket: file.bucket },
  });
  expectStatus(minted, 201);
  const session = minted.json<EmbedSession>();
  const asPerson = { token: session.token };
  expectStatus(await contract.call({ path: '/api/embed_sessions/current', ...asPerson }), 200);
  expectStatus(await contract.call({ path: `/api/extraction_runs/${run.id}`, ...asPerson }), 200);
  const events = await contract.call({
    path: `/api/extraction_runs/${run.id}/events?access_token=${session.token}`,
    token: null,
  });
  expectStatus(events, 200, 204);
  const renewed = await contract.call({
    method: 'POST',
    path: '/api/embed_sessions/renew',
    ...asPerson,
  });
  expectStatus(renewed, 201);
  // The page goes on with the renewed token, as the interface does.
  const submitted = await contract.call({
    method: 'POST',
    path: `/api/extraction_runs/${run.id}/submit`,
    token: renewed.json<EmbedSession>().token,
  });
  expectStatus(submitted, 200);
  return session;
}

/** The document's GraphQL example, both ways. */
async function askGraphql(): Promise<void> {
  const query = (requestExample('graphqlPost') as { query: string }).query;
  expectStatus(await contract.call({ method: 'POST', path: '/api/graphql', body: { query } }), 200);
  const viaGet = await contract.call({
    path: `/api/graphql?query=${encodeURIComponent(query)}`,
    headers: { Accept: 'application/graphql-response+json' },
  });
  expectStatus(viaGet, 200);
}

/** Answers that are problems: each is documented, with the document's Problem schema. */
async function provokeProblems(run: Run, extractorId: string): Promise<void> {
  const problems = [
    await contract.call({
      path: `/api/extractors/${extractorId}`,
      token: null,
      breaksDocument: true,
    }),
    await contract.call({ path: run.bucket, headers: { Accept: 'application/xml' } }),
    await contract.call({
      method: 'POST',
      path: '/api/buckets',
      headers: { 'Content-Type': 'application/xml' },
      body: '<bucket/>',
      breaksDocument: true,
    }),
    await contract.call({
      method: 'POST',
      path: '/api/extractors',
      body: { label: '' },
      breaksDocument: true,
    }),
    await contract.call({ method: 'POST', path: `/api/extraction_runs/${run.id}/pause` }),
  ];
  for (const problem of problems) {
    expect(problem.status, problem.text).toBeGreaterThanOrEqual(400);
    expect(problem.headers.get('content-type'), problem.text).toMatch(
      /^application\/problem\+json/,
    );
  }
}

/** The session, the file, the bucket and the extractor deleted; then nothing is there. */
async function deleteEverything(
  file: BucketFile,
  sessionId: string,
  extractorId: string,
): Promise<void> {
  const revoked = await contract.call({
    method: 'DELETE',
    path: `/api/embed_sessions/${sessionId}`,
  });
  expectStatus(revoked, 204);
  const fileDeleted = await contract.call({
    method: 'DELETE',
    path: `${file.bucket}/files/${file.id}`,
  });
  expectStatus(fileDeleted, 204);
  expectStatus(await contract.call({ method: 'DELETE', path: file.bucket }), 204);
  expectStatus(await contract.call({ path: file.bucket }), 404);
  const extractorPath = `/api/extractors/${extractorId}`;
  expectStatus(await contract.call({ method: 'DELETE', path: extractorPath }), 204);
  expectStatus(await contract.call({ path: extractorPath }), 404);
}

/**
 * The webhooks the receiver was sent, up to the submission's: each valid against the
 * document's `webhooks` and signed as Standard Webhooks says, with the rotated secret.
 */
async function expectWebhooks(
  deliveries: readonly { headers: Record<string, string>; body: string }[],
  secret: string,
): Promise<void> {
  await eventually('the webhook of the submission', async () =>
    deliveries.some((delivery) => delivery.body.includes('"extraction_run.submitted"'))
      ? true
      : undefined,
  );
  const signer = new Webhook(secret);
  for (const { headers, body } of deliveries) {
    const payload = JSON.parse(body) as { type: string };
    expect(webhookEventTypes).toContain(payload.type);
    const schema = `/webhooks/${payload.type}/post/requestBody/content/application~1json/schema`;
    expect(contract.schemaErrors(schema, payload), payload.type).toBe(undefined);
    expect(() => signer.verify(body, headers)).not.toThrow();
  }
}

describe('the GraphQL endpoint', () => {
  it('passes every MUST of the GraphQL-over-HTTP audits of graphql-http', async () => {
    const fetchFn = (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    };
    const failed: string[] = [];
    for (const audit of serverAudits({ url: `${server.baseUrl}/api/graphql`, fetchFn })) {
      const result = await audit.fn();
      if (result.status !== 'ok' && audit.name.startsWith('MUST'))
        failed.push(`${audit.id} ${audit.name}: ${result.reason}`);
    }
    expect(failed).toEqual([]);
  });
});
