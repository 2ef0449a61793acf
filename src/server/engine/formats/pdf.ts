/**
 * PDF pages as text: the text layer laid out as on the page, OCR of the rendered page when
 * a page has no text layer (a scan), and, when asked, the page rendered as a picture and
 * the pictures embedded in it (with markers where they sit).
 */
import { open } from 'node:fs/promises';
import type { getDocumentProxy } from 'unpdf';
import { checkPages, checkPixels, defaultDocumentLimits, type DocumentLimits } from '../limits.js';
import { shiftCodes, withPageCodes } from '../codes/page-codes.js';
import { boxesOfPieces, shiftBoxes } from '../geometry.js';
import { layoutPage, type PlacedText } from '../layout.js';
import { ocr } from '../ocr/ocr.js';
import { readFormFields } from './pdf-form-fields.js';
import { readEmbeddedInvoice } from './e-invoice.js';
import { embeddedImageMarker, pageImageMarker } from '../markers.js';
import {
  ExtractionError,
  type ContentOptions,
  type PageCode,
  type PageImage,
  type PageProgress,
  type PageText,
  type SourceFile,
  type TextBox,
} from '../types.js';
import type { DocumentFormat, DrawnPage, PageDrawing } from './format.js';

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type Matrix = [number, number, number, number, number, number];
type PdfViewport = ReturnType<PdfPage['getViewport']>;
type PdfUtil = Awaited<
  ReturnType<Awaited<ReturnType<typeof loadUnpdf>>['getResolvedPDFJS']>
>['Util'];

/** Scans are rendered this wide for OCR (about 240 dpi for A4 or Letter). */
const ocrRenderWidth = 2000;
/** Page pictures for a model: legible, without costing more than a model reads. */
const pageImageWidth = 1200;
/** A text layer with fewer letters and digits than this is not the page's text. */
const minTextLayer = 16;
/** Smaller embedded pictures are rules, bullets and spacer pixels, not content. */
const minEmbeddedImageSide = 24;

// pdf.js 5 hands glyph buffers over with ArrayBuffer.prototype.transferToFixedLength, which
// Node 22 has and Node 20 lacks: without it the glyphs of a Type 3 font (drawn by the PDF
// itself) are dropped, and such a page renders blank for OCR. A copy does what pdf.js
// needs of it (the original is not used again).
const arrayBufferPrototype = ArrayBuffer.prototype as ArrayBuffer & {
  transferToFixedLength?: (length?: number) => ArrayBuffer;
};
if (typeof arrayBufferPrototype.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    value(this: ArrayBuffer, length = this.byteLength): ArrayBuffer {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy;
    },
    writable: true,
    configurable: true,
  });
}

// pdf.js reads a PDF in ranges (countPdfPages) with iterator helpers, which Node 22 has and
// Node 20 lacks (`map.keys().find(…)`, `map.values().some(…)`): the two it calls are given
// to Node 20's iterators, as the specification has them.
const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([].keys())) as Record<
  string,
  unknown
>;
const iteratorHelpers = {
  find(this: Iterator<unknown>, test: (value: unknown, index: number) => boolean) {
    let index = 0;
    for (let step = this.next(); !step.done; step = this.next())
      if (test(step.value, index++)) return step.value;
    return undefined;
  },
  some(this: Iterator<unknown>, test: (value: unknown, index: number) => boolean) {
    let index = 0;
    for (let step = this.next(); !step.done; step = this.next())
      if (test(step.value, index++)) return true;
    return false;
  },
};
for (const [name, value] of Object.entries(iteratorHelpers)) {
  if (typeof iteratorPrototype[name] !== 'function')
    Object.defineProperty(iteratorPrototype, name, { value, writable: true, configurable: true });
}

// pdf.js and the canvas are loaded at the first PDF, not with the service: together they
// are tens of megabytes that a process which never reads a PDF (an API-only one) would
// carry for nothing. Node caches the modules after that first import.
export const loadUnpdf = () => import('unpdf');
export const canvasImport = () => import('@napi-rs/canvas');

export const pdfFormat: DocumentFormat = {
  name: 'PDF',
  types: [
    {
      mediaType: 'application/pdf',
      extensions: ['.pdf'],
      recognise: { signatures: [[{ at: 0, bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }]] }, // %PDF-
    },
  ],
  // What the PDF declares: a run refuses more than the limit, and says so, but the count
  // is what the file holds.
  pageCount: { by: 'opening', count: (file) => countPdfPages(file.path, file.name) },
  // Each page is rendered and read by OCR only when the options ask for it.
  finishesPages: true,
  read: (bytes, file, { options, limits, signal, onPage }) =>
    readPdf(bytes, file, options, signal, limits, onPage),
  drawPage: drawPdfPage,
};

export async function readPdf(
  bytes: Uint8Array,
  file: SourceFile,
  options: ContentOptions,
  signal?: AbortSignal,
  limits: DocumentLimits = defaultDocumentLimits,
  onPage?: PageProgress,
): Promise<PageText[]> {
  const pdf = await openPdf(bytes, file.name, limits);
  try {
    // A PDF declares its page count up front; a kilobyte can declare a million pages.
    checkPages(file.name, pdf.numPages, limits);
    // An e-invoice's own data (Factur-X, ZUGFeRD, XRechnung, Order-X), kept with its first page.
    const embedded = options.includeText
      ? await readEmbeddedInvoice(bytes, pdf, file.name, limits)
      : undefined;
    const pages: PageText[] = [];
    let pagesWithText = 0;
    onPage?.(0, pdf.numPages);
    for (let number = 1; number <= pdf.numPages; number++) {
      signal?.throwIfAborted();
      const page = await readPage(pdf, number, file, options, limits, signal);
      if (page.hasText) pagesWithText++;
      pages.push(page.text);
      onPage?.(number, pdf.numPages);
    }
    if (embedded && pages[0]) {
      pages[0].embedded = embedded;
      pages[0].readers = [...(pages[0].readers ?? []), 'e-invoice'];
    }
    if (options.includeText && pagesWithText === 0) {
      throw new ExtractionError(`${file.name} has no text layer and OCR found no text`, 'no_text');
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

/** Why pdf.js could not open a PDF, as a person reads it: a password, or a damaged file. */
function unopenedPdf(name: string, error: unknown): ExtractionError {
  return error instanceof Error && error.name === 'PasswordException'
    ? new ExtractionError(
        `${name} is protected by a password; upload it without one`,
        'password_protected',
      )
    : new ExtractionError(`${name} could not be read as a PDF; it may be damaged`, 'damaged_file');
}

export async function openPdf(
  bytes: Uint8Array,
  name: string,
  limits: DocumentLimits,
): Promise<PdfDocument> {
  const { createIsomorphicCanvasFactory, getDocumentProxy } = await loadUnpdf();
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
  try {
    // pdf.js takes ownership of the buffer it is given, hence the copy. Verbosity 0 keeps
    // its font warnings off the service's output.
    return await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      CanvasFactory,
      // pdf.js skips a picture larger than this instead of decoding it.
      maxImageSize: limits.megapixels * 1_000_000,
    } as Parameters<typeof getDocumentProxy>[1]);
  } catch (error) {
    throw unopenedPdf(name, error);
  }
}

/**
 * What pdf.js may read of a file to count its pages. A whole PDF tells its count in a few
 * kilobytes (the cross-reference table at its end, the catalog it points to); one whose
 * table is damaged is read whole to rebuild it, and is given up past this.
 */
const countReadBytes = 2 * 1024 * 1024;

/**
 * How many pages the PDF at `path` declares, reading only the parts pdf.js asks for
 * (PDFDataRangeTransport, as a browser reads a PDF over HTTP ranges) instead of the whole
 * file: at upload a 200 MB scan is counted as fast as a one-page letter. A PDF that cannot
 * be counted within `countReadBytes` fails as damaged; its pages are counted when its
 * first page is drawn, from the whole file.
 */
export async function countPdfPages(path: string, name: string): Promise<number> {
  const { getResolvedPDFJS } = await loadUnpdf();
  const { getDocument, PDFDataRangeTransport } = await getResolvedPDFJS();
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const transport = new PDFDataRangeTransport(size, null);
    let read = 0;
    let stopped = false;
    // pdf.js leaves its promise pending when it is destroyed while it waits for a range.
    let giveUp: (error: Error) => void = () => {};
    const givenUp = new Promise<never>((_resolve, reject) => (giveUp = reject));
    const stop = (error: Error) => {
      stopped = true;
      giveUp(error);
      void loading.destroy();
    };
    const loading = getDocument({
      range: transport,
      length: size,
      rangeChunkSize: 256 * 1024,
      // Only what the count needs: no reading ahead, nor the rest of the file meanwhile.
      disableAutoFetch: true,
      disableStream: true,
      verbosity: 0,
    } as Parameters<typeof getDocument>[0]);
    transport.requestDataRange = (begin: number, end: number) => {
      read += end - begin;
      if (stopped) return;
      if (read > countReadBytes) {
        stop(new Error(`more than ${countReadBytes} bytes would be read`));
        return;
      }
      const chunk = new Uint8Array(end - begin);
      handle.read(chunk, 0, chunk.length, begin).then(
        () => {
          if (!stopped) transport.onDataRange(begin, chunk);
        },
        (error: unknown) => stop(error as Error),
      );
    };
    try {
      const pdf = await Promise.race([loading.promise, givenUp]);
      try {
        return pdf.numPages;
      } finally {
        stopped = true;
        await pdf.destroy();
      }
    } catch (error) {
      stopped = true;
      throw unopenedPdf(name, error);
    }
  } finally {
    await handle.close();
  }
}

async function readPage(
  pdf: PdfDocument,
  number: number,
  file: SourceFile,
  options: ContentOptions,
  limits: DocumentLimits,
  signal?: AbortSignal,
): Promise<{ text: PageText; hasText: boolean }> {
  const page = await pdf.getPage(number);
  const { getResolvedPDFJS, renderPageAsImage } = await loadUnpdf();
  const { Util } = await getResolvedPDFJS();
  const viewport = page.getViewport({ scale: 1 });
  // Pages are rendered to a fixed width, so a page far taller than wide is a huge picture.
  const renderedPixels = (width: number) =>
    checkPixels(
      `${file.name}, page ${number}`,
      width,
      Math.ceil((width * viewport.height) / viewport.width),
      limits,
    );
  const pieces = options.includeText ? await textLayerPieces(page, viewport, Util) : [];
  // A form's filled-in values sit among the printed text, at their widgets' places.
  const form = options.includeText
    ? await readFormFields(page, viewport, `${file.name}, page ${number}`)
    : { pieces: [], boxesOf: boxesOfPieces };
  // Whether the page is a scan is told by its printed text alone: a scanned form whose
  // fields were filled on screen still needs OCR for its captions.
  const printedCharacters = alphanumerics(pieces.map((piece) => piece.text).join(''));
  pieces.push(...form.pieces);
  const laidOut = layoutPage(pieces);
  let text = laidOut.text;
  let boxes: TextBox[] = form.boxesOf(laidOut.placed, viewport.width, viewport.height);
  let hasText = text.trim() !== '';
  let readByOcr = false;
  let codes: PageCode[] = [];
  if (options.includeText && printedCharacters < minTextLayer) {
    // No text layer, or next to none (a scanner's page number): read the page as a picture.
    signal?.throwIfAborted();
    renderedPixels(ocrRenderWidth);
    const rendered = await renderPageAsImage(pdf, number, { canvasImport, width: ocrRenderWidth });
    const recognised = await ocr.recognize(new Uint8Array(rendered), {
      languages: options.documentLanguages,
      source: `${file.name}, page ${number}`,
      signal,
    });
    if (alphanumerics(recognised.text) > alphanumerics(text)) {
      // The rendered page is the whole page, so the words' boxes are the page's.
      ({ text, boxes } = recognised);
      readByOcr = true;
    }
    // Barcodes and machine-readable zones of the scan, at the end of its text.
    // (Their blocks are not laid out with the page's pieces: picture markers follow them.)
    ({ text, boxes, codes } = await withPageCodes(
      new Uint8Array(rendered),
      { text, boxes },
      signal,
    ));
    if (codes.length > 0) readByOcr = true;
    hasText = text.trim() !== '';
  }

  const images: PageImage[] = [];
  if (options.includeEmbeddedImages || options.markEmbeddedImages) {
    const embedded = await findEmbeddedImages(page, viewport.transform as Matrix);
    const markers: PlacedText[] = [];
    for (const [index, image] of embedded.entries()) {
      const label = `${file.name}, page ${number}, image ${index + 1}`;
      if (options.markEmbeddedImages) {
        markers.push({
          text: embeddedImageMarker(label),
          x: image.box[0],
          y: image.box[1],
          width: 1,
          height: 12,
        });
      }
      if (options.includeEmbeddedImages) {
        const png = await encodeImageObject(image.object);
        if (png)
          images.push({
            kind: 'embedded',
            label,
            mediaType: 'image/png',
            data: png.toString('base64'),
            width: image.object.width,
            height: image.object.height,
            offset: 0,
          });
      }
    }
    if (markers.length > 0) {
      // Markers go where the pictures sit among the text lines; a scan's text came from
      // OCR, which knows nothing of them, so they follow it.
      if (readByOcr) {
        text = [text, ...markers.map((marker) => marker.text)].filter(Boolean).join('\n');
      } else {
        const withMarkers = layoutPage([...pieces, ...markers]);
        text = withMarkers.text;
        const words = withMarkers.placed.filter((laid) => !markers.includes(laid.piece));
        boxes = form.boxesOf(words, viewport.width, viewport.height);
      }
      for (const image of images)
        image.offset = Math.max(0, text.indexOf(embeddedImageMarker(image.label)));
    }
  }

  if (options.markPageImages) {
    const marker = pageImageMarker(`${file.name}, page ${number}`);
    text = text === '' ? marker : `${marker}\n${text}`;
    for (const image of images) image.offset += marker.length + 1;
    boxes = shiftBoxes(boxes, marker.length + 1);
    codes = shiftCodes(codes, marker.length + 1);
  }
  if (options.includePageImages) {
    renderedPixels(pageImageWidth);
    const rendered = Buffer.from(
      await renderPageAsImage(pdf, number, { canvasImport, width: pageImageWidth }),
    );
    const size = pngSize(rendered);
    images.unshift({
      kind: 'page',
      label: `${file.name}, page ${number}`,
      mediaType: 'image/png',
      data: rendered.toString('base64'),
      ...size,
      offset: 0,
    });
  }
  page.cleanup();
  const pageText: PageText = { fileId: file.id, fileName: file.name, page: number, text, boxes };
  if (options.includeText)
    pageText.readers = [
      readByOcr ? 'ocr' : 'text-layer',
      ...(form.pieces.length > 0 && !readByOcr ? ['form-fields' as const] : []),
    ];
  if (images.length > 0) pageText.images = images;
  if (codes.length > 0) pageText.codes = codes;
  return { text: pageText, hasText };
}

/** The text layer's pieces, each placed on the page as pdf.js draws it. */
async function textLayerPieces(
  page: PdfPage,
  viewport: PdfViewport,
  Util: PdfUtil,
): Promise<PlacedText[]> {
  const pieces: PlacedText[] = [];
  const content = await page.getTextContent();
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    const [, , c, d, x, baseline] = Util.transform(viewport.transform, item.transform) as Matrix;
    const height = Math.hypot(c, d) || item.height || 10;
    // The font says how far its letters reach above and below the baseline (as the
    // text layer pdf.js draws in a browser takes it); most fonts about 0.8 and 0.2.
    const style = content.styles[item.fontName];
    const ascent = style?.ascent || 0.8;
    const descent = style?.descent || -0.2;
    // The transform gives the baseline; a line's centre sits about a third of the font above it.
    pieces.push({
      text: withoutNulls(item.str),
      x,
      y: baseline - height * 0.35,
      width: item.width * viewport.scale,
      height,
      top: baseline - height * Math.max(ascent, 0.5),
      bottom: baseline - height * Math.min(descent, 0),
    });
  }
  return pieces;
}

/**
 * Some producers map the hyphen's code to U+0000 in the font's ToUnicode table, and pdf.js
 * passes it on ("B172FB37\u00000003" for a printed "B172FB37-0003"). Between letters or
 * digits it stands for that hyphen; anywhere else it is nothing a reader would see.
 */
function withoutNulls(text: string): string {
  return text.replace(/(?<=[\p{L}\p{N}])\u0000+(?=[\p{L}\p{N}])/gu, '-').replace(/\u0000/g, '');
}

function alphanumerics(text: string): number {
  return text.replace(/[^\p{L}\p{N}]/gu, '').length;
}

// ---------------------------------------------------------------------------------------
// Embedded pictures

interface ImageObject {
  width: number;
  height: number;
  /** pdf.js `ImageKind`: 1 = 1 bit grey, 2 = RGB, 3 = RGBA. */
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

interface PlacedImage {
  object: ImageObject;
  /** Top-left corner on the page, in the same units as the text. */
  box: [x: number, y: number];
}

/**
 * The pictures a page paints, in painting order, with where they land: the operator list
 * is replayed for its transforms only (save, restore, cm, form XObjects), which is all it
 * takes to know where a picture's unit square ends up.
 */
async function findEmbeddedImages(
  page: PdfPage,
  viewportTransform: Matrix,
): Promise<PlacedImage[]> {
  const { OPS, Util } = await (await loadUnpdf()).getResolvedPDFJS();
  const operators = await page.getOperatorList();
  const stack: Matrix[] = [];
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  const found: PlacedImage[] = [];
  for (let index = 0; index < operators.fnArray.length; index++) {
    const op = operators.fnArray[index];
    const args = operators.argsArray[index] as unknown[];
    if (op === OPS.save) stack.push(matrix);
    else if (op === OPS.restore) matrix = stack.pop() ?? matrix;
    else if (op === OPS.transform) matrix = Util.transform(matrix, args as Matrix) as Matrix;
    else if (op === OPS.paintFormXObjectBegin) {
      stack.push(matrix);
      if (Array.isArray(args[0])) matrix = Util.transform(matrix, args[0] as Matrix) as Matrix;
    } else if (op === OPS.paintFormXObjectEnd) matrix = stack.pop() ?? matrix;
    else if (op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject) {
      const object =
        op === OPS.paintImageXObject
          ? await resolveImage(page, String(args[0]))
          : (args[0] as ImageObject);
      if (!object || object.width < minEmbeddedImageSide || object.height < minEmbeddedImageSide)
        continue;
      const device = Util.transform(viewportTransform, matrix) as Matrix;
      // The unit square's corners; the top-left one on screen is the smallest x and y.
      const corners = [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ].map(([u, v]) => [
        device[0] * u! + device[2] * v! + device[4],
        device[1] * u! + device[3] * v! + device[5],
      ]);
      found.push({
        object,
        box: [Math.min(...corners.map((p) => p[0]!)), Math.min(...corners.map((p) => p[1]!))],
      });
    }
  }
  return found;
}

function resolveImage(page: PdfPage, key: string): Promise<ImageObject | undefined> {
  const store = key.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    try {
      store.get(key, (object: unknown) => resolve(object as ImageObject | undefined));
    } catch {
      resolve(undefined);
    }
  });
}

/** pdf.js hands pictures over as raw pixels; a model wants PNG. */
async function encodeImageObject(object: ImageObject): Promise<Buffer | undefined> {
  const { width, height, data } = object;
  if (!data) return undefined;
  const rgba = new Uint8ClampedArray(width * height * 4);
  const pixels = width * height;
  if (object.kind === 1) {
    const rowBytes = Math.ceil(width / 8);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
        rgba.set([bit * 255, bit * 255, bit * 255, 255], (y * width + x) * 4);
      }
    }
  } else {
    const channels = data.length / pixels;
    if (channels !== 1 && channels !== 3 && channels !== 4) return undefined;
    for (let pixel = 0; pixel < pixels; pixel++) {
      const from = pixel * channels;
      const grey = channels === 1 ? data[from]! : undefined;
      rgba[pixel * 4] = grey ?? data[from]!;
      rgba[pixel * 4 + 1] = grey ?? data[from + 1]!;
      rgba[pixel * 4 + 2] = grey ?? data[from + 2]!;
      rgba[pixel * 4 + 3] = channels === 4 ? data[from + 3]! : 255;
    }
  }
  const { createCanvas, ImageData } = await canvasImport();
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas.encode('png');
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Page `page` of the PDF as a picture `width` pixels wide, or no picture when the PDF has
 * fewer pages. A `signal` that aborts stops it between its steps; pdf.js drawing is not
 * interruptible, which is why the pool ends a worker that does not stop.
 */
async function drawPdfPage(
  bytes: Buffer,
  file: SourceFile,
  { page, width, format }: PageDrawing,
  limits: DocumentLimits,
  signal?: AbortSignal,
): Promise<DrawnPage> {
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
    if (format === 'png') return { pageCount: pdf.numPages, picture: png };
    const { default: sharp } = await import('sharp');
    return { pageCount: pdf.numPages, picture: await sharp(png).webp({ quality: 85 }).toBuffer() };
  } finally {
    await pdf.destroy();
  }
}
