/**
 * A file's pages as a reviewer sees them beside its data: a PDF's page or an image as a
 * picture of a chosen width, a text document's page as the text the engine read (so that
 * a source's `offset` indexes into it), and how many pages the engine makes of a file.
 * They run in the document workers (isolation/), under the same limits as reading: a
 * stranger's PDF is as dangerous to draw as to read.
 */
import { readFile } from 'node:fs/promises';
import { readDocuments, type ReadIo } from './documents.js';
import { formatOf } from './formats/index.js';
import type { DrawnPage, PictureFormat } from './formats/format.js';
import { defaultDocumentLimits, type DocumentLimits } from './limits.js';
import { ExtractionError, type ContentOptions, type SourceFile, type TextBox } from './types.js';

export { pageKindOf } from './formats/index.js';
export type { PageKind } from '../../contract/resources.js';
export type { PictureFormat } from './formats/format.js';

/** The text options a page's text is read with when no run says otherwise. */
export const textOnly: ContentOptions = {
  includeText: true,
  includeEmbeddedImages: false,
  markEmbeddedImages: false,
  includePageImages: false,
  markPageImages: false,
};

/**
 * How many pages a file has when no document worker is needed to know: as many as its
 * format always makes (an image, CSV, Markdown, HTML, DOCX: one), or counted from its bytes
 * as they stream past (plain text's form feeds), which the service may do itself. `undefined`
 * for the formats that must be opened (PDF) or read (XLSX: a page per visible sheet).
 */
export async function countPagesAtHand(file: SourceFile): Promise<number | undefined> {
  const counting = formatOf(file.mediaType)?.pageCount;
  if (counting?.by === 'type') return counting.pages;
  if (counting?.by === 'bytes') return counting.count(file.path);
  return undefined;
}

/** How many pages the engine makes of the file: what a run reads and the pages route serves. */
export async function countPages(file: SourceFile, io: ReadIo): Promise<number> {
  const atHand = await countPagesAtHand(file);
  if (atHand !== undefined) return atHand;
  const counting = formatOf(file.mediaType)?.pageCount;
  if (counting?.by === 'opening') return counting.count(file);
  return (await readDocuments([file], textOnly, io)).length;
}

/**
 * Page `page` (from 1) of a PDF or an image file as a picture `width` pixels wide (an
 * image is not enlarged past its own width), or no picture when the file has fewer pages.
 * Transparency is flattened onto white, as paper. A `signal` that aborts (nobody waits for
 * the picture any more) stops it between its steps; a step under way (pdf.js drawing, an
 * encoder) is not interruptible, which is why the pool ends a worker that does not stop.
 */
export async function renderPage(
  file: SourceFile,
  page: number,
  width: number,
  format: PictureFormat,
  limits: DocumentLimits = defaultDocumentLimits,
  signal?: AbortSignal,
): Promise<DrawnPage> {
  const drawPage = formatOf(file.mediaType)?.drawPage;
  if (!drawPage)
    throw new ExtractionError(
      `${file.name} is of a type whose pages are text, not pictures (${file.mediaType})`,
      'unsupported_type',
    );
  const bytes = await readFile(file.path, { signal });
  return drawPage(bytes, file, { page, width, format }, limits, signal);
}

/**
 * Page `page` (from 1) of a file as the text the engine read with `options` (a run's, so
 * that its sources' offsets index into it), or no text when the file has fewer pages.
 */
export async function readPageText(
  file: SourceFile,
  page: number,
  options: ContentOptions,
  io: ReadIo,
): Promise<{ pageCount: number; text?: string; boxes?: TextBox[] }> {
  const pages = await readDocuments([file], options, io);
  const found = pages[page - 1];
  return { pageCount: pages.length, text: found?.text, boxes: found?.boxes };
}
