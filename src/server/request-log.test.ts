/**
 * Every request gets an id (the caller's X-Request-Id, or a new one) on its response and
 * one log line, in the real server as `npm start` runs it. Lines are written in batches,
 * so this also proves they come out while the service is quiet, and on a clean stop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer, type RealServer } from './testing/real-server.js';
import { startTestService, type TestService } from './testing/test-service.js';

const token = 'xpat_request-log-token-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'extractor-request-log-'));
let server: RealServer;

interface RequestLine {
  msg: string;
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

function requestLines(output: string): RequestLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RequestLine)
    .filter((line) => line.msg === 'request');
}

async function waitFor<T>(find: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('not found in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  server = await startRealServer({ dataDir, env: { EXTRACTOR_ADMIN_TOKEN: token } });
});

afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('request ids and request logs, on the real server', () => {
  it('answers with the caller’s request id or a new one, and logs each request once', async () => {
    const given = await fetch(`${server.baseUrl}/api/extractors?access_token=secret`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': 'partner-trace-42' },
    });
    expect(given.status).toBe(200);
    expect(given.headers.get('x-request-id')).toBe('partner-trace-42');

    const fresh = await fetch(`${server.baseUrl}/api/runs/no-such-run`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(fresh.status).toBe(404);
    const freshId = fresh.headers.get('x-request-id')!;
    expect(freshId).toMatch(/^[0-9a-f-]{36}$/);
    // Node's response carries the app's other header too (app.test.ts has every route).
    for (const response of [given, fresh])
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');

    // The service is quiet now: the batch still comes out within a second or so.
    const [first, second] = await waitFor(() => {
      const lines = requestLines(server.output());
      const a = lines.filter((line) => line.requestId === 'partner-trace-42');
      const b = lines.filter((line) => line.requestId === freshId);
      return a.length > 0 && b.length > 0 ? [a, b] : undefined;
    });
    expect(first).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/extractors', status: 200 }),
    ]);
    expect(second).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/runs/no-such-run', status: 404 }),
    ]);
    expect(server.output()).not.toContain('secret');
  });

  it('writes out the last lines when it stops', async () => {
    const last = await fetch(`${server.baseUrl}/api/buckets`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const id = last.headers.get('x-request-id')!;
    await server.stop();
    expect(requestLines(server.output()).filter((line) => line.requestId === id)).toHaveLength(1);
  });
});

describe('request ids in-process', () => {
  let service: TestService;
  beforeAll(async () => (service = await startTestService()));
  afterAll(() => service.dispose());

  it('puts the id on the Response when no node response is there to carry it', async () => {
    const response = await service.request('/api/buckets', {
      headers: { 'X-Request-Id': 'in-process-7' },
    });
    expect(response.headers.get('x-request-id')).toBe('in-process-7');
    expect((await service.request('/api/buckets')).headers.get('x-request-id')).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});
