/**
 * The pages of a bucket's files, for review beside the data read from them.
 *
 * - PDFs and images are shown as pictures: a page drawn at one of a few fixed widths (the
 *   first at least as wide as asked, so a page has six sizes at most), as WebP or PNG,
 *   kept on disk under DATA_DIR/cache/pages by the file's content, the page, the width
 *   and the format, so a page is drawn once whoever asks and wherever the file was copied;
 *   within a budget (PAGE_CACHE_MB), the pictures used least recently going first
 *   (page-cache.ts).
 * - Text documents are shown as their text: the page's text as a run read it (its content
 *   options), so that the offsets of the run's sources index into it.
 * - How many pages a file has is counted at upload (`countAtUpload`): by its format where
 *   that settles it or its bytes tell (plain text's form feeds), else by opening it (PDF,
 *   XLSX) in a document worker. A file that cannot be opened (or not soon enough) has no count;
 *   the first page request that can, stores it.
 *
 * Drawing and reading happen in a pool of document workers of their own (see
 * ../engine/isolation/), under the document limits and a shorter time: a person waits for
 * a page, and a run's long read must not keep a page waiting. The workers' turns are shared
 * between tokens (page-queue.ts), a token may have `pageRequestsPerToken` page requests
 * under way, and work is done only while someone waits for it: the request's signal takes
 * it out of the line, or stops the worker drawing it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pagePictureWidths, pictureWidthFor } from '../../contract/review.js';
import { DocumentPool } from '../engine/isolation/pool.js';
import { type DocumentLimits } from '../engine/limits.js';
import { wordsOfPage, type PageWord } from '../engine/geometry.js';
import { countPagesAtHand, textOnly, type PictureFormat } from '../engine/pages.js';
import { ExtractionError, type ContentOptions, type SourceFile } from '../engine/types.js';
import { TooManyRequestsError } from '../errors.js';
import type { Db } from '../store/database.js';
import type { FileRow } from '../store/schema.js';
import { PageCache, type CachedPage } from './page-cache.js';
import { FairQueue, SharedWork } from './page-queue.js';
import type { FileStore } from './storage.js';
import type { ReceivedFile } from './uploads.js';

export { pageKindOf, textOnly, type PageKind, type PictureFormat } from '../engine/pages.js';

/**
 * Picture widths: the bounds a width asked for must keep, the default, and the few widths
 * pictures are drawn at (a width asked for is drawn at the first of them at least as wide;
 * the contract's list, which the interface asks for too).
 */
export const pictureWidths = {
  default: 1200,
  min: 100,
  max: pagePictureWidths[pagePictureWidths.length - 1]!,
  drawn: pagePictureWidths,
} as const;

/** How long drawing or reading one page may take, at most (the document limit if lower). */
const pageTimeMs = 30_000;
/**
 * How long an upload waits for a file's pages to be counted, a worker included: the page
 * workers may be busy drawing someone's hostile PDF, and an upload is not held up by it.
 */
const countTimeMs = 5_000;
/** Document workers that draw pages, beside the runs' own. */
const pageWorkers = 2;
/**
 * Page requests one token may have under way at once; beyond them a 429. Six is what a
 * browser opens to one host over HTTP/1.1, so a page of `<img>`s never meets it, while a
 * script asking for every page at once waits its turn instead of filling the line.
 */
export const pageRequestsPerToken = 6;
/** Counting at upload takes its turns as one asker of its own, beside the sessions. */
const uploadsAsker = 'counting at upload';

/** Who asks for a page: the token it comes with, and the signal that says they left. */
export interface PageAsker {
  tokenId: string;
  signal: AbortSignal;
}

/** What a page request comes to; the edge turns each into its answer. */
export type PageAnswer =
  /** The picture, opened (it stays readable if the cache lets it go meanwhile). */
  | { kind: 'picture'; picture: CachedPage; format: PictureFormat }
  | { kind: 'text'; text: string }
  /** The words printed on a page that is a picture, each with its box. */
  | { kind: 'words'; words: PageWord[] }
  /** The file has fewer pages than the one asked for. */
  | { kind: 'beyond'; pageCount: number }
  /** The file cannot be shown: damaged, or past a limit; the message names which. */
  | { kind: 'unreadable'; message: string };

type Unreadable = Extract<PageAnswer, { kind: 'unreadable' }>;
/** What a picture's drawing comes to, for all who wait for it. */
type Drawing = { kind: 'drawn' } | Extract<PageAnswer, { kind: 'beyond' }> | Unreadable;

export interface FilePagesOptions {
  db: Db;
  storage: FileStore;
  dataDir: string;
  limits: DocumentLimits;
  /** The most DATA_DIR/cache/pages may hold, in bytes (PAGE_CACHE_MB). */
  cacheBytes: number;
}

export class FilePages {
  readonly #db: Db;
  readonly #storage: FileStore;
  readonly #cacheDir: string;
  readonly #limits: DocumentLimits;
  readonly #cache: PageCache;
  #pool: DocumentPool | undefined;
  /** The page workers' turns, shared between tokens (page-queue.ts). */
  readonly #queue = new FairQueue(pageWorkers);
  /** Pictures being drawn now, by name: a second request for one waits for the first. */
  readonly #drawing = new SharedWork<Drawing>();
  /** Page requests under way, by token. */
  readonly #inFlight = new Map<string, number>();
  #drawn = 0;

  constructor(options: FilePagesOptions) {
    this.#db = options.db;
    this.#storage = options.storage;
    this.#cacheDir = join(options.dataDir, 'cache');
    this.#limits = { ...options.limits, timeMs: Math.min(options.limits.timeMs, pageTimeMs) };
    this.#cache = new PageCache(join(this.#cacheDir, 'pages'), options.cacheBytes);
  }

  /** The workers start with the first page that needs one (most uploads need none). */
  get #workers(): DocumentPool {
    this.#pool ??= new DocumentPool({ size: pageWorkers, limits: this.#limits });
    return this.#pool;
  }

  /**
   * What the page workers are doing: pieces of work `waiting` for a turn and `working`,
   * and how many pictures were `drawn` (handed to a worker to draw) since the start.
   */
  get activity(): { waiting: number; working: number; drawn: number } {
    return { waiting: this.#queue.waiting, working: this.#queue.running, drawn: this.#drawn };
  }

  /** The width a picture is drawn at for a width asked for (already within the bounds). */
  static pictureWidth(asked: number): number {
    return pictureWidthFor(asked);
  }

  /**
   * How many pages a just-received file has, or null when it cannot be opened (a damaged
   * PDF, a limit passed: the pages route says which when asked) or not within
   * `countTimeMs` (the first page asked for then counts them).
   */
  async countAtUpload(file: ReceivedFile): Promise<number | null> {
    const atHand = await countPagesAtHand(sourceFile(file.tempPath, file));
    if (atHand !== undefined) return atHand;
    const deadline = AbortSignal.timeout(countTimeMs);
    return this.#queue
      .run(uploadsAsker, deadline, (signal) =>
        this.#workers.countPages(
          { file: sourceFile(file.tempPath, file), cacheDir: this.#cacheDir },
          signal,
        ),
      )
      .catch((error: unknown) => {
        if (error instanceof ExtractionError || deadline.aborted) return null;
        throw error;
      });
  }

  /**
   * Page `page` (from 1) of a PDF or an image as a picture at least `width` pixels wide
   * (the first of the drawn widths that is). Drawn only while someone waits for it: when
   * every asker of a picture has left, its drawing is dropped from the line, or given up.
   */
  picture(
    row: FileRow,
    page: number,
    width: number,
    format: PictureFormat,
    asker: PageAsker,
  ): Promise<PageAnswer> {
    return this.#admitted(asker, async () => {
      const name = `${row.sha256}-${page}-${pictureWidthFor(width)}.${format}`;
      // Twice at most: a picture drawn for us may be let go before we open it only when
      // the budget is smaller than the pictures being drawn at once.
      for (let attempt = 0; attempt < 2; attempt++) {
        const cached = await this.#cache.open(name);
        if (cached) return { kind: 'picture', picture: cached, format };
        const drawing = await this.#drawing.join(name, asker.signal, (signal) =>
          this.#queue.run(asker.tokenId, signal, (turn) =>
            this.#draw(row, page, pictureWidthFor(width), format, name, turn),
          ),
        );
        if (drawing.kind !== 'drawn') return drawing;
      }
      throw new Error(`The picture ${name} was let go as soon as it was drawn.`);
    });
  }

  /** Page `page` (from 1) of a file as the text a run with `options` read. */
  text(row: FileRow, page: number, options: ContentOptions, asker: PageAsker): Promise<PageAnswer> {
    return this.#admitted(asker, () =>
      this.#queue.run(asker.tokenId, asker.signal, (signal) =>
        this.#withFile(row, signal, async (file) => {
          const { pageCount, text } = await this.#workers.pageText(
            { file, page, options, cacheDir: this.#cacheDir },
            signal,
          );
          await this.#remember(row, pageCount);
          return text === undefined ? { kind: 'beyond', pageCount } : { kind: 'text', text };
        }),
      ),
    );
  }

  /**
   * The words printed on page `page` of a PDF or an image, with their boxes: the PDF's text
   * layer, or OCR's words for a scan (the engine's cache keeps what OCR read). Kept in the
   * page cache beside the page's pictures, by the file's content, so a page's words are
   * found once.
   */
  words(row: FileRow, page: number, asker: PageAsker): Promise<PageAnswer> {
    return this.#admitted(asker, async () => {
      const name = `${row.sha256}-${page}.words.json`;
      const cached = await this.#cache.open(name);
      if (cached) {
        try {
          const words = JSON.parse(await cached.handle.readFile('utf8')) as PageWord[];
          return { kind: 'words', words };
        } catch {
          // A damaged copy: read it again.
        } finally {
          await cached.handle.close();
        }
      }
      return this.#queue.run(asker.tokenId, asker.signal, (signal) =>
        this.#withFile(row, signal, async (file) => {
          const { pageCount, text, boxes } = await this.#workers.pageText(
            { file, page, options: textOnly, cacheDir: this.#cacheDir },
            signal,
          );
          await this.#remember(row, pageCount);
          if (text === undefined) return { kind: 'beyond', pageCount };
          const words = wordsOfPage(text, boxes ?? []);
          await mkdir(this.#cache.dir, { recursive: true });
          const temporary = join(this.#cache.dir, `${name}.${randomUUID()}.tmp`);
          try {
            await writeFile(temporary, JSON.stringify(words));
            await rename(temporary, join(this.#cache.dir, name));
          } finally {
            await rm(temporary, { force: true });
          }
          await this.#cache.add(name);
          return { kind: 'words', words };
        }),
      );
    });
  }

  /** The content sweep removed entries: the page cache reads its directory again. */
  cacheSwept(): void {
    this.#cache.forgetIndex();
  }

  async close(): Promise<void> {
    await this.#pool?.close();
    this.#pool = undefined;
  }

  /**
   * Runs `work` as one of the page requests of the asker's token, or refuses it when the
   * token has `pageRequestsPerToken` under way already.
   */
  async #admitted(asker: PageAsker, work: () => Promise<PageAnswer>): Promise<PageAnswer> {
    const under = this.#inFlight.get(asker.tokenId) ?? 0;
    if (under >= pageRequestsPerToken)
      throw new TooManyRequestsError(
        `This token has ${pageRequestsPerToken} page requests under way, the most it may; ` +
          'ask again once one of them is answered.',
        1,
      );
    this.#inFlight.set(asker.tokenId, under + 1);
    try {
      return await work();
    } finally {
      const left = this.#inFlight.get(asker.tokenId)! - 1;
      if (left === 0) this.#inFlight.delete(asker.tokenId);
      else this.#inFlight.set(asker.tokenId, left);
    }
  }

  /** Draws a picture into the page cache, as `name`, in a worker's turn. */
  async #draw(
    row: FileRow,
    page: number,
    width: number,
    format: PictureFormat,
    name: string,
    signal: AbortSignal,
  ): Promise<Drawing> {
    const drawing = await this.#withFile<Drawing>(row, signal, async (file) => {
      await mkdir(this.#cache.dir, { recursive: true });
      // Named here, so that what a worker ended mid-write left is removed all the same.
      const temporary = join(this.#cache.dir, `${name}.${randomUUID()}.tmp`);
      this.#drawn++;
      try {
        const { pageCount, written } = await this.#workers.renderPage(
          { file, page, width, format, output: join(this.#cache.dir, name), temporary },
          signal,
        );
        await this.#remember(row, pageCount);
        return written ? { kind: 'drawn' } : { kind: 'beyond', pageCount };
      } finally {
        await rm(temporary, { force: true });
      }
    });
    if (drawing.kind === 'drawn') await this.#cache.add(name);
    return drawing;
  }

  /** Runs `work` on a local copy of the file; a document problem becomes `unreadable`. */
  async #withFile<T extends { kind: string }>(
    row: FileRow,
    signal: AbortSignal,
    work: (file: SourceFile) => Promise<T>,
  ): Promise<T | Unreadable> {
    const copy = await this.#storage.localCopy(row.bucket_id, row.id, signal);
    try {
      return await work(
        sourceFile(copy.path, { name: row.name, mediaType: row.media_type, sha256: row.sha256 }),
      );
    } catch (error) {
      if (error instanceof ExtractionError) return { kind: 'unreadable', message: error.message };
      throw error;
    } finally {
      await copy.release();
    }
  }

  /** Stores a count learnt by opening the file, for a file that had none. */
  async #remember(row: FileRow, pageCount: number): Promise<void> {
    if (row.page_count === pageCount) return;
    await this.#db
      .updateTable('files')
      .set({ page_count: pageCount })
      .where('id', '=', row.id)
      .execute();
  }
}

function sourceFile(
  path: string,
  file: { name: string; mediaType: string; sha256: string },
): SourceFile {
  return { id: file.sha256, name: file.name, path, mediaType: file.mediaType, sha256: file.sha256 };
}
