/**
 * `GET /api/buckets/{id}/files/{fileId}/pages/{n}`: a page as a reviewer sees it. PDFs and
 * images are drawn (in the document workers) and kept on disk; text documents answer their
 * text. Files count their pages at upload. Session tokens see their bucket's pages only,
 * and hostile requests and documents get problem documents, never a 500.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import type { Bucket, BucketFile } from '../../../contract/resources.js';
import {
  buildHugePng,
  buildPageBombPdf,
  buildSlowPdf,
} from '../../engine/isolation/testing/hostile-documents.js';
import { buildDocx, buildPdf, renderTextImage } from '../../engine/testing/build-documents.js';
import {
  createBucket,
  createExtractor,
  createSession,
  expectProblem,
  expectUnauthorized,
  upload,
  uploaded,
  type UploadPart,
} from '../../testing/fixtures.js';
import { invoiceFixture } from '../../testing/sample-files.js';
import { startTestService, useTestService, type TestService } from '../../testing/test-service.js';

const service = useTestService();

/**
 * A service of its own with the limits of `env`, and a bucket there holding `parts`, for
 * `test`; disposed after it.
 */
async function withLimits(
  env: Record<string, string>,
  parts: readonly UploadPart[],
  test: (limited: TestService, bucket: Bucket, files: BucketFile[]) => Promise<void>,
): Promise<void> {
  const limited = await startTestService(env);
  try {
    const bucket = await createBucket(limited);
    await test(limited, bucket, await uploaded(limited, bucket.id, parts));
  } finally {
    await limited.dispose();
  }
}

const pagePath = (file: BucketFile, page: number | string, query = '') =>
  `${file.bucket}/files/${file.id}/pages/${page}${query}`;

function getPage(file: BucketFile, page: number | string, init: RequestInit = {}, query = '') {
  return service.request(pagePath(file, page, query), init);
}

async function xlsxWithSheets(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Invoice').addRow(['Invoice number', 'X-1']);
  workbook.addWorksheet('Lines').addRow(['Cable', 2, 10]);
  const hidden = workbook.addWorksheet('Workings');
  hidden.state = 'hidden';
  hidden.addRow(['secret']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A page as grey pixels, one byte each. */
async function greyPixels(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const darkIn = (left: number, top: number, right: number, bottom: number) => {
    let dark = 0;
    for (let y = Math.floor(top); y < Math.ceil(bottom); y++)
      for (let x = Math.floor(left); x < Math.ceil(right); x++)
        if (data[y * info.width + x]! < 128) dark++;
    return dark;
  };
  return { width: info.width, height: info.height, darkIn };
}

describe('pages of a file', () => {
  it('counts the pages of each file at upload and says how they are shown', async () => {
    const bucket = await createBucket(service);
    const files = await uploaded(service, bucket.id, [
      { name: 'three.pdf', bytes: buildPdf([{ lines: ['One'] }, { lines: ['Two'] }, {}]) },
      { name: 'scan.png', bytes: await renderTextImage(['Total 12.00']) },
      { name: 'sheets.xlsx', bytes: await xlsxWithSheets() },
      { name: 'feeds.txt', bytes: 'first\fsecond\fthird' },
      { name: 'letter.docx', bytes: buildDocx([{ paragraph: 'Invoice number: D-1' }]) },
      { name: 'broken.pdf', bytes: '%PDF-1.4\nthis is no PDF at all\n' },
    ]);
    expect(files.map((file) => [file.name, file.pageCount, file.pageKind])).toEqual([
      ['three.pdf', 3, 'image'],
      ['scan.png', 1, 'image'],
      ['sheets.xlsx', 2, 'text'],
      ['feeds.txt', 3, 'text'],
      ['letter.docx', 1, 'text'],
      ['broken.pdf', null, 'image'],
    ]);
    // The same in every listing: the bucket's artifacts and the file itself.
    const [broken] = files.slice(-1);
    const read = (await (
      await service.json('GET', `/api/buckets/${bucket.id}/files/${broken!.id}`)
    ).json()) as BucketFile;
    expect(read).toEqual(broken);
  });

  it('draws a PDF page as WebP or PNG at a drawn width, the text where the page prints it', async () => {
    const bucket = await createBucket(service);
    const lines = ['Invoice number: INV-2024-0042', 'Total due: 1,250.00 EUR'];
    const [pdf] = await uploaded(service, bucket.id, [
      { name: 'invoice.pdf', bytes: buildPdf([{ lines }, { lines: ['Second page'] }]) },
    ]);

    const webp = await getPage(pdf!, 1, {}, '?width=800');
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webp.headers.get('cache-control')).toMatch(/private/);
    const bytes = new Uint8Array(await webp.arrayBuffer());
    expect(Number(webp.headers.get('content-length'))).toBe(bytes.length);
    expect((await sharp(bytes).metadata()).format).toBe('webp');
    const page = await greyPixels(bytes);
    // A Letter page (612 x 792 points) drawn 800 pixels wide.
    expect([page.width, page.height]).toEqual([800, Math.round((800 * 792) / 612)]);
    const scale = 800 / 612;
    // The first line is printed at 72 points from the left, its baseline 72 from the top.
    expect(page.darkIn(72 * scale, 60 * scale, 250 * scale, 73 * scale)).toBeGreaterThan(100);
    // Nothing is printed in the lower half.
    expect(page.darkIn(0, page.height / 2, page.width, page.height)).toBe(0);

    const png = await getPage(pdf!, 2, { headers: { Accept: 'image/png' } });
    expect(png.headers.get('content-type')).toBe('image/png');
    const second = await sharp(new Uint8Array(await png.arrayBuffer())).metadata();
    expect([second.format, second.width]).toEqual(['png', 1200]);

    // Kept on disk by content, page, width and format; asked again, the same picture, or
    // a 304 to a client that has it.
    const cached = readdirSync(join(service.dataDir, 'cache', 'pages'));
    expect(cached).toEqual(
      expect.arrayContaining([`${pdf!.sha256}-1-800.webp`, `${pdf!.sha256}-2-1200.png`]),
    );
    const again = await getPage(pdf!, 1, {}, '?width=800');
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);
    // What is on disk is what is answered: a picture put in its place is not drawn over.
    const marker = await sharp({
      create: { width: 800, height: 10, channels: 3, background: '#ff0000' },
    })
      .webp()
      .toBuffer();
    writeFileSync(join(service.dataDir, 'cache', 'pages', `${pdf!.sha256}-1-800.webp`), marker);
    const kept = await getPage(pdf!, 1, {}, '?width=800');
    expect(Buffer.from(await kept.arrayBuffer())).toEqual(marker);
    const etag = again.headers.get('etag')!;
    const unchanged = await getPage(pdf!, 1, { headers: { 'If-None-Match': etag } }, '?width=800');
    expect(unchanged.status).toBe(304);
  });

  it('draws a scanned image upright and never wider than it is', async () => {
    const bucket = await createBucket(service);
    const [scan] = await uploaded(service, bucket.id, [
      { name: 'oyo.png', bytes: invoiceFixture('oyo.png') },
    ]);
    const original = await sharp(invoiceFixture('oyo.png')).metadata();

    const narrow = await getPage(scan!, 1, {}, '?width=800');
    expect(narrow.status).toBe(200);
    const drawn = await sharp(new Uint8Array(await narrow.arrayBuffer())).metadata();
    expect(drawn.width).toBe(800);
    expect(drawn.height).toBe(Math.round((800 * original.height!) / original.width!));

    const small = await uploaded(service, bucket.id, [
      { name: 'small.png', bytes: await renderTextImage(['Total 12.00'], { width: 400 }) },
    ]);
    const wide = await getPage(small[0]!, 1, { headers: { Accept: 'image/png' } }, '?width=2000');
    expect((await sharp(new Uint8Array(await wide.arrayBuffer())).metadata()).width).toBe(400);

    const beyond = await expectProblem(await getPage(scan!, 2), 404);
    expect(beyond.detail).toBe('oyo.png has 1 page; there is no page 2.');
  });

  it('answers the text of a text document, and a 406 naming text/plain to a picture request', async () => {
    const bucket = await createBucket(service);
    const [docx, text] = await uploaded(service, bucket.id, [
      {
        name: 'letter.docx',
        bytes: buildDocx([
          { paragraph: 'Invoice number: D-1' },
          {
            table: [
              ['Item', 'Amount'],
              ['Cable', '12.00'],
            ],
          },
        ]),
      },
      { name: 'pages.txt', bytes: 'Page one\fInvoice number: T-2\nTotal: 5.00' },
    ]);
    const page = await getPage(docx!, 1);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await page.text()).toBe('Invoice number: D-1\nItem\tAmount\nCable\t12.00');

    const second = await getPage(text!, 2, { headers: { Accept: 'text/*' } });
    expect(await second.text()).toBe('Invoice number: T-2\nTotal: 5.00');

    const picture = await expectProblem(
      await getPage(docx!, 1, { headers: { Accept: 'image/webp, image/png' } }),
      406,
    );
    expect(picture.allowed).toEqual(['text/plain']);
    const words = await expectProblem(
      await getPage(text!, 1, { headers: { Accept: 'text/plain;q=0, image/*' } }),
      406,
    );
    expect(words.allowed).toEqual(['text/plain']);
    const pdfAsText = await uploaded(service, bucket.id, [
      { name: 'one.pdf', bytes: buildPdf([{ lines: ['One'] }]) },
    ]);
    expect(
      (
        await expectProblem(
          await getPage(pdfAsText[0]!, 1, { headers: { Accept: 'text/plain' } }),
          406,
        )
      ).allowed,
    ).toEqual(['image/webp', 'image/png']);
    await expectProblem(await getPage(text!, 3), 404);
  });
});

describe('who sees the pages', () => {
  it("lets a session see its bucket's pages, by header or access_token, and nothing else", async () => {
    const extractor = await createExtractor(service);
    const [mine, other] = [await createBucket(service), await createBucket(service)];
    const [own] = await uploaded(service, mine.id, [
      { name: 'a.txt', bytes: 'Invoice number: A-1' },
    ]);
    const [foreign] = await uploaded(service, other.id, [
      { name: 'b.txt', bytes: 'Invoice number: B-2' },
    ]);
    const session = await createSession(service, {
      savedExtractor: extractor.id,
      bucket: mine.id,
    });

    const byHeader = await getPage(own!, 1, { token: session.token } as RequestInit);
    expect(await byHeader.text()).toBe('Invoice number: A-1');
    // An <img> sends no headers: the token may come as access_token.
    const byQuery = await service.request(pagePath(own!, 1, `?access_token=${session.token}`), {
      token: null,
    });
    expect(await byQuery.text()).toBe('Invoice number: A-1');

    // Another bucket's file, whether named under its own bucket or under the session's.
    for (const path of [
      pagePath(foreign!, 1),
      `/api/buckets/${mine.id}/files/${foreign!.id}/pages/1`,
    ]) {
      await expectProblem(await service.request(path, { token: session.token }), 404);
    }
    // A personal token sees every bucket's; no token sees none.
    expect((await getPage(foreign!, 1)).status).toBe(200);
    await expectUnauthorized(await service.request(pagePath(own!, 1), { token: null }));
    await expectUnauthorized(
      await service.request(pagePath(own!, 1, '?access_token=xses_nothing'), { token: null }),
    );
  });
});

describe('hostile page requests', () => {
  it('answers a page that is not there with 404 and a bad width with 400, doing no work', async () => {
    const bucket = await createBucket(service);
    const [pdf] = await uploaded(service, bucket.id, [
      { name: 'two.pdf', bytes: buildPdf([{ lines: ['One'] }, { lines: ['Two'] }]) },
    ]);
    for (const page of ['0', '-1', 'abc', '1e3', '1.5', '99999999999999999999', '%20', '3']) {
      const problem = await expectProblem(await getPage(pdf!, page), 404);
      expect(problem.detail).toMatch(/^two\.pdf has (2 pages; there is no page|no page)/);
    }
    for (const width of ['0', '99', '3001', 'abc', '1.5', '-600', '', '1e3']) {
      const problem = await expectProblem(await getPage(pdf!, 1, {}, `?width=${width}`), 400);
      expect(problem.errors).toEqual([{ parameter: 'width', detail: expect.any(String) }]);
    }
    // None of them drew anything.
    expect(readdirSync(join(service.dataDir, 'cache', 'pages')).join(' ')).not.toContain(
      pdf!.sha256,
    );
    await expectProblem(
      await service.request(`/api/buckets/${bucket.id}/files/no-such-file/pages/1`),
      404,
    );
  });

  it('answers a document past a limit, or damaged, with a 422 naming it', async () => {
    const parts = [
      { name: 'bomb.pdf', bytes: buildPageBombPdf() },
      { name: 'huge.png', bytes: await buildHugePng() },
      { name: 'broken.pdf', bytes: '%PDF-1.4\nthis is no PDF at all\n' },
      { name: 'tall.pdf', bytes: buildPdf([{ lines: ['Tall'] }]) },
    ];
    await withLimits({ DOCUMENT_MAX_MEGAPIXELS: '4' }, parts, async (limited, _bucket, files) => {
      const ask = (file: BucketFile, query = '') =>
        limited.request(`${file.bucket}/files/${file.id}/pages/1${query}`);
      const [bomb, huge, broken, tall] = files as [BucketFile, BucketFile, BucketFile, BucketFile];
      expect((await expectProblem(await ask(bomb), 422)).detail).toMatch(
        /^bomb\.pdf has [\d,]+ pages; the limit is 1,000 pages$/,
      );
      expect((await expectProblem(await ask(huge), 422)).detail).toBe(
        'huge.png is 16,000 x 16,000 pixels; the limit is 4 megapixels',
      );
      expect((await expectProblem(await ask(broken), 422)).detail).toBe(
        'broken.pdf could not be read as a PDF; it may be damaged',
      );
      // A Letter page 3000 pixels wide is 3000 x 3882: past 4 megapixels.
      expect((await expectProblem(await ask(tall, '?width=3000'), 422)).detail).toBe(
        'tall.pdf, page 1 is 3,000 x 3,883 pixels; the limit is 4 megapixels',
      );
      // And the service goes on answering.
      expect((await ask(tall, '?width=1000')).status).toBe(200);
    });
  });

  it('draws in the document workers: while one draws a slow page, the API, other pages and texts answer', async () => {
    const parts = [
      { name: 'slow.pdf', bytes: buildSlowPdf() },
      { name: 'quick.pdf', bytes: buildPdf([{ lines: ['Quick'] }]) },
      { name: 'notes.txt', bytes: 'Invoice number: N-1' },
    ];
    await withLimits({ DOCUMENT_TIMEOUT_SECONDS: '120' }, parts, async (limited, bucket, files) => {
      const [slow, quick, notes] = files as [BucketFile, BucketFile, BucketFile];
      // Opening it is quick: its one page is counted at upload.
      expect(slow.pageCount).toBe(1);
      const ask = (file: BucketFile, width = 1200) =>
        limited.request(`${file.bucket}/files/${file.id}/pages/1?width=${width}`, {
          headers: { Accept: 'image/png, text/plain' },
        });
      // Both page workers started, so that starting one is not what is measured.
      await Promise.all([ask(quick), ask(notes)]);

      let settled = false;
      void ask(slow).finally(() => (settled = true));
      // While it is drawn, the API answers at once, and other pages are drawn and read by
      // the other worker without waiting for it.
      const latencies: number[] = [];
      for (const path of [`/api/buckets/${bucket.id}`, `/api/buckets/${bucket.id}/files`]) {
        const started = performance.now();
        expect((await limited.request(path)).status).toBe(200);
        latencies.push(performance.now() - started);
      }
      expect(Math.max(...latencies)).toBeLessThan(1000);
      const other = await ask(quick, 800);
      expect(other.headers.get('content-type')).toBe('image/png');
      expect(await (await ask(notes)).text()).toBe('Invoice number: N-1');
      expect(settled).toBe(false);
    });
  });

  it('gives a page up at the time limit with a 422 naming the file and the limit', async () => {
    const parts = [{ name: 'slow.pdf', bytes: buildSlowPdf() }];
    await withLimits({ DOCUMENT_TIMEOUT_SECONDS: '2' }, parts, async (limited, bucket, [slow]) => {
      const drawn = await limited.request(`${slow!.bucket}/files/${slow!.id}/pages/1`);
      expect((await expectProblem(drawn, 422)).detail).toBe(
        'slow.pdf took longer than 2 s to read; the limit is 2 s per document',
      );
      expect((await limited.request(`/api/buckets/${bucket.id}/files/${slow!.id}`)).status).toBe(
        200,
      );
    });
  });

  it('counts pages at upload without waiting for page workers that are busy drawing', async () => {
    const parts = [{ name: 'slow.pdf', bytes: buildSlowPdf() }];
    await withLimits(
      { DOCUMENT_TIMEOUT_SECONDS: '120' },
      parts,
      async (limited, bucket, [slow]) => {
        // Both page workers drawing the slow page, at two widths.
        const drawings = [400, 800].map((width) =>
          limited.request(`${slow!.bucket}/files/${slow!.id}/pages/1?width=${width}`),
        );
        let settled = false;
        void Promise.allSettled(drawings).then(() => (settled = true));
        await vi.waitFor(() => expect(limited.services.pages.activity.working).toBe(2));

        const answer = await upload(limited, bucket.id, [
          { name: 'later.pdf', bytes: buildPdf([{ lines: ['One'] }, { lines: ['Two'] }]) },
        ]);
        expect(answer.status).toBe(201);
        // Not counted in time: no count, which the first page asked for will store.
        const [later] = (await answer.json()) as BucketFile[];
        expect(later!.pageCount).toBeNull();
        expect(settled).toBe(false);
      },
    );
  });

  it('counts a large PDF at upload from the parts that declare its pages, not from all its bytes', async () => {
    // 64 MB, nearly all of it one picture's bytes (never decoded to count): read whole,
    // and copied for pdf.js, they took a worker past 128 MB, which ended it uncounted.
    const picture = { jpeg: Buffer.alloc(64 * 1024 * 1024, 0x5a), width: 1, height: 1 };
    const parts = [
      {
        name: 'large.pdf',
        bytes: buildPdf([{ lines: ['One'], image: picture }, { lines: ['Two'] }]),
      },
    ];
    await withLimits(
      { DOCUMENT_MEMORY_MB: '128', MAX_UPLOAD_BYTES: String(80 * 1024 * 1024) },
      parts,
      async (_limited, _bucket, [large]) => {
        expect(large!.pageCount).toBe(2);
      },
    );
  });
});
