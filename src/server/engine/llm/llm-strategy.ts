/**
 * The `llm` strategy: one chat-completions request per chunk to any OpenAI-compatible
 * provider (`LLM_BASE_URL` + `/chat/completions`, `Authorization: Bearer LLM_API_KEY`),
 * the target schema as a JSON-schema response format, the extractor's output instructions
 * in the system message, the chunk's text (and pictures, when the run includes them) in
 * the user message.
 *
 * Failures: 429 and 5xx answers, timeouts and network errors are retried with exponential
 * backoff and jitter, honouring Retry-After; other 4xx answers are not (a wrong key or
 * model does not heal by waiting). When the provider cannot be reached or keeps failing,
 * the document fails with an ExtractionError in plain words for the people who see it (a
 * partner's customer, in the interface or through the partner's program), and a `detail`
 * for the service's log: the provider's address and own words, and the setting to check.
 */
import type { TargetSchema } from '../../../contract/json-schema.js';
import { primaryType, resolveRef } from '../../../contract/json-schema.js';
import type { Config } from '../../config.js';
import { readChunkText } from '../local/reading.js';
import { findDates, parseAmount } from '../local/parsers.js';
import { sourceOf } from '../sources.js';
import {
  ExtractionError,
  type Chunk,
  type ChunkExtraction,
  type ExtractionStrategy,
  type StrategyContext,
  type ValueSource,
} from '../types.js';
import { responseSchemaFor } from './response-schema.js';

export interface LlmRetryOptions {
  /** Attempts per chunk, the first included. */
  maxAttempts: number;
  /** The first backoff; each retry doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the run fails instead. */
  maxRetryAfterMs: number;
}

export const defaultRetryOptions: LlmRetryOptions = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

const systemPrompt = [
  'You extract data from documents.',
  'Answer with one JSON object that follows the given JSON schema.',
  'Use only what this part of the document says: when a value is not there, use null (an empty list for a list); never guess or invent a value.',
  'Copy numbers, codes and names exactly as written. Write dates as YYYY-MM-DD and amounts as plain numbers, without currency signs or thousands separators.',
].join(' ');

export function createLlmStrategy(
  llm: Config['llm'],
  retry: Partial<LlmRetryOptions> = {},
): ExtractionStrategy {
  const options = { ...defaultRetryOptions, ...retry };
  return {
    async extractChunk(chunk, context) {
      if (!llm.baseUrl) {
        throw new ExtractionError(
          plainWords.notSetUp,
          'misconfigured',
          'The llm strategy needs a provider: set LLM_BASE_URL (and LLM_API_KEY) on the service, or use the local strategy.',
        );
      }
      const format = responseSchemaFor(context.schema);
      const body = {
        model: context.model,
        messages: [
          {
            role: 'system',
            content: context.outputInstructions.trim()
              ? `${systemPrompt}\n\nInstructions:\n${context.outputInstructions.trim()}`
              : systemPrompt,
          },
          { role: 'user', content: userContent(chunk, context) },
        ],
        response_format: { type: 'json_schema', json_schema: format },
      };
      const answer = await complete(
        llm.baseUrl,
        llm.apiKey,
        llm.timeoutMs,
        body,
        options,
        context.signal,
      );
      const data = coerce(context.schema, context.schema, answer.data) as Record<string, unknown>;
      return { data, sources: locate(chunk, data), usage: answer.usage };
    },
  };
}

type ContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** The chunk's text with each page's stretch headed by its file and page, then its pictures. */
function userContent(chunk: Chunk, context: StrategyContext): string | ContentPart[] {
  const parts = chunk.spans.map(
    (span) =>
      `[${span.fileName}, page ${span.page}]\n${chunk.text.slice(span.chunkStart, span.chunkStart + span.length)}`,
  );
  let text = `Extract the data from this part of the document.\n\n${parts.join('\n\n')}`;
  const known = Object.fromEntries(
    Object.entries(context.merged).filter(
      ([, value]) => value !== null && !(Array.isArray(value) && value.length === 0),
    ),
  );
  if (Object.keys(known).length > 0) {
    text += `\n\nEarlier parts gave these values; repeat one only if this part states it too:\n${JSON.stringify(known)}`;
  }
  if (!chunk.images?.length) return text;
  return [
    { type: 'text', text },
    ...chunk.images.flatMap((image): ContentPart[] => [
      { type: 'text', text: `Picture: ${image.label}` },
      { type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } },
    ]),
  ];
}

// ---------------------------------------------------------------------------------------
// The request

interface Answer {
  data: Record<string, unknown>;
  usage: ChunkExtraction['usage'];
}

/**
 * What a failure of the provider says to the people who see it: what happened and what
 * they can do, without the provider's words, its address or the service's settings.
 */
const plainWords = {
  notSetUp:
    'The llm strategy is not set up on this service; use the local strategy, or ask whoever runs the service to set it up.',
  unavailable: 'The language model could not be reached or stayed busy; try the run again later.',
  refused:
    "The language model's provider refused the service's request; whoever runs the service needs to check its model settings.",
  declined: 'The language model declined to extract this document.',
} as const;

class RetryableFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

async function complete(
  baseUrl: string,
  apiKey: string | undefined,
  timeoutMs: number,
  body: unknown,
  options: LlmRetryOptions,
  signal: AbortSignal,
): Promise<Answer> {
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const where = providerName(baseUrl);
  let failure: RetryableFailure | undefined;
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    signal.throwIfAborted();
    try {
      return await attemptOnce(url, apiKey, timeoutMs, body, signal);
    } catch (error) {
      if (!(error instanceof RetryableFailure)) throw error;
      failure = error;
    }
    if (attempt === options.maxAttempts) break;
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > options.maxRetryAfterMs) {
      throw new ExtractionError(
        plainWords.unavailable,
        'model_unavailable',
        `The LLM provider at ${where} ${failure.message} and asks to wait ${Math.ceil(failure.retryAfterMs / 1000)} s; try the run again later.`,
      );
    }
    await sleep(failure.retryAfterMs ?? backoff(attempt, options), signal);
  }
  const advice = /reached|answer within/.test(failure?.message ?? '')
    ? 'check LLM_BASE_URL and that the provider is up'
    : 'try the run again later';
  throw new ExtractionError(
    plainWords.unavailable,
    'model_unavailable',
    `The LLM provider at ${where} ${failure?.message ?? 'failed'} (${options.maxAttempts} attempts); ${advice}.`,
  );
}

async function attemptOnce(
  url: string,
  apiKey: string | undefined,
  timeoutMs: number,
  body: unknown,
  signal: AbortSignal,
): Promise<Answer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, timeout]),
    });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted) throw new RetryableFailure(`did not answer within ${timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new RetryableFailure(
      `could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
    );
  }
  if (response.status === 429 || response.status >= 500) {
    throw new RetryableFailure(
      `answered ${response.status}${providerMessage(text)}`,
      retryAfter(response.headers.get('retry-after')),
    );
  }
  if (!response.ok) {
    throw new ExtractionError(
      plainWords.refused,
      'misconfigured',
      `The LLM provider refused the request (${response.status}${providerMessage(text)}); check LLM_API_KEY and the run's model.`,
    );
  }
  return parseAnswer(text);
}

interface ChatCompletion {
  choices?: {
    message?: { content?: string | null; refusal?: string | null };
    finish_reason?: string;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

function parseAnswer(text: string): Answer {
  let completion: ChatCompletion;
  try {
    completion = JSON.parse(text) as ChatCompletion;
  } catch {
    throw new RetryableFailure('answered with something other than JSON');
  }
  const choice = completion.choices?.[0];
  if (choice?.message?.refusal)
    throw new ExtractionError(
      plainWords.declined,
      'model_refused',
      `The model refused to extract this document: ${choice.message.refusal}`,
    );
  if (choice?.finish_reason === 'length') {
    throw new ExtractionError(
      "The model's answer was cut off at its length limit; use a smaller chunk size or a model with a larger output.",
      'misconfigured',
    );
  }
  const content = choice?.message?.content ?? '';
  let data: unknown;
  try {
    // Providers without structured output sometimes wrap the JSON in a Markdown fence.
    data = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new RetryableFailure('answered without a JSON object in the message');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new RetryableFailure('answered with JSON that is not an object');
  return {
    data: data as Record<string, unknown>,
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
  };
}

function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const message =
      typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    return message ? `: ${message.slice(0, 300)}` : '';
  } catch {
    const plain = text.trim().slice(0, 200);
    return plain && !plain.startsWith('<') ? `: ${plain}` : '';
  }
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3). */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Exponential with "equal jitter": half the step for sure, half at random, so retries spread out. */
function backoff(attempt: number, options: LlmRetryOptions): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return step / 2 + Math.random() * (step / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function providerName(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

// ---------------------------------------------------------------------------------------
// The answer as our data

/**
 * Light repairs of what models commonly send: "" for "not found", numbers as text
 * ("1.234,50"), dates in another notation. Anything else is left for the validator to
 * report.
 */
function coerce(rawSchema: TargetSchema, root: TargetSchema, value: unknown): unknown {
  const schema = resolveRef(rawSchema, root);
  if (value === '' || value === undefined) return null;
  const type = primaryType(schema);
  if (Array.isArray(value))
    return schema.items ? value.map((item) => coerce(schema.items!, root, item)) : value;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [
        key,
        schema.properties?.[key] ? coerce(schema.properties[key], root, child) : child,
      ]),
    );
  }
  if (typeof value === 'string' && (type === 'number' || type === 'integer')) {
    const number = parseAmount(value);
    return number === undefined || (type === 'integer' && !Number.isInteger(number))
      ? value
      : number;
  }
  if (typeof value === 'string' && schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return findDates(value)[0]?.value ?? value;
  }
  return value;
}

/**
 * Where the model's values are in the chunk: a model names no positions, so each value is
 * looked up in the text (a string as written, ignoring case and spacing; a number among
 * the amounts; a date among the dates). A value not found in the text gets no source,
 * which is worth knowing in itself.
 */
function locate(chunk: Chunk, data: Record<string, unknown>): Record<string, ValueSource> {
  const reading = readChunkText(chunk.text);
  const sources: Record<string, ValueSource> = {};
  const visit = (value: unknown, pointer: string) => {
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${pointer}/${index}`));
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value))
        visit(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    } else {
      const found = find(value);
      const source = found && sourceOf(chunk, found.start, found.end);
      if (source) sources[pointer] = source;
    }
  };
  const find = (value: unknown): { start: number; end: number } | undefined => {
    if (typeof value === 'number')
      return reading.amounts.find((amount) => Math.abs(amount.value - value) < 0.005);
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? reading.dates.find((candidate) => candidate.value === value)
      : undefined;
    if (date) return date;
    const pattern = new RegExp(
      value
        .trim()
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\s+/g, '\\s+'),
      'iu',
    );
    const match = pattern.exec(chunk.text);
    return match ? { start: match.index, end: match.index + match[0].length } : undefined;
  };
  visit(data, '');
  return sources;
}
