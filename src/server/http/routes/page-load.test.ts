/**
 * Page pictures under load: a few fixed widths, a disk budget with the least recently used
 * going first, work done only for someone still waiting, turns shared between tokens, and
 * a limit on one token's page requests under way. The page workers are held busy by a page
 * that takes minutes to draw, so what waits, and in which order it is served, is decided
 * by the order of the requests alone.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BucketFile } from '../../../contract/resources.js';
import { buildSlowPdf } from '../../engine/isolation/testing/hostile-documents.js';
import { buildPdf } from '../../engine/testing/build-documents.js';
import {
  createBucket,
  createExtractor,
  createSession,
  expectProblem,
  uploaded,
} from '../../testing/fixtures.js';
import { startTestService, type TestService } from '../../testing/test-service.js';

const pagePath = (file: BucketFile, page: number, width = 400) =>
  `${file.bucket}/files/${file.id}/pages/${page}?width=${width}`;

const cachedNames = (service: TestService) =>
  readdirSync(join(service.dataDir, 'cache', 'pages')).filter((name) => !name.endsWith('.tmp'));

/**
 * Waits for what the page workers are doing to be so: a worker given up on is ended a
 * second later, and the machine may be busy.
 */
const until = (check: () => void) => vi.waitFor(check, { timeout: 20_000, interval: 20 });

/** Six pages, whose content (and so whose pictures) differ by `title`. */
const sixPages = (title = 'Six pages') =>
  buildPdf([1, 2, 3, 4, 5, 6].map((page) => ({ lines: [title, `Page ${page}`] })));

/** Every request `ask` sent: a test that fails half-way leaves no drawing behind it. */
const given: AbortController[] = [];
afterEach(() => {
  for (const controller of given.splice(0)) controller.abort();
});

/** A page asked for by `token` (the admin's by default), given up when `controller` aborts. */
function ask(
  service: TestService,
  path: string,
  token?: string,
): { answer: Promise<Response>; controller: AbortController } {
  const controller = new AbortController();
  given.push(controller);
  const init = { token, signal: controller.signal, headers: { Accept: 'image/png' } };
  return { answer: service.request(path, init), controller };
}

describe('page pictures at a few fixed widths', () => {
  let service: TestService;
  beforeAll(async () => (service = await startTestService()));
  afterAll(() => service.dispose());

  it('draws each width asked for at the first drawn width at least as wide, once', async () => {
    const bucket = await createBucket(service);
    const [pdf] = await uploaded(service, bucket.id, [{ name: 'one.pdf', bytes: sixPages() }]);
    const widths = new Map<number, number>();
    const tags = new Map<number, string>();
    for (const asked of [100, 400, 401, 1000, 1200, 1201, 1700, 2401, 3000]) {
      const answer = await service.request(pagePath(pdf!, 1, asked), {
        headers: { Accept: 'image/png' },
      });
      expect(answer.status).toBe(200);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      widths.set(asked, (await sharp(bytes).metadata()).width!);
      tags.set(asked, answer.headers.get('etag')!);
    }
    expect(Object.fromEntries(widths)).toEqual({
      100: 400,
      400: 400,
      401: 800,
      1000: 1200,
      1200: 1200,
      1201: 1600,
      1700: 2400,
      2401: 3000,
      3000: 3000,
    });
    // The same picture is the same answer: one tag, one file, drawn once.
    expect(tags.get(100)).toBe(tags.get(400));
    expect(tags.get(2401)).toBe(tags.get(3000));
    expect(cachedNames(service).sort()).toEqual(
      [400, 800, 1200, 1600, 2400, 3000].map((width) => `${pdf!.sha256}-1-${width}.png`).sort(),
    );
    expect(service.services.pages.activity.drawn).toBe(6);
  });
});

describe('the page cache', () => {
  it('stays within PAGE_CACHE_MB, letting the picture used least recently go first', async () => {
    // Pictures of noise hardly compress: each is about 1.8 MB drawn 800 pixels wide, so
    // two fit in 5 MB and a third does not.
    const service = await startTestService({ PAGE_CACHE_MB: '5' });
    try {
      const bucket = await createBucket(service);
      const noise = () =>
        sharp({
          create: {
            width: 1000,
            height: 1000,
            channels: 3,
            background: '#808080',
            noise: { type: 'gaussian', mean: 128, sigma: 60 },
          },
        })
          .png()
          .toBuffer();
      const [a, b, c] = await uploaded(service, bucket.id, [
        { name: 'a.png', bytes: await noise() },
        { name: 'b.png', bytes: await noise() },
        { name: 'c.png', bytes: await noise() },
      ]);
      const show = async (file: BucketFile) => {
        const answer = await service.request(pagePath(file, 1, 800), {
          headers: { Accept: 'image/png' },
        });
        expect(answer.status).toBe(200);
        expect((await sharp(new Uint8Array(await answer.arrayBuffer())).metadata()).width).toBe(
          800,
        );
      };
      const names = (files: BucketFile[]) => files.map((file) => `${file.sha256}-1-800.png`);
      const cachedBytes = () =>
        cachedNames(service).reduce(
          (sum, name) => sum + statSync(join(service.dataDir, 'cache', 'pages', name)).size,
          0,
        );
      const drawn = () => service.services.pages.activity.drawn;

      await show(a!);
      await show(b!);
      // a is used again (from the cache), so b is now the one used least recently.
      await show(a!);
      await show(c!);
      expect(cachedNames(service).sort()).toEqual(names([a!, c!]).sort());
      expect(cachedBytes()).toBeLessThanOrEqual(5 * 1024 * 1024);
      expect(drawn()).toBe(3);
      // b is drawn again when asked for again; a, now the least recent, makes room.
      await show(b!);
      expect(drawn()).toBe(4);
      expect(cachedNames(service).sort()).toEqual(names([b!, c!]).sort());
      expect(cachedBytes()).toBeLessThanOrEqual(5 * 1024 * 1024);
    } finally {
      await service.dispose();
    }
  });
});

describe('page work shared between tokens', () => {
  let service: TestService;
  let slow: BucketFile;
  let extractorId: string;
  beforeAll(async () => {
    service = await startTestService({ DOCUMENT_TIMEOUT_SECONDS: '120' });
    extractorId = (await createExtractor(service)).id;
    const bucket = await createBucket(service);
    slow = (await uploaded(service, bucket.id, [{ name: 'slow.pdf', bytes: buildSlowPdf() }]))[0]!;
  });
  afterAll(() => service.dispose());

  /** A session of its own over a bucket holding a six-page PDF of its own. */
  async function sessionWithPdf(title: string): Promise<{ token: string; pdf: BucketFile }> {
    const bucket = await createBucket(service);
    const [pdf] = await uploaded(service, bucket.id, [{ name: 'six.pdf', bytes: sixPages(title) }]);
    const { token } = await createSession(service, {
      savedExtractor: extractorId,
      bucket: bucket.id,
    });
    return { token, pdf: pdf! };
  }

  /** Both page workers drawing the slow page (at two widths), until each is given up. */
  async function holdWorkers() {
    const activity = () => service.services.pages.activity;
    await until(() => expect(activity()).toMatchObject({ waiting: 0, working: 0 }));
    const held = [400, 800].map((width) => ask(service, pagePath(slow, 1, width)));
    await until(() => expect(activity()).toMatchObject({ waiting: 0, working: 2 }));
    return held;
  }

  it('drops a request given up before its turn without drawing it, and refuses a seventh with 429', async () => {
    const greedy = await sessionWithPdf('Given up');
    const held = await holdWorkers();
    const drawnBefore = service.services.pages.activity.drawn;

    const asked = [1, 2, 3, 4, 5, 6].map((page) =>
      ask(service, pagePath(greedy.pdf, page), greedy.token),
    );
    await until(() => expect(service.services.pages.activity.waiting).toBe(6));
    // A seventh page request of the token, whatever it asks, is refused at once.
    const words = `${greedy.pdf.bucket}/files/${greedy.pdf.id}/pages/1/words`;
    for (const path of [pagePath(greedy.pdf, 1, 800), words]) {
      const refused = await service.request(path, { token: greedy.token });
      const problem = await expectProblem(refused, 429);
      expect(problem.type).toBe('/api/docs#problem-too-many-requests');
      expect(refused.headers.get('retry-after')).toBe('1');
    }

    // Given up while they wait: out of the line at once, and never drawn.
    for (const { controller } of asked) controller.abort();
    expect(service.services.pages.activity.waiting).toBe(0);
    // Answered as a proxy logs a client that closed its request, not as our failure.
    for (const { answer } of asked) expect((await answer).status).toBe(499);
    // And a drawing under way whose asker left is given up (the slow page takes minutes).
    for (const { controller } of held) controller.abort();
    await until(() =>
      expect(service.services.pages.activity).toMatchObject({ waiting: 0, working: 0 }),
    );
    expect(cachedNames(service).join(' ')).not.toContain(slow.sha256);
    expect(service.services.pages.activity.drawn).toBe(drawnBefore);
    expect(cachedNames(service).join(' ')).not.toContain(greedy.pdf.sha256);
    // The token's requests are no longer under way: it may ask again.
    const again = await service.request(pagePath(greedy.pdf, 1), { token: greedy.token });
    expect(again.status).toBe(200);
    expect(service.services.pages.activity.drawn).toBe(drawnBefore + 1);
  });

  it("serves another token's first page before a greedy token's line is drained", async () => {
    const greedy = await sessionWithPdf('Greedy');
    const other = await sessionWithPdf('Other');
    const [first, second] = await holdWorkers();

    const order: string[] = [];
    const greedyAnswers = [1, 2, 3, 4, 5, 6].map((page) => {
      const { answer } = ask(service, pagePath(greedy.pdf, page), greedy.token);
      return answer.then((response) => (order.push(`greedy ${page}`), response));
    });
    await until(() => expect(service.services.pages.activity.waiting).toBe(6));
    const otherAnswer = ask(service, pagePath(other.pdf, 1), other.token).answer.then(
      (response) => (order.push('other 1'), response),
    );
    await until(() => expect(service.services.pages.activity.waiting).toBe(7));

    // One worker is freed; the other stays busy, so the line is served one at a time.
    second!.controller.abort();
    const answers = await Promise.all([...greedyAnswers, otherAnswer]);
    first!.controller.abort();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // Turns alternate: the greedy token's first page (it asked first), then the other's,
    // then the rest of the greedy token's. The answers are counted as they arrive, after
    // each picture is written to the cache, which on a busy machine can swap neighbours;
    // first come, first served would answer the other token last, seventh.
    expect(order.indexOf('other 1')).toBeLessThanOrEqual(2);
    expect(order.toSorted()).toEqual([
      'greedy 1',
      'greedy 2',
      'greedy 3',
      'greedy 4',
      'greedy 5',
      'greedy 6',
      'other 1',
    ]);
  });
});
