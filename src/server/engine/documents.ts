/**
 * Reads the files of a run into pages of text (and pictures, when asked), whatever their
 * type, and keeps what it read in a cache keyed by the file's content and the options, so
 * that a resumed or repeated run does not render and OCR the same scan again.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkCharacters, defaultDocumentLimits, type DocumentLimits } from './limits.js';
import { shiftCodes } from './codes/page-codes.js';
import { shiftBoxes } from './geometry.js';
import { pageImageMarker } from './markers.js';
import { formatOf } from './formats/index.js';
import {
  ExtractionError,
  type ContentOptions,
  type PageProgress,
  type PageText,
  type SourceFile,
} from './types.js';

/**
 * Bump when a change to the readers changes what they produce, so cached pages from the
 * older readers are not reused.
 */
const readerVersion = 7;

export interface ReadIo {
  cacheDir: string;
  signal?: AbortSignal;
  /** What one document may cost; the defaults when not given. */
  limits?: DocumentLimits;
  /** Told when reading moves on to the next of `files`. */
  onFile?: (file: SourceFile) => void;
  /** Pages read of `files`, over all of them: the total grows as each file is opened. */
  onPage?: PageProgress;
}

export async function readDocuments(
  files: SourceFile[],
  options: ContentOptions,
  io: ReadIo,
): Promise<PageText[]> {
  if (!options.includeText && !options.includePageImages && !options.includeEmbeddedImages) {
    throw new ExtractionError(
      'There is nothing to extract from: includeText is off and no pictures are included. Turn on includeText or includePageImages.',
      'misconfigured',
    );
  }
  const pages: PageText[] = [];
  for (const file of files) {
    io.signal?.throwIfAborted();
    io.onFile?.(file);
    // The pages of the files before this one are read already.
    const before = pages.length;
    const onPage =
      io.onPage && ((read: number, total: number) => io.onPage!(before + read, before + total));
    pages.push(...(await readCached(file, options, { ...io, onPage })));
  }
  return pages;
}

async function readCached(
  file: SourceFile,
  options: ContentOptions,
  io: ReadIo,
): Promise<PageText[]> {
  const optionsKey = createHash('sha256')
    .update(
      JSON.stringify([
        readerVersion,
        options.includeText,
        options.includeEmbeddedImages,
        options.markEmbeddedImages,
        options.includePageImages,
        options.markPageImages,
        // OCR in the languages named, or in those each page says (the key of old entries).
        ...(options.documentLanguages?.length ? [[...options.documentLanguages].sort()] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const path = join(io.cacheDir, `${file.sha256}-${optionsKey}.json`);
  const limits = io.limits ?? defaultDocumentLimits;
  const cached = await readFile(path, 'utf8').then(
    (text) => JSON.parse(text) as Omit<PageText, 'fileId' | 'fileName'>[],
    () => undefined,
  );
  // The cache is keyed by content, so one entry serves every copy of the file; the name
  // and id are this copy's. Limits may have been lowered since it was written.
  if (Array.isArray(cached)) {
    checkCharacters(file.name, characterCount(cached), limits);
    io.onPage?.(cached.length, cached.length);
    return cached.map((page) => ({ fileId: file.id, fileName: file.name, ...page }));
  }

  const pages = await readFileContent(file, options, limits, io.signal, io.onPage);
  checkCharacters(file.name, characterCount(pages), limits);
  await mkdir(io.cacheDir, { recursive: true });
  // Unique per write: runs reading the same new file at once each write their own
  // temporary file, and the last rename wins with the same content.
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(
      temporary,
      JSON.stringify(pages.map(({ fileId: _id, fileName: _name, ...page }) => page)),
    );
    await rename(temporary, path);
  } catch (error) {
    // Cut short (a full disk): nothing half-written stays in the cache.
    await rm(temporary, { force: true });
    throw error;
  }
  return pages;
}

function characterCount(pages: readonly { text: string }[]): number {
  return pages.reduce((sum, page) => sum + page.text.length, 0);
}

async function readFileContent(
  file: SourceFile,
  options: ContentOptions,
  limits: DocumentLimits,
  signal?: AbortSignal,
  onPage?: PageProgress,
): Promise<PageText[]> {
  const format = formatOf(file.mediaType);
  if (!format)
    throw new ExtractionError(
      `${file.name} is of a type we cannot read (${file.mediaType})`,
      'unsupported_type',
    );
  const bytes = await readFile(file.path);
  const context = { options, limits, signal, onPage };
  if (format.finishesPages) return format.read(bytes, file, context);
  const pages = await format.read(bytes, file, context);
  onPage?.(pages.length, pages.length);
  return pages.map((page, index) => {
    let text = options.includeText ? page.text : '';
    let boxes = page.boxes;
    let codes = page.codes;
    let images = page.images.filter(
      (image) => image.kind === 'page' || options.includeEmbeddedImages,
    );
    if (!options.includeText) {
      // Without the text, an embedded picture's marker is all that would remain of it.
      images = images.map((image) => ({ ...image, offset: 0 }));
      text = '';
    }
    if (options.markPageImages && images.some((image) => image.kind === 'page')) {
      const marker = pageImageMarker(`${file.name}, page ${index + 1}`);
      text = text === '' ? marker : `${marker}\n${text}`;
      images = images.map((image) =>
        image.kind === 'page' ? image : { ...image, offset: image.offset + marker.length + 1 },
      );
      if (boxes) boxes = shiftBoxes(boxes, marker.length + 1);
      if (codes) codes = shiftCodes(codes, marker.length + 1);
    }
    const result: PageText = { fileId: file.id, fileName: file.name, page: index + 1, text };
    if (images.length > 0) result.images = images;
    if (boxes) result.boxes = boxes;
    if (codes && codes.length > 0) result.codes = codes;
    return result;
  });
}
