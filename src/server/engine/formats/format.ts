/**
 * What a document format is to the engine: the media types it reads, how a file of each is
 * recognised from its bytes, how many pages a file makes, how it is read and, for formats
 * whose pages are pictures, how a page is drawn. Each format is one file of this folder
 * that exports one `DocumentFormat`; `index.ts` lists them all, and everything that asks
 * "which format is this file?" (readDocuments, the page routes, the upload's sniffing)
 * asks that list.
 */
import type { AcceptedMediaType } from '../../../contract/resources.js';
import { checkPixels, imageDimensions, type DocumentLimits } from '../limits.js';
import type {
  ContentOptions,
  PageCode,
  PageImage,
  PageProgress,
  PageText,
  SourceFile,
  TextBox,
} from '../types.js';

/** A page as a text reader gives it: its text and the pictures in it. */
export interface TextPage {
  text: string;
  images: PageImage[];
}

/** A page as a reader gives it; pages that are pictures (images) know where their words are. */
export type ReadPage = TextPage & { boxes?: TextBox[]; codes?: PageCode[] };

/** Bytes that must stand at an offset of the file (`at`, from 0). */
export interface BytesAt {
  at: number;
  bytes: readonly number[];
}

/**
 * How a file of a media type is recognised, from its bytes and never from its name:
 * - `signatures`: binary formats, by any one of these signatures (each a list of bytes at
 *   offsets, all of which must match) in the file's first bytes;
 * - `zipPart`: an Office Open XML package (a ZIP listing `[Content_Types].xml`) that holds
 *   this part;
 * - `text`: valid UTF-8 without control bytes (XML and SVG refused), the text given without
 *   its byte-order mark and leading whitespace. Text formats are tried in the order of the
 *   list in `index.ts`, so one that takes any text (plain text) comes last.
 */
export type Recognition =
  | { signatures: readonly (readonly BytesAt[])[] }
  | { zipPart: string }
  | { text: (start: string) => boolean };

/** One media type a format reads, with its file name extensions (for `<input accept>`). */
export interface FormatType {
  mediaType: AcceptedMediaType;
  extensions: readonly string[];
  recognise: Recognition;
}

/**
 * How many pages the engine makes of a file:
 * - `type`: as many as the format always makes, whatever the file holds;
 * - `bytes`: counted from the bytes as they stream past, nothing parsed, so the service
 *   counts them itself at upload instead of starting a document worker;
 * - `opening`: what the file declares once opened (in a document worker);
 * - `reading`: as many as reading it gives (in a document worker).
 */
export type PageCount =
  | { by: 'type'; pages: number }
  | { by: 'bytes'; count(path: string): Promise<number> }
  | { by: 'opening'; count(file: SourceFile): Promise<number> }
  | { by: 'reading' };

/** What reading a file may use and must keep to. */
export interface ReaderContext {
  options: ContentOptions;
  limits: DocumentLimits;
  signal?: AbortSignal;
  /** Pages read of the file so far, of how many. */
  onPage?: PageProgress;
}

export type PictureFormat = 'png' | 'webp';

/** Page `page` (from 1) drawn `width` pixels wide. */
export interface PageDrawing {
  page: number;
  width: number;
  format: PictureFormat;
}

/** How many pages the file has, and the picture when it has page `page`. */
export interface DrawnPage {
  pageCount: number;
  picture?: Buffer;
}

interface FormatBasics {
  /** What people call it ("PDF", "Word"). */
  name: string;
  types: readonly FormatType[];
  pageCount: PageCount;
  /**
   * Draws a page as a picture. A format that can is shown to a reviewer as pictures (its
   * `pageKind` is `image`); one that cannot is shown as the text the engine read.
   */
  drawPage?(
    bytes: Buffer,
    file: SourceFile,
    drawing: PageDrawing,
    limits: DocumentLimits,
    signal?: AbortSignal,
  ): Promise<DrawnPage>;
}

/**
 * A reader gives a file's pages as read, and readDocuments applies the content options
 * every format shares (text left out, embedded pictures left out, page-picture markers) and
 * numbers them. A reader that must apply them itself to save work (a PDF page is rendered
 * and read by OCR only when asked) gives finished pages instead, and says so.
 */
export type DocumentFormat = FormatBasics &
  (
    | {
        finishesPages?: false;
        read(bytes: Buffer, file: SourceFile, context: ReaderContext): Promise<ReadPage[]>;
      }
    | {
        finishesPages: true;
        read(bytes: Buffer, file: SourceFile, context: ReaderContext): Promise<PageText[]>;
      }
  );

/**
 * Pictures in a document get their size from their headers; one larger than the pixel
 * limit fails the document, as an image file would, before anything decodes it.
 */
export function withCheckedImageSizes(pages: TextPage[], limits: DocumentLimits): TextPage[] {
  for (const page of pages) {
    for (const image of page.images) {
      const size = imageDimensions(Buffer.from(image.data, 'base64')) ?? { width: 0, height: 0 };
      checkPixels(image.label, size.width, size.height, limits);
      Object.assign(image, size);
    }
  }
  return pages;
}
