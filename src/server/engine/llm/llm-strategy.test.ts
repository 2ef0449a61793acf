/**
 * The llm strategy against a local stand-in for the provider (testing/chat-completions-server.ts):
 * a node:http server that speaks the chat-completions protocol and answers as each test says.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { chunkPages } from '../chunks.js';
import { ExtractionError, type Chunk, type StrategyContext } from '../types.js';
import {
  answer,
  silence,
  startChatCompletionsServer,
  status,
  type ChatCompletionsServer,
  type ChatRequest,
  type Reply,
} from '../../testing/chat-completions-server.js';
import { createLlmStrategy } from './llm-strategy.js';

let stand: ChatCompletionsServer;
let baseUrl: string;
let received: ChatRequest[];
const replies = { push: (...queued: Reply[]) => stand.enqueue(...queued) };

beforeAll(async () => {
  stand = await startChatCompletionsServer();
  baseUrl = stand.baseUrl;
  received = stand.received;
});

afterAll(() => stand.close());

beforeEach(() => stand.reset());

const schema: TargetSchema = {
  type: 'object',
  title: 'Invoice',
  properties: {
    invoice_number: { type: 'string', description: 'As printed.' },
    date: { type: ['string', 'null'], format: 'date' },
    total: { type: 'number', minimum: 0 },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: { type: 'string' } },
        required: ['description'],
      },
    },
  },
  required: ['invoice_number'],
};

const [chunk] = chunkPages(
  [
    {
      fileId: 'f1',
      fileName: 'inv.pdf',
      page: 1,
      text: 'Invoice number: INV-42\nDate: 03.08.2014\nTotal: 1.234,50 EUR',
    },
  ],
  4000,
) as [Chunk];

const context = (overrides: Partial<StrategyContext> = {}): StrategyContext => ({
  schema,
  outputInstructions: 'Amounts as numbers.',
  model: 'test-model-1',
  merged: {},
  signal: new AbortController().signal,
  ...overrides,
});

const llm = (
  overrides: Partial<{
    baseUrl: string | undefined;
    apiKey: string | undefined;
    timeoutMs: number;
  }> = {},
) => ({
  baseUrl,
  apiKey: 'sk-test',
  models: ['test-model-1'],
  timeoutMs: 2000,
  ...overrides,
});
const fast = { baseDelayMs: 5, maxDelayMs: 20 };

describe('llm strategy', () => {
  it('sends the model, the key, the schema as a strict response format and the instructions, and reads the answer', async () => {
    replies.push(
      answer({ invoice_number: 'INV-42', date: '2014-08-03', total: 1234.5, lines: [] }),
    );
    const result = await createLlmStrategy(llm(), fast).extractChunk(chunk, context());

    expect(result.data).toEqual({
      invoice_number: 'INV-42',
      date: '2014-08-03',
      total: 1234.5,
      lines: [],
    });
    expect(result.usage).toEqual({ inputTokens: 321, outputTokens: 45 });
    // Values are traced back to the page they stand on.
    expect(result.sources['/invoice_number']).toMatchObject({
      file: 'inv.pdf',
      page: 1,
      offset: 16,
      text: 'INV-42',
    });
    expect(result.sources['/date']).toMatchObject({ offset: 29, text: '03.08.2014' });
    expect(result.sources['/total']).toMatchObject({ text: '1.234,50' });

    const [request] = received;
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.body.model).toBe('test-model-1');
    expect(request!.body.messages[0]).toMatchObject({ role: 'system' });
    expect(request!.body.messages[0]!.content).toContain('Amounts as numbers.');
    expect(request!.body.messages[1]!.content).toContain(
      '[inv.pdf, page 1]\nInvoice number: INV-42',
    );
    const format = request!.body.response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema).toMatchObject({ name: 'Invoice', strict: true });
    expect(format.json_schema.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['invoice_number', 'date', 'total', 'lines'],
      properties: {
        invoice_number: { type: 'string', description: 'As printed.' },
        date: { type: ['string', 'null'], description: '(format: date (YYYY-MM-DD))' },
        total: { type: ['number', 'null'], description: '(at least 0)' },
        lines: {
          type: ['array', 'null'],
          items: { type: 'object', additionalProperties: false, required: ['description'] },
        },
      },
    });
  });

  it('sends the chunk’s pictures as image parts, and what earlier chunks found', async () => {
    replies.push(answer({ invoice_number: 'INV-42' }));
    const picture = {
      kind: 'page' as const,
      label: 'inv.pdf, page 1',
      mediaType: 'image/png' as const,
      data: 'iVBORw0KGgo=',
      width: 1,
      height: 1,
      offset: 0,
    };
    await createLlmStrategy(llm(), fast).extractChunk(
      { ...chunk, images: [picture] },
      context({ merged: { total: 5, lines: [] } }),
    );
    const content = received[0]!.body.messages[1]!.content as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    expect(content.map((part) => part.type)).toEqual(['text', 'text', 'image_url']);
    expect(content[0]!.text).toContain('{"total":5}');
    expect(content[1]!.text).toBe('Picture: inv.pdf, page 1');
    expect(content[2]!.image_url!.url).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('waits as Retry-After says on 429, then succeeds', async () => {
    replies.push(
      status(429, { 'retry-after': '1' }, 'Rate limit reached'),
      answer({ invoice_number: 'INV-42' }),
    );
    const started = Date.now();
    const result = await createLlmStrategy(llm(), fast).extractChunk(chunk, context());
    expect(result.data.invoice_number).toBe('INV-42');
    expect(received).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx with backoff and fails with a clear error when the provider keeps failing', async () => {
    replies.push(
      status(503, {}, 'The server is overloaded'),
      status(502),
      status(503, {}, 'The server is overloaded'),
    );
    const error = await createLlmStrategy(llm(), { ...fast, maxAttempts: 3 })
      .extractChunk(chunk, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    // The people shown the error read plain words; the log gets the provider's own.
    expect((error as Error).message).toBe(
      'The language model could not be reached or stayed busy; try the run again later.',
    );
    expect((error as ExtractionError).detail).toBe(
      `The LLM provider at ${new URL(baseUrl).host} answered 503: The server is overloaded (3 attempts); try the run again later.`,
    );
    expect((error as ExtractionError).code).toBe('model_unavailable');
    expect(received).toHaveLength(3);
  });

  it('recovers from one 5xx', async () => {
    replies.push(status(500), answer({ invoice_number: 'INV-42' }));
    await expect(
      createLlmStrategy(llm(), fast).extractChunk(chunk, context()),
    ).resolves.toMatchObject({ data: { invoice_number: 'INV-42' } });
  });
});

describe('llm strategy: failures, aborts and repairs', () => {
  it('gives up on a provider that does not answer within the timeout', async () => {
    replies.push(silence, silence);
    const error = await createLlmStrategy(llm({ timeoutMs: 150 }), { ...fast, maxAttempts: 2 })
      .extractChunk(chunk, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as ExtractionError).detail).toContain(
      'did not answer within 150 ms (2 attempts); check LLM_BASE_URL',
    );
    expect(received).toHaveLength(2);
  });

  it('says when the provider cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await createLlmStrategy(llm({ baseUrl: `http://127.0.0.1:${port}/v1` }), {
      ...fast,
      maxAttempts: 2,
    })
      .extractChunk(chunk, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as ExtractionError).detail).toBe(
      `The LLM provider at 127.0.0.1:${port} could not be reached (ECONNREFUSED) (2 attempts); check LLM_BASE_URL and that the provider is up.`,
    );
    expect((error as Error).message).not.toMatch(/127\.0\.0\.1|LLM_|ECONNREFUSED/);
    expect((error as ExtractionError).code).toBe('model_unavailable');
  });

  it('does not retry a refused request (wrong key or model)', async () => {
    replies.push(status(401, {}, 'Incorrect API key provided'));
    await expect(
      createLlmStrategy(llm(), fast).extractChunk(chunk, context()),
    ).rejects.toMatchObject({
      name: 'ExtractionError',
      message:
        "The language model's provider refused the service's request; whoever runs the service needs to check its model settings.",
      detail:
        "The LLM provider refused the request (401: Incorrect API key provided); check LLM_API_KEY and the run's model.",
      code: 'misconfigured',
    });
    expect(received).toHaveLength(1);
  });

  it('needs a provider to be configured', async () => {
    await expect(
      createLlmStrategy(llm({ baseUrl: undefined })).extractChunk(chunk, context()),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/not set up on this service/),
      detail: expect.stringMatching(/set LLM_BASE_URL/),
      code: 'misconfigured',
    });
  });

  it('tells a provider that asks to wait too long as unavailable, with its code', async () => {
    replies.push(status(429, { 'retry-after': '3600' }, 'Rate limit reached'));
    await expect(
      createLlmStrategy(llm(), { ...fast, maxRetryAfterMs: 1000 }).extractChunk(chunk, context()),
    ).rejects.toMatchObject({
      message: 'The language model could not be reached or stayed busy; try the run again later.',
      detail: expect.stringMatching(/asks to wait 3600 s; try the run again later\.$/),
      code: 'model_unavailable',
    });
    expect(received).toHaveLength(1);
  });

  it('tells a model that declines the document from an answer cut off at its length', async () => {
    const reply =
      (choice: Record<string, unknown>): Reply =>
      (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ choices: [choice] }));
      };
    replies.push(
      reply({ message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }),
      reply({ message: { role: 'assistant', content: '{"invoice_nu' }, finish_reason: 'length' }),
    );
    const strategy = createLlmStrategy(llm(), fast);
    await expect(strategy.extractChunk(chunk, context())).rejects.toMatchObject({
      message: 'The language model declined to extract this document.',
      detail: 'The model refused to extract this document: I cannot help with that.',
      code: 'model_refused',
    });
    // Cut off is the extractor's chunk size or the model's output: settings, not the document.
    await expect(strategy.extractChunk(chunk, context())).rejects.toMatchObject({
      message: expect.stringMatching(/^The model's answer was cut off at its length limit/),
      code: 'misconfigured',
    });
  });

  it('stops at once when the run is paused or cancelled', async () => {
    replies.push(silence);
    const controller = new AbortController();
    const pending = createLlmStrategy(llm({ timeoutMs: 10_000 }), fast).extractChunk(
      chunk,
      context({ signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ExtractionError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('mends common slips of models: empty strings, numbers as text, fenced JSON', async () => {
    replies.push(
      answer('```json\n{"invoice_number": "", "total": "1.234,50", "date": "3 August 2014"}\n```'),
    );
    const result = await createLlmStrategy(llm(), fast).extractChunk(chunk, context());
    expect(result.data).toEqual({ invoice_number: null, total: 1234.5, date: '2014-08-03' });
  });

  it('retries an answer that is not JSON', async () => {
    replies.push(answer('Sorry, I cannot do that.'), answer({ invoice_number: 'INV-42' }));
    await expect(
      createLlmStrategy(llm(), fast).extractChunk(chunk, context()),
    ).resolves.toMatchObject({ data: { invoice_number: 'INV-42' } });
    expect(received).toHaveLength(2);
  });
});
