/**
 * The document workers against hostile files: each bomb fails with a plain error naming the
 * file and the limit, in a worker process, and the process that asked (this one) goes on.
 * Memory and time are enforced from outside, by ending the worker; a crash is reported as
 * one, and the next task gets a fresh worker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildEncryptedPdf, renderTextImage } from '../testing/build-documents.js';
import { textContent } from '../testing/invoice-fixtures.js';
import { storeSourceFile } from '../testing/source-files.js';
import { ExtractionError, type SourceFile } from '../types.js';
import { defaultDocumentLimits, type DocumentLimits } from '../limits.js';
import { DocumentPool, DocumentWorkerCrash } from './pool.js';
import {
  buildDocxBomb,
  buildHugePng,
  buildPageBombPdf,
  buildXlsxWideRows,
} from './testing/hostile-documents.js';

const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let dir: string;
const pools: DocumentPool[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'document-pool-'));
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function pool(limits: Partial<DocumentLimits> = {}): DocumentPool {
  const created = new DocumentPool({ size: 1, limits: { ...defaultDocumentLimits, ...limits } });
  pools.push(created);
  return created;
}

const store = (name: string, mediaType: string, bytes: Uint8Array) =>
  storeSourceFile(dir, name, mediaType, bytes);

function prepare(workers: DocumentPool, file: SourceFile, signal?: AbortSignal) {
  return workers.prepare(
    { files: [file], options: textContent, cacheDir: join(dir, 'cache'), chunkSize: 4000 },
    signal,
  );
}

describe('hostile documents fail with their limit, named', () => {
  it('a DOCX whose document.xml inflates to 100 MB', async () => {
    const bomb = buildDocxBomb(100);
    expect(bomb.length).toBeLessThan(400_000);
    // The error carries the file, so that one file's failure can be told from its run's.
    await expect(prepare(pool(), await store('bomb.docx', docx, bomb))).rejects.toMatchObject({
      message: 'bomb.docx unpacks to more than 64 MB; the limit for an office file is 64 MB',
      fileName: 'bomb.docx',
      // The code crosses from the worker with the message.
      code: 'too_large',
    });
  });

  it('an XLSX with a cell in column XFD on 2,000 rows', async () => {
    const wide = buildXlsxWideRows(2000);
    expect(wide.length).toBeLessThan(20_000);
    await expect(prepare(pool(), await store('wide.xlsx', xlsx, wide))).rejects.toThrow(
      'wide.xlsx holds more than 10,000,000 characters of text; the limit is 10,000,000 characters',
    );
  });

  it('a PNG of 16000 x 16000 pixels', async () => {
    const png = await buildHugePng(16000);
    expect(png.length).toBeLessThan(400_000);
    await expect(prepare(pool(), await store('scan.png', 'image/png', png))).rejects.toThrow(
      'scan.png is 16,000 x 16,000 pixels; the limit is 50 megapixels',
    );
  });

  it('a PDF of a kilobyte declaring 1,000,000 pages', async () => {
    const pdf = buildPageBombPdf(6);
    expect(pdf.length).toBeLessThan(2048);
    await expect(prepare(pool(), await store('pages.pdf', 'application/pdf', pdf))).rejects.toThrow(
      'pages.pdf has 1,000,000 pages; the limit is 1,000 pages',
    );
  });
});

describe('a document the worker cannot read', () => {
  it('fails with its reason and its code, as read in the worker', async () => {
    const locked = buildEncryptedPdf(['Invoice number: SECRET-7'], 'hunter2');
    const error = await prepare(pool(), await store('locked.pdf', 'application/pdf', locked)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({
      message: 'locked.pdf is protected by a password; upload it without one',
      code: 'password_protected',
      fileName: 'locked.pdf',
    });
  });
});

describe('limits kept from outside the worker', () => {
  it('ends a worker that passes its memory limit, names the file, and goes on with a new one', async () => {
    // With the characters limit out of the way, the XLSX reader itself runs out of memory.
    const workers = pool({ memoryMb: 300, characters: 1_000_000_000 });
    const wide = await store('memory.xlsx', xlsx, buildXlsxWideRows(2000));
    await expect(prepare(workers, wide)).rejects.toMatchObject({
      message:
        'memory.xlsx needed more than 300 MB of memory to read; the limit is 300 MB per document',
      fileName: 'memory.xlsx',
      code: 'too_large',
    });
    const note = await store('note.txt', 'text/plain', Buffer.from('Invoice number: 7'));
    const chunks = await prepare(workers, note);
    expect(chunks.map((chunk) => chunk.text)).toEqual(['Invoice number: 7']);
  });

  it('ends a worker that takes longer than the time limit', async () => {
    const image = await renderTextImage(['Invoice number 4711', 'Total 12.50'], {
      width: 1200,
      height: 800,
    });
    const workers = pool({ timeMs: 1000 });
    await expect(
      prepare(workers, await store('slow.png', 'image/png', image)),
    ).rejects.toMatchObject({
      message: 'slow.png took longer than 1 s to read; the limit is 1 s per document',
      code: 'too_large',
    });
  });

  it('reports a worker that dies as a crash of the file it was reading', async () => {
    const workers = pool();
    const image = await renderTextImage(['Invoice number 4711'], { width: 1200, height: 800 });
    const reading = prepare(workers, await store('crash.png', 'image/png', image));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const pid of workers.pids) process.kill(pid, 'SIGSEGV');
    const error = await reading.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocumentWorkerCrash);
    expect((error as Error).message).toBe(
      'crash.png stopped the document reader (it ended with SIGSEGV); the file may be damaged',
    );
    expect((error as DocumentWorkerCrash).code).toBe('damaged_file');
  });

  it('stops a task within a second of its abort', async () => {
    const workers = pool();
    const image = await renderTextImage(['Invoice number 4711'], { width: 1600, height: 1200 });
    const controller = new AbortController();
    const reading = prepare(
      workers,
      await store('aborted.png', 'image/png', image),
      controller.signal,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const aborted = performance.now();
    controller.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - aborted).toBeLessThan(1500);
  });

  it('leaves no process behind when closed', async () => {
    const workers = pool();
    await prepare(workers, await store('one.txt', 'text/plain', Buffer.from('Total 5')));
    const [pid] = workers.pids;
    expect(pid).toBeGreaterThan(0);
    await workers.close();
    expect(() => process.kill(pid!, 0)).toThrow();
  });
});
