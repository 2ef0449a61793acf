import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketFile } from '../../contract/resources.js';
import {
  createBucket,
  expectProblem,
  storedState,
  upload,
  uploadForm,
} from '../testing/fixtures.js';
import { startRealServer, type RealServer } from '../testing/real-server.js';
import { sampleFiles } from '../testing/sample-files.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import { sanitiseFileName } from './uploads.js';

const maxUploadBytes = 4096;
let service: TestService;
let bucketId: string;

beforeAll(async () => {
  service = await startTestService({ MAX_UPLOAD_BYTES: String(maxUploadBytes) });
  bucketId = (await createBucket(service)).id;
});

afterAll(async () => {
  await service.dispose();
});

/** Sends a request that must be refused; the state is read before it is sent, and after. */
async function expectRefused(send: () => Promise<Response>, status: number) {
  const before = await storedState(service);
  const problem = await expectProblem(await send(), status);
  expect(await storedState(service)).toEqual(before);
  return problem;
}

/** Sends `body` as it is, declared as `contentType`, to the bucket's files. */
const postRaw = (body: BodyInit, contentType: string) =>
  service.request(`/api/buckets/${bucketId}/files`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  });

/** Sends `body` as it is, declared as multipart/form-data with `boundary`. */
const postForm = (body: BodyInit, boundary = 'x') =>
  postRaw(body, `multipart/form-data; boundary=${boundary}`);

describe('upload size', () => {
  it('keeps a file of exactly MAX_UPLOAD_BYTES', async () => {
    const response = await upload(service, bucketId, [
      { name: 'full.txt', bytes: 'a'.repeat(maxUploadBytes) },
    ]);
    expect(response.status).toBe(201);
    expect(((await response.json()) as BucketFile[])[0]!.size).toBe(maxUploadBytes);
  });

  it('answers 413 for a file one byte over, and keeps nothing on disk or in the store', async () => {
    const before = await storedState(service);
    const response = await upload(service, bucketId, [
      { name: 'small.txt', bytes: 'fits\n' },
      { name: 'big.txt', bytes: 'a'.repeat(maxUploadBytes + 1) },
    ]);
    const problem = await expectProblem(response, 413);
    expect(problem.detail).toContain(String(maxUploadBytes));
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 413 from a declared Content-Length without reading the body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const before = await storedState(service);
    const response = await service.request(`/api/buckets/${bucketId}/files`, {
      method: 'POST',
      headers: {
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(10 * 1024 * 1024),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(response, 413);
    expect(pulled).toBeLessThanOrEqual(1);
    expect(await storedState(service)).toEqual(before);
  });
});

describe('upload content types, judged from the bytes', () => {
  it('accepts a PNG named .pdf as the PNG it is', async () => {
    const response = await upload(service, bucketId, [
      { name: 'scan.pdf', bytes: sampleFiles.png(), type: 'application/pdf' },
    ]);
    expect(response.status).toBe(201);
    expect(((await response.json()) as BucketFile[])[0]).toMatchObject({
      name: 'scan.pdf',
      mediaType: 'image/png',
    });
  });

  it.each([
    ['an ELF executable', sampleFiles.elf()],
    ['a ZIP archive', sampleFiles.zip()],
    ['a GIF', sampleFiles.gif()],
    ['an SVG', sampleFiles.svg()],
    ['an empty file', Buffer.alloc(0)],
  ])('answers 415 for %s named .pdf, and keeps nothing', async (_what, bytes) => {
    const problem = await expectRefused(
      () => upload(service, bucketId, [{ name: 'invoice.pdf', bytes, type: 'application/pdf' }]),
      415,
    );
    expect(problem.allowed).toContain('application/pdf');
  });

  it('keeps none of the files of an upload when one of them is refused', async () => {
    await expectRefused(
      () =>
        upload(service, bucketId, [
          { name: 'good.txt', bytes: 'fine\n' },
          { name: 'bad.pdf', bytes: sampleFiles.elf() },
        ]),
      415,
    );
  });

  it('accepts Word and Excel documents by their parts', async () => {
    const response = await upload(service, bucketId, [
      { name: 'letter.docx', bytes: sampleFiles.docx() },
      { name: 'sheet.xlsx', bytes: sampleFiles.xlsx() },
    ]);
    expect(response.status).toBe(201);
    expect(((await response.json()) as BucketFile[]).map((file) => file.mediaType)).toEqual([
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
  });
});

describe('malformed uploads', () => {
  it('answers 415 for a body that is not multipart/form-data', async () => {
    await expectRefused(() => postRaw('x', 'application/pdf'), 415);
  });

  it('answers 400 for multipart without a boundary, without a file part, or cut short', async () => {
    await expectRefused(() => postRaw('x', 'multipart/form-data'), 400);
    await expectRefused(
      () => upload(service, bucketId, [{ name: 'a.txt', bytes: 'hello', field: 'attachment' }]),
      400,
    );
    const whole = await new Response(
      uploadForm([{ name: 'cut.txt', bytes: 'x'.repeat(2000) }]),
    ).text();
    const boundary = /^--(\S+)/.exec(whole)![1]!;
    await expectRefused(() => postForm(whole.slice(0, 1000), boundary), 400);
  });

  it('answers 400 to a body cut short in a part it skips, and goes on serving', async () => {
    const whole = `--x\r\nContent-Disposition: form-data; name="note"; filename="n.txt"\r\n\r\n${'n'.repeat(100)}\r\n--x--\r\n`;
    for (const cut of [60, 90, 120]) {
      await expectRefused(() => postForm(whole.slice(0, cut)), 400);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await service.request('/api/buckets')).status).toBe(200);
  });

  it('leaves no temporary file behind, wherever the body is cut', async () => {
    // Found by junk-requests.test.ts: a part cut short while its temporary file was still
    // being opened left that file behind, created after the clean-up had run.
    const whole = Buffer.from(
      await new Response(
        uploadForm([
          { name: 'a.txt', bytes: 'plain text\n' },
          { name: 'b.pdf', bytes: '%PDF-1.7\n' },
          { name: 'c.txt', bytes: 'plain text\n' },
        ]),
      ).arrayBuffer(),
    );
    const boundary = /^--(\S+)/.exec(whole.toString('latin1'))![1]!;
    for (let cut = 0; cut < whole.length - 8; cut += 1) {
      await expectRefused(() => postForm(whole.subarray(0, cut), boundary), 400);
    }
  });

  it('answers 400 to a malformed part header, whatever follows it', async () => {
    // Found by junk-requests.test.ts: busboy reports the bad header and reads on; a file
    // part after it, cut short, never ended, and neither did the request.
    const head = (filename: string) =>
      `--x\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`;
    const whole = `${head('bad\u0000.pdf')}%PDF-1.7\n\r\n${head('next.txt')}plain\r\n--x--\r\n`;
    for (let cut = whole.indexOf('\u0000') + 1; cut <= whole.length; cut += 1) {
      await expectRefused(() => postForm(whole.slice(0, cut)), 400);
    }
  });

  it('answers 400 for more than 20 files in one upload', async () => {
    const parts = Array.from({ length: 21 }, (_, index) => ({
      name: `${index}.txt`,
      bytes: `file ${index}\n`,
    }));
    await expectRefused(() => upload(service, bucketId, parts), 400);
  });
});

describe('file names and paths', () => {
  it('keeps only a clean last segment of the name', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseFileName('C:\\Users\\me\\invoice.pdf')).toBe('invoice.pdf');
    expect(sanitiseFileName('.htaccess')).toBe('htaccess');
    expect(sanitiseFileName('..')).toBe('file');
    expect(sanitiseFileName('a\u0000b\u001fc<>:"|?*.txt')).toBe('abc.txt');
    // Bidirectional controls, C1 controls and separators, which make a name show as another.
    expect(sanitiseFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(
      sanitiseFileName(
        'a\u202Ab\u202Bc\u202Cd\u202De\u2066f\u2067g\u2068h\u2069i\u200Ej\u200Fk\u061Cl.txt',
      ),
    ).toBe('abcdefghijkl.txt');
    expect(sanitiseFileName('a\u0085b\u009fc\u2028d\u2029e.txt')).toBe('abcde.txt');
    // Letters of right-to-left scripts and joiners in emoji stay.
    expect(sanitiseFileName('فاتورة \u{1F468}\u200D\u{1F469}.pdf')).toBe(
      'فاتورة \u{1F468}\u200D\u{1F469}.pdf',
    );
    expect(sanitiseFileName('  many   spaces \t.txt ')).toBe('many spaces .txt');
    expect(sanitiseFileName('Rechnung Mu\u0308ller.pdf')).toBe('Rechnung Müller.pdf');
    expect(sanitiseFileName(undefined)).toBe('file');
    expect([...sanitiseFileName(`${'€'.repeat(300)}.txt`)]).toHaveLength(200);
  });

  it('shows a name without the right-to-left override that disguised it', async () => {
    const bucket = await createBucket(service);
    const response = await upload(service, bucket.id, [
      { name: 'scan\u202Etxt.exe', bytes: 'Invoice 7\n' },
    ]);
    expect(response.status).toBe(201);
    const [file] = (await response.json()) as { name: string; contentUrl: string }[];
    expect(file!.name).toBe('scantxt.exe');
    const content = await service.request(file!.contentUrl);
    expect(content.headers.get('content-disposition')).not.toMatch(/%E2%80%AE/i);
    await content.body?.cancel();
  });

  it('stores a file under its id whatever it is called, and shows the sanitised name', async () => {
    const bucket = await createBucket(service);
    const response = await upload(service, bucket.id, [
      { name: '../../../extractor.sqlite', bytes: 'not the database\n' },
    ]);
    const [file] = (await response.json()) as BucketFile[];
    expect(file!.name).toBe('extractor.sqlite');
    expect(readdirSync(join(service.dataDir, 'files', bucket.id))).toEqual([file!.id]);
    const database = await service.request(`/api/buckets/${bucket.id}/files/${file!.id}/content`);
    expect(await database.text()).toBe('not the database\n');
  });

  it.each([
    '/api/buckets/..%2F..%2Fextractor.sqlite',
    '/api/buckets/%2e%2e/files',
    '/api/buckets/..%5C..%5Cfiles/files',
    '/api/buckets/{bucket}/files/..%2F..%2Fextractor.sqlite/content',
    '/api/buckets/{bucket}/files/%2e%2e%2f%2e%2e%2fextractor.sqlite/content',
    '/api/buckets/{bucket}/files/..%252F..%252Fextractor.sqlite/content',
    '/api/buckets/{bucket}/files/%00/content',
  ])('answers 404 for %s and reveals nothing', async (path) => {
    const response = await service.request(path.replace('{bucket}', bucketId));
    await expectProblem(response, 404);
  });

  it('never reaches outside the data directory through the plain path', async () => {
    const response = await service.request(`/api/buckets/${bucketId}/files/../../../../etc/passwd`);
    expect(response.status).toBe(404);
  });
});

// The uploads over a real socket: one service behind a port, for the describes below.
const token = 'xpat_upload-socket-test-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'extractor-upload-socket-'));
let server: RealServer;
let filesPath: string;

beforeAll(async () => {
  server = await startRealServer({
    dataDir,
    env: {
      EXTRACTOR_ADMIN_TOKEN: token,
      MAX_UPLOAD_BYTES: String(1024 * 1024),
      LOG_LEVEL: 'warn',
    },
  });
  const created = await fetch(`${server.baseUrl}/api/buckets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  filesPath = `${created.headers.get('location')}/files`;
});

afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const head = '--x\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n';

/**
 * Streams a multipart body of `bytes` bytes of text without a Content-Length (chunked),
 * so only reading it can tell its size; `abortAfter` cuts the connection part way.
 */
function send(
  bytes: number,
  abortAfter?: number,
): Promise<{ status: number; body: string } | 'aborted'> {
  return new Promise((resolve) => {
    const request = httpRequest(`${server.baseUrl}${filesPath}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'multipart/form-data; boundary=x',
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    // Once the server has answered early and closed, further writes fail; that is expected.
    request.on('error', () => resolve('aborted'));
    request.write(head);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        if (abortAfter !== undefined && sent >= abortAfter) {
          request.destroy();
          return;
        }
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      request.end('\r\n--x--\r\n');
    };
    pump();
  });
}

const listFiles = async () =>
  (await (
    await fetch(`${server.baseUrl}${filesPath}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json()) as BucketFile[];

describe('uploads over a real socket over the limit', () => {
  it('answers 413 to a body over the limit that declares no length, and keeps nothing', async () => {
    const outcome = await send(4 * 1024 * 1024);
    expect(outcome).not.toBe('aborted');
    const { status, body } = outcome as { status: number; body: string };
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ status: 413, title: 'Payload too large' });
    expect(await listFiles()).toEqual([]);
  });

  it('answers 413 to a body far over the limit so that a client still sending it reads the answer', async () => {
    // The service answers from the declared length at once and closes the connection.
    // Closed right away, the bytes the client was still sending made the kernel reset the
    // connection, and the reset threw away the answer before the client read it (a client
    // busy writing reads late: here, not at all until its body is out). The service now
    // reads and drops the rest before it closes (lingering close).
    const bodyBytes = 64 * 1024 * 1024;
    const url = new URL(`${server.baseUrl}${filesPath}`);
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      let answer = '';
      socket.pause();
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', (error) => resolve(`${answer}[${(error as NodeJS.ErrnoException).code}]`));
      socket.write(
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          `Authorization: Bearer ${token}\r\n` +
          'Content-Type: multipart/form-data; boundary=x\r\n' +
          `Content-Length: ${bodyBytes}\r\n\r\n`,
      );
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < bodyBytes) {
          sent += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
        // All of it is out: now read what the service said.
        socket.resume();
      };
      pump();
    });
    expect(outcome).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome).toContain('"title":"Payload too large"');
    expect(await listFiles()).toEqual([]);
  });

  it('answers 413 to fetch sending a body far over the limit', async () => {
    const body = Buffer.alloc(128 * 1024 * 1024, 'a');
    body.write(head);
    const response = await fetch(`${server.baseUrl}${filesPath}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'multipart/form-data; boundary=x',
      },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: 413, title: 'Payload too large' });
  });
});

describe('uploads over a real socket that are cut short, malformed or too slow', () => {
  it('keeps nothing of an upload the client abandons, and goes on serving', async () => {
    expect(await send(900 * 1024, 256 * 1024)).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await listFiles()).toEqual([]);
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
  });

  it('answers 400 to a malformed part header followed by a large part, and keeps nothing', async () => {
    const bad =
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a\u0000"\r\n\r\nx\r\n';
    const response = await fetch(`${server.baseUrl}${filesPath}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'multipart/form-data; boundary=x',
      },
      body: `${bad}${head}${'a'.repeat(300 * 1024)}\r\n--x--\r\n`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain('Malformed');
    expect(await listFiles()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
  });

  it('answers 400 to a form it gives up on mid-body, and serves the next request on the same connection', async () => {
    // The rest of the body is read and dropped after the answer: unread, it would stop the
    // server reading the connection, and the client's next request on it would never come.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; body: string; reused: boolean }>((resolve, reject) => {
        const request = httpRequest(`${server.baseUrl}${path}`, {
          method,
          agent,
          headers: { Authorization: `Bearer ${token}`, ...headers },
        });
        request.on('error', reject);
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode!, body: text, reused: request.reusedSocket }),
          );
        });
        request.end(body);
      });
    try {
      const bad =
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a\u0000"\r\n\r\nx\r\n';
      const refused = await ask(
        'POST',
        filesPath,
        { 'Content-Type': 'multipart/form-data; boundary=x' },
        `${bad}${head}${'a'.repeat(900 * 1024)}\r\n--x--\r\n`,
      );
      expect(refused.status).toBe(400);
      expect((JSON.parse(refused.body) as { detail: string }).detail).toContain('Malformed');
      const next = await ask('GET', filesPath, {});
      expect(next).toMatchObject({ status: 200, reused: true });
      expect(JSON.parse(next.body)).toEqual([]);
    } finally {
      agent.destroy();
    }
  });

  it('answers 408 to an upload that trickles in, closes its connection, and keeps nothing', async () => {
    const started = Date.now();
    const outcome = await new Promise<{ status: number; body: string; closed: boolean }>(
      (resolve) => {
        const request = httpRequest(`${server.baseUrl}${filesPath}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'multipart/form-data; boundary=x',
          },
        });
        request.write(head);
        // A byte every half second: a connection held for next to nothing.
        const trickle = setInterval(() => request.write('a'), 500);
        request.on('error', () => clearInterval(trickle));
        request.on('response', (response) => {
          clearInterval(trickle);
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () =>
            response.socket.once('close', () =>
              resolve({ status: response.statusCode!, body, closed: true }),
            ),
          );
        });
      },
    );
    expect(outcome.status).toBe(408);
    expect(JSON.parse(outcome.body)).toMatchObject({
      status: 408,
      title: 'Request timeout',
      detail: expect.stringContaining('arrived too slowly'),
    });
    expect(outcome.closed).toBe(true);
    // The grace period and a check, well short of node's five minutes.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await listFiles()).toEqual([]);
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
  });
});

describe('uploads over a real socket within the limit', () => {
  it('stores an upload within the limit, byte for byte', async () => {
    const outcome = await send(512 * 1024);
    expect(outcome).toMatchObject({ status: 201 });
    const [file] = await listFiles();
    const expected = createHash('sha256')
      .update(Buffer.alloc(512 * 1024, 'a'))
      .digest('hex');
    expect(file).toMatchObject({
      name: 'big.txt',
      size: 512 * 1024,
      sha256: expected,
      mediaType: 'text/plain',
    });
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
  });

  it('stores a form as fetch and browsers send it, with its length declared', async () => {
    const bytes = Buffer.alloc(900 * 1024, 'b');
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'text/plain' }), 'form.txt');
    const response = await fetch(`${server.baseUrl}${filesPath}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status).toBe(201);
    const [stored] = (await response.json()) as BucketFile[];
    expect(stored).toMatchObject({
      name: 'form.txt',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
  });
});
