/**
 * A local stand-in for an LLM provider: a node:http server that speaks the OpenAI
 * chat-completions protocol and answers each request as the test tells it to. Tests of
 * the llm strategy and of runs that use it talk to this instead of the internet.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: {
      role: string;
      content: string | { type: string; text?: string; image_url?: { url: string } }[];
    }[];
    response_format: {
      type: string;
      json_schema: { name: string; schema: Record<string, unknown>; strict: boolean };
    };
  };
}

export type Reply = (response: ServerResponse, request: ChatRequest) => void;

export function completionBody(
  content: unknown,
  usage = { prompt_tokens: 321, completion_tokens: 45 },
): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: typeof content === 'string' ? content : JSON.stringify(content),
        },
        finish_reason: 'stop',
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
}

/** A 200 with `content` as the assistant's message (an object is sent as JSON text). */
export const answer =
  (content: unknown, usage?: { prompt_tokens: number; completion_tokens: number }): Reply =>
  (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(completionBody(content, usage));
  };

/** An error status with an OpenAI-style error body. */
export const status =
  (code: number, headers: Record<string, string> = {}, message = 'try later'): Reply =>
  (response) => {
    response.writeHead(code, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify({ error: { message, type: 'server_error' } }));
  };

/** Never answers: for timeouts. */
export const silence: Reply = () => {};

/** The text of a request's user message(s), where the chunk of the document is. */
export function userText(request: ChatRequest): string {
  return request.body.messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => part.text ?? '').join('\n'),
    )
    .join('\n');
}

/**
 * A reply that waits: the request is held until `release` answers it. `arrived` resolves
 * when the request is in, so a test can act (pause, kill) while the provider "thinks".
 */
export function held(): {
  reply: Reply;
  arrived: Promise<ChatRequest>;
  release(reply: Reply): void;
} {
  let arrive!: (request: ChatRequest) => void;
  const arrived = new Promise<ChatRequest>((resolve) => (arrive = resolve));
  let pending: { response: ServerResponse; request: ChatRequest } | undefined;
  let releasedWith: Reply | undefined;
  return {
    reply(response, request) {
      if (releasedWith) return releasedWith(response, request);
      pending = { response, request };
      arrive(request);
    },
    arrived,
    release(reply) {
      releasedWith = reply;
      if (pending) reply(pending.response, pending.request);
    },
  };
}

export interface ChatCompletionsServer {
  /** The base URL to give as LLM_BASE_URL (ends in /v1). */
  baseUrl: string;
  /** Every request received, in order. */
  received: ChatRequest[];
  /** Queues replies for the next requests, in order. */
  enqueue(...replies: Reply[]): void;
  /** Answers requests when the queue is empty (default: a 500). */
  fallback: Reply;
  /** Forgets what was received and queued. */
  reset(): void;
  close(): Promise<void>;
}

export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  const queue: Reply[] = [];
  const stand: Omit<ChatCompletionsServer, 'baseUrl' | 'close'> = {
    received: [],
    fallback: status(500),
    enqueue: (...replies) => void queue.push(...replies),
    reset() {
      stand.received.length = 0;
      queue.length = 0;
    },
  };
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (data: Buffer) => (raw += data.toString()));
    request.on('end', () => {
      if (request.url !== '/v1/chat/completions' || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      const entry: ChatRequest = {
        headers: request.headers,
        body: JSON.parse(raw) as ChatRequest['body'],
      };
      stand.received.push(entry);
      (queue.shift() ?? stand.fallback)(response, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return Object.assign(stand, {
    baseUrl,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}
