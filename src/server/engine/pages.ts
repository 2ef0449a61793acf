/**
 * A file's pages as a reviewer sees them beside its data: a PDF's page or an image as a
 * picture of a chosen width, a text document's page as the text the engine read (so that
 * a source's `offset` indexes into it), and how many pages the engine makes of a file.
 * They run in the document workers (isolation/), under the same limits as reading: a
 * stranger's PDF is as dangerous to draw as to read.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readDocuments, type ReadIo } from './documents.js';
import {
  checkImage,
  checkPages,
  checkPixels,
  defaultDocumentLimits,
  type DocumentLimits,
} from './limits.js';
import { canvasImport, countPdfPages, loadUnpdf, openPdf } from './formats/pdf.js';
import { ExtractionError, type ContentOptions, type SourceFile, type TextBox } from './types.js';

/** Whether a file's pages are shown as pictures (PDFs, images) or as their text. */
export type PageKind = 'image' | 'text';

const imageTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/tiff'];

export function pageKindOf(mediaType: string): PageKind {
  return mediaType === 'application/pdf' || imageTypes.includes(mediaType) ? 'image' : 'text';
}

/**
 * How many pages the engine makes of a file of this type whatever it holds: one for an
 * image, and for the formats its readers give as one page (CSV, Markdown, HTML, DOCX);
 * `undefined` for those it must read to know (PDF, XLSX: a page per visible sheet).
 */
export function fixedPageCount(mediaType: string): number | undefined {
  if (imageTypes.includes(mediaType)) return 1;
  if (mediaType === 'application/pdf' || mediaType === 'text/plain') return undefined;
  if (mediaType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    return undefined;
  return 1;
}

/** The text options a page's text is read with when no run says otherwise. */
export const textOnly: ContentOptions = {
  includeText: true,
  includeEmbeddedImages: false,
  markEmbeddedImages: false,
  includePageImages: false,
  markPageImages: false,
};

/** How many pages the engine makes of the file: what a run reads and the pages route serves. */
export async function countPages(file: SourceFile, io: ReadIo): Promise<number> {
  const fixed = fixedPageCount(file.mediaType);
  if (fixed !== undefined) return fixed;
  // What the PDF declares: a run refuses more than the limit, and says so, but the count
  // is what the file holds.
  if (file.mediaType === 'application/pdf') return countPdfPages(file.path, file.name);
  if (file.mediaType === 'text/plain') return countTextPages(file.path);
  return (await readDocuments([file], textOnly, io)).length;
}

/**
 * The pages of a plain text file: the reader starts one at each form feed. Only bytes are
 * counted, as they stream past (nothing is parsed), so the service may count them itself
 * instead of starting a document worker for an upload.
 */
export async function countTextPages(path: string): Promise<number> {
  let pages = 1;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>)
    for (let at = chunk.indexOf(0x0c); at >= 0; at = chunk.indexOf(0x0c, at + 1)) pages++;
  return pages;
}

export type PictureFormat = 'png' | 'webp';

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
): Promise<{ pageCount: number; picture?: Buffer }> {
  const { default: sharp } = await import('sharp');
  const bytes = await readFile(file.path, { signal });
  if (file.mediaType !== 'application/pdf') {
    if (page !== 1) return { pageCount: 1 };
    checkImage(file.name, bytes, limits);
    const image = sharp(bytes, { limitInputPixels: limits.megapixels * 1_000_000 })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width, withoutEnlargement: true });
    try {
      return {
        pageCount: 1,
        picture: await (format === 'webp' ? image.webp({ quality: 85 }) : image.png()).toBuffer(),
      };
    } catch {
      throw new ExtractionError(
        `${file.name} could not be read as an image; it may be damaged`,
        'damaged_file',
      );
    }
  }

  const pdf = await openPdf(bytes, file.name, limits);
  try {
    checkPages(file.name, pdf.numPages, limits);
    if (page > pdf.numPages) return { pageCount: pdf.numPages };
    const { renderPageAsImage } = await loadUnpdf();
    const viewport = (await pdf.getPage(page)).getViewport({ scale: 1 });
    checkPixels(
      `${file.name}, page ${page}`,
      width,
      Math.ceil((width * viewport.height) / viewport.width),
      limits,
    );
    signal?.throwIfAborted();
    const png = Buffer.from(await renderPageAsImage(pdf, page, { canvasImport, width }));
    signal?.throwIfAborted();
    return {
      pageCount: pdf.numPages,
      picture: format === 'webp' ? await sharp(png).webp({ quality: 85 }).toBuffer() : png,
    };
  } finally {
    await pdf.destroy();
  }
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
