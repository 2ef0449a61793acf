/**
 * The pages of a bucket's files, for review beside the data read from them.
 *
 * - PDFs and images are shown as pictures: a page drawn `width` pixels wide (rounded up to
 *   a multiple of `widthStep`, so a page has a bounded number of sizes), as WebP or PNG,
 *   kept on disk under DATA_DIR/cache/pages by the file's content, the page, the width
 *   and the format, so a page is drawn once whoever asks and wherever the file was copied.
 * - Text documents are shown as their text: the page's text as a run read it (its content
 *   options), so that the offsets of the run's sources index into it.
 * - How many pages a file has is counted at upload (`countAtUpload`): by its type where
 *   that settles it, by its form feeds for plain text, else by opening it (PDF, XLSX) in
 *   a document worker. A file that cannot be opened (or not soon enough) has no count;
 *   the first page request that can, stores it.
 *
 * Drawing and reading happen in a pool of document workers of their own (see
 * ../engine/isolation/), under the document limits and a shorter time: a person waits for
 * a page, and a run's long read must not keep a page waiting.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DocumentPool } from '../engine/isolation/pool.js';
import { type DocumentLimits } from '../engine/isolation/limits.js';
import { wordsOfPage, type PageWord } from '../engine/geometry.js';
import { countTextPages, fixedPageCount, textOnly, type PictureFormat } from '../engine/pages.js';
import { ExtractionError, type ContentOptions, type SourceFile } from '../engine/types.js';
import type { Db } from '../store/database.js';
import type { FileRow } from './files.js';
import type { FileStore } from './storage.js';
import type { ReceivedFile } from './uploads.js';

export { pageKindOf, textOnly, type PageKind, type PictureFormat } from '../engine/pages.js';

/** Picture widths: the default, the bounds, and the step a width is rounded up to. */
export const pictureWidths = { default: 1200, min: 100, max: 3000, step: 100 } as const;

/** How long drawing or reading one page may take, at most (the document limit if lower). */
const pageTimeMs = 30_000;
/**
 * How long an upload waits for a file's pages to be counted, a worker included: the page
 * workers may be busy drawing someone's hostile PDF, and an upload is not held up by it.
 */
const countTimeMs = 5_000;
/** Document workers that draw pages, beside the runs' own. */
const pageWorkers = 2;

/** What a page request comes to; the edge turns each into its answer. */
export type PageAnswer =
  /** The picture, on disk. */
  | { kind: 'picture'; path: string; format: PictureFormat }
  | { kind: 'text'; text: string }
  /** The words printed on a page that is a picture, each with its box. */
  | { kind: 'words'; words: PageWord[] }
  /** The file has fewer pages than the one asked for. */
  | { kind: 'beyond'; pageCount: number }
  /** The file cannot be shown: damaged, or past a limit; the message names which. */
  | { kind: 'unreadable'; message: string };

export interface FilePagesOptions {
  db: Db;
  storage: FileStore;
  dataDir: string;
  limits: DocumentLimits;
}

export class FilePages {
  readonly #db: Db;
  readonly #storage: FileStore;
  readonly #cacheDir: string;
  readonly #limits: DocumentLimits;
  #pool: DocumentPool | undefined;
  /** Pictures being drawn now, by path: a second request for one waits for the first. */
  readonly #drawing = new Map<string, Promise<PageAnswer>>();

  constructor(options: FilePagesOptions) {
    this.#db = options.db;
    this.#storage = options.storage;
    this.#cacheDir = join(options.dataDir, 'cache');
    this.#limits = { ...options.limits, timeMs: Math.min(options.limits.timeMs, pageTimeMs) };
  }

  /** The workers start with the first page that needs one (most uploads need none). */
  get #workers(): DocumentPool {
    this.#pool ??= new DocumentPool({ size: pageWorkers, limits: this.#limits });
    return this.#pool;
  }

  /** The width a picture is drawn at for a width asked for (already within the bounds). */
  static pictureWidth(asked: number): number {
    return Math.min(
      pictureWidths.max,
      Math.ceil(Math.max(asked, pictureWidths.min) / pictureWidths.step) * pictureWidths.step,
    );
  }

  /**
   * How many pages a just-received file has, or null when it cannot be opened (a damaged
   * PDF, a limit passed: the pages route says which when asked) or not within
   * `countTimeMs` (the first page asked for then counts them).
   */
  async countAtUpload(file: ReceivedFile): Promise<number | null> {
    const fixed = fixedPageCount(file.mediaType);
    if (fixed !== undefined) return fixed;
    if (file.mediaType === 'text/plain') return countTextPages(file.tempPath);
    const deadline = AbortSignal.timeout(countTimeMs);
    const counting = this.#workers
      .countPages({ file: sourceFile(file.tempPath, file), cacheDir: this.#cacheDir }, deadline)
      .catch((error: unknown) => {
        if (error instanceof ExtractionError || deadline.aborted) return null;
        throw error;
      });
    // The pool sees the deadline only once a worker takes the task (it then gives it up):
    // the wait for one is cut short here.
    const givenUp = new Promise<null>((resolve) =>
      deadline.addEventListener('abort', () => resolve(null), { once: true }),
    );
    return Promise.race([counting, givenUp]);
  }

  /** Page `page` (from 1) of a PDF or an image as a picture `width` pixels wide. */
  async picture(
    row: FileRow,
    page: number,
    width: number,
    format: PictureFormat,
  ): Promise<PageAnswer> {
    const drawnWidth = FilePages.pictureWidth(width);
    const path = join(this.#cacheDir, 'pages', `${row.sha256}-${page}-${drawnWidth}.${format}`);
    if (await exists(path)) return { kind: 'picture', path, format };
    let drawing = this.#drawing.get(path);
    if (!drawing) {
      // Not stopped when the asker leaves: others may be waiting for the same picture, and
      // once drawn it is kept for the next.
      drawing = this.#withFile(row, undefined, async (file) => {
        await mkdir(join(this.#cacheDir, 'pages'), { recursive: true });
        const { pageCount, written } = await this.#workers.renderPage({
          file,
          page,
          width: drawnWidth,
          format,
          output: path,
        });
        await this.#remember(row, pageCount);
        return written ? { kind: 'picture', path, format } : { kind: 'beyond', pageCount };
      }).finally(() => this.#drawing.delete(path));
      this.#drawing.set(path, drawing);
    }
    return drawing;
  }

  /** Page `page` (from 1) of a file as the text a run with `options` read. */
  async text(
    row: FileRow,
    page: number,
    options: ContentOptions,
    signal?: AbortSignal,
  ): Promise<PageAnswer> {
    return this.#withFile(row, signal, async (file) => {
      const { pageCount, text } = await this.#workers.pageText(
        { file, page, options, cacheDir: this.#cacheDir },
        signal,
      );
      await this.#remember(row, pageCount);
      return text === undefined ? { kind: 'beyond', pageCount } : { kind: 'text', text };
    });
  }

  /**
   * The words printed on page `page` of a PDF or an image, with their boxes: the PDF's text
   * layer, or OCR's words for a scan (the engine's cache keeps what OCR read). Kept on disk
   * beside the page's pictures, by the file's content, so a page's words are found once.
   */
  async words(row: FileRow, page: number, signal?: AbortSignal): Promise<PageAnswer> {
    const path = join(this.#cacheDir, 'pages', `${row.sha256}-${page}.words.json`);
    try {
      return { kind: 'words', words: JSON.parse(await readFile(path, 'utf8')) as PageWord[] };
    } catch {
      // Not read yet (or a damaged copy): read it again.
    }
    return this.#withFile(row, signal, async (file) => {
      const { pageCount, text, boxes } = await this.#workers.pageText(
        { file, page, options: textOnly, cacheDir: this.#cacheDir },
        signal,
      );
      await this.#remember(row, pageCount);
      if (text === undefined) return { kind: 'beyond', pageCount };
      const words = wordsOfPage(text, boxes ?? []);
      await mkdir(join(this.#cacheDir, 'pages'), { recursive: true });
      const temporary = `${path}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, JSON.stringify(words));
        await rename(temporary, path);
      } catch (error) {
        // Cut short (a full disk): nothing half-written stays in the cache.
        await rm(temporary, { force: true });
        throw error;
      }
      return { kind: 'words', words };
    });
  }

  async close(): Promise<void> {
    await this.#pool?.close();
    this.#pool = undefined;
  }

  /** Runs `work` on a local copy of the file; a document problem becomes `unreadable`. */
  async #withFile(
    row: FileRow,
    signal: AbortSignal | undefined,
    work: (file: SourceFile) => Promise<PageAnswer>,
  ): Promise<PageAnswer> {
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

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isFile(),
    () => false,
  );
}
