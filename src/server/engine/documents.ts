/**
 * Reads the files of a run into pages of text (and pictures, when asked), whatever their
 * type, and keeps what it read in a cache keyed by the file's content and the options, so
 * that a resumed or repeated run does not render and OCR the same scan again.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkCharacters,
  checkImage,
  checkPixels,
  checkUnpackedSize,
  defaultDocumentLimits,
  imageDimensions,
  type DocumentLimits,
} from './limits.js';
import { shiftBoxes } from './geometry.js';
import { pageImageMarker } from './markers.js';
import { readDocx, readXlsx } from './formats/office.js';
import { recognizeImage } from './ocr/ocr.js';
import { readPdf } from './formats/pdf.js';
import { readCsv, readHtml, readMarkdown, readPlainText, type TextPage } from './formats/text-formats.js';
import {
  ExtractionError,
  type ContentOptions,
  type PageImage,
  type PageProgress,
  type PageText,
  type SourceFile,
  type TextBox,
} from './types.js';

/** A page as a reader gives it; pages that are pictures (images) know where their words are. */
type ReadPage = TextPage & { boxes?: TextBox[] };

/**
 * Bump when a change to the readers changes what they produce, so cached pages from the
 * older readers are not reused.
 */
const readerVersion = 5;

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
  const bytes = await readFile(file.path);
  if (file.mediaType === 'application/pdf')
    return readPdf(bytes, file, options, signal, limits, onPage);
  const pages = await readByType(bytes, file, options, limits, signal, onPage);
  onPage?.(pages.length, pages.length);
  return pages.map((page, index) => {
    let text = options.includeText ? page.text : '';
    let boxes = page.boxes;
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
    }
    const result: PageText = { fileId: file.id, fileName: file.name, page: index + 1, text };
    if (images.length > 0) result.images = images;
    if (boxes) result.boxes = boxes;
    return result;
  });
}

async function readByType(
  bytes: Buffer,
  file: SourceFile,
  options: ContentOptions,
  limits: DocumentLimits,
  signal?: AbortSignal,
  onPage?: PageProgress,
): Promise<ReadPage[]> {
  const text = () => {
    const decoded = bytes.toString('utf8');
    checkCharacters(file.name, decoded.length, limits);
    return decoded;
  };
  const withImageSizes = (pages: TextPage[]) => withCheckedImageSizes(pages, limits);
  switch (file.mediaType) {
    case 'image/png':
    case 'image/jpeg':
    case 'image/webp':
    case 'image/tiff':
      // One page, which OCR may take seconds to read.
      onPage?.(0, 1);
      return [await readImage(bytes, file, options, limits, signal)];
    case 'text/csv':
      return readCsv(text());
    case 'text/markdown':
      return readMarkdown(text(), file.name, options);
    case 'text/html':
      return withImageSizes(readHtml(text(), file.name, options));
    case 'text/plain':
      return readPlainText(text());
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      checkUnpackedSize(file.name, bytes, limits);
      return withImageSizes(await readDocx(bytes, file.name, options));
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
      checkUnpackedSize(file.name, bytes, limits);
      return withImageSizes(await readXlsx(bytes, file.name, options, limits));
    default:
      throw new ExtractionError(
        `${file.name} is of a type we cannot read (${file.mediaType})`,
        'unsupported_type',
      );
  }
}

/**
 * An image file is one page: its text is what OCR finds, and its page picture is the file
 * itself. Vision APIs take PNG, JPEG and WebP; a TIFF is read by OCR only.
 */
async function readImage(
  bytes: Buffer,
  file: SourceFile,
  options: ContentOptions,
  limits: DocumentLimits,
  signal?: AbortSignal,
): Promise<ReadPage> {
  checkImage(file.name, bytes, limits);
  let text = '';
  let boxes: TextBox[] = [];
  if (options.includeText) {
    ({ text, boxes } = await recognizeImage(bytes, signal).catch((error: unknown) => {
      // tesseract.js rejects an image it cannot decode with its message, not an Error.
      if (error instanceof Error) throw error;
      throw new ExtractionError(
        `${file.name} could not be read as an image; it may be damaged`,
        'damaged_file',
      );
    }));
    if (text.trim() === '')
      throw new ExtractionError(`${file.name} is a picture and OCR found no text in it`, 'no_text');
  }
  const images: PageImage[] = [];
  if (options.includePageImages && file.mediaType !== 'image/tiff') {
    const size = imageDimensions(bytes) ?? { width: 0, height: 0 };
    images.push({
      kind: 'page',
      label: `${file.name}, page 1`,
      mediaType: file.mediaType as PageImage['mediaType'],
      data: bytes.toString('base64'),
      ...size,
      offset: 0,
    });
  }
  return { text, images, boxes };
}

/**
 * Pictures in a document get their size from their headers; one larger than the pixel
 * limit fails the document, as an image file would, before anything decodes it.
 */
function withCheckedImageSizes(pages: TextPage[], limits: DocumentLimits): TextPage[] {
  for (const page of pages) {
    for (const image of page.images) {
      const size = imageDimensions(Buffer.from(image.data, 'base64')) ?? { width: 0, height: 0 };
      checkPixels(image.label, size.width, size.height, limits);
      Object.assign(image, size);
    }
  }
  return pages;
}
