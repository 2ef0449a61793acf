/**
 * The shapes the extraction engine works with, from the files of a run to the values a
 * strategy finds in one chunk. The run worker (`../run-lifecycle/worker.ts`) drives them in order:
 * readDocuments → chunkPages → strategy.extractChunk per chunk → mergeExtractions →
 * finaliseResult.
 */
import type { TargetSchema } from '../../contract/json-schema.js';
import type { DocumentErrorCode, DocumentLanguage } from '../../contract/resources.js';

export interface SourceFile {
  id: string;
  name: string;
  /** Where the bytes are on disk. */
  path: string;
  /** The sniffed media type (one of `acceptedMediaTypes`). */
  mediaType: string;
  sha256: string;
}

/**
 * Told how many pages are read, of how many, as each page is. A scan is read page by page
 * by OCR, seconds a page, so this is how a person learns how far the reading is.
 */
export type PageProgress = (pagesRead: number, pagesTotal: number) => void;

/** What goes into the chunks; README.md says what each option does for each strategy. */
export interface ContentOptions {
  includeText: boolean;
  includeEmbeddedImages: boolean;
  markEmbeddedImages: boolean;
  includePageImages: boolean;
  markPageImages: boolean;
  /** What OCR reads pages in (the extractor's setting); left out or empty, each page says. */
  documentLanguages?: readonly DocumentLanguage[];
}

/** A picture that travels with the text: a rendered page or an image embedded in a document. */
export interface PageImage {
  kind: 'page' | 'embedded';
  /** How the text refers to it when marked, e.g. `invoice.pdf, page 2, image 1`. */
  label: string;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  /** The image bytes, base64-encoded (what a data: URL or a vision API wants). */
  data: string;
  width: number;
  height: number;
  /** Where in its page's text the image sits (its marker, or the page start). */
  offset: number;
}

/**
 * Where a stretch of a page's text is printed: page text [start, end) lies in the box x, y,
 * width, height, in fractions of the page (0 to 1, from its top-left corner). A PDF's text
 * item or an OCR word is one box; within a box, characters are taken as equally wide.
 */
export interface TextBox {
  start: number;
  end: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Set when another reader than the page's own gave this stretch (a form field's value). */
  reader?: PageReader;
}

/**
 * What read a page's text: a text format as it is (`text`), a PDF's text layer, OCR, the
 * values of a PDF's form fields, the invoice data a PDF carries as XML (`e-invoice`).
 */
export type PageReader = 'text' | 'text-layer' | 'ocr' | 'form-fields' | 'e-invoice';

/**
 * A value a document states about itself in data, beside what it prints: an e-invoice's
 * XML (Factur-X, ZUGFeRD, XRechnung, Order-X: `formats/e-invoice.ts`). `name` is the
 * value's place in the invoice's model (`invoice_number`, `issue_date`, `seller_name`,
 * `total_gross`, …), `value` as the data writes it (dates ISO, amounts as decimal text).
 * It is exact but has no place on the page: a rule that uses it finds the printed value
 * in the page's text, whose box is what a person is shown.
 */
export interface EmbeddedValue {
  name: string;
  value: string;
}

/** A named part of what a code or a machine-readable zone holds: a payment's IBAN, a passport's surname. */
export interface CodePart {
  /** A stable name for programs (`iban`, `surname`, `flightNumber`). */
  name: string;
  /** How the page's text labels it (`IBAN`, `Surname`, `Flight number`). */
  label: string;
  value: string;
  /** A machine-readable zone's field: whether its check digit (or its form) holds. */
  valid?: boolean;
}

/**
 * A barcode or a machine-readable zone read on a page that is a picture (codes/): what it
 * holds, where it is, and its named parts when its format is public. Its block of the
 * page's text is [start, end): a marker line naming it, its text, and its verified parts
 * as `Label: value` lines, each with the code's box (README.md, "Codes and machine-readable zones").
 */
export interface PageCode {
  /** "QR Code", "PDF417", "Aztec", "Data Matrix", "Code 128", "EAN-13"…, or "MRZ TD3". */
  kind: string;
  /** The public format it follows: 'epc-qr', 'swiss-qr-bill', 'iata-bcbp', 'icao-9303'. */
  format?: string;
  /** What the code holds, as text (a zone's lines, one per line). */
  text: string;
  /** Where it is, in fractions of the page (0 to 1 from its top-left corner). */
  box: { x: number; y: number; width: number; height: number };
  parts: CodePart[];
  /**
   * A machine-readable zone: true when every check digit holds. A zone that fails keeps its
   * parts here, flagged, but none of them is written into the page's text.
   */
  verified?: boolean;
  start: number;
  end: number;
}

/** One page of text (1-based page; formats without pages are one page, or one per sheet for XLSX). */
export interface PageText {
  fileId: string;
  fileName: string;
  page: number;
  text: string;
  images?: PageImage[];
  /**
   * Where the text is printed, in the order of the text, for pages that are pictures (PDFs
   * and images); text formats have none.
   */
  boxes?: TextBox[];
  /** The barcodes and machine-readable zones read on the page, whose blocks end its text. */
  codes?: PageCode[];
  /** The readers that gave the page's text, its own first (absent: `text`, or OCR for an image). */
  readers?: PageReader[];
  /** What the document states about itself in data (an e-invoice's XML), on its first page. */
  embedded?: EmbeddedValue[];
}

/** A stretch of a chunk's text that comes from one page: chunk text [chunkStart, chunkStart+length) = page text [pageStart, pageStart+length). */
export interface ChunkSpan {
  fileId: string;
  fileName: string;
  page: number;
  chunkStart: number;
  pageStart: number;
  length: number;
}

export interface Chunk {
  index: number;
  text: string;
  spans: ChunkSpan[];
  images?: PageImage[];
  /**
   * Where each span's text is printed: `boxes[i]` are the boxes of span i's page that hold
   * its stretch (offsets in the page's text, as in `PageText.boxes`); absent for text formats.
   */
  boxes?: (TextBox[] | undefined)[];
  /** The embedded values (`PageText.embedded`) of the documents whose pages the chunk holds. */
  embedded?: EmbeddedValue[];
}

/** A place on a page, in fractions of the page (0 to 1, from its top-left corner). */
export interface SourceBox {
  /** The page, from 1. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a value was found; `offset` is a character offset in that page's text. */
export interface ValueSource {
  file: string;
  fileId: string;
  page: number;
  offset: number;
  text: string;
  /**
   * How sure the rule that found the value is, 0 to 1 (README.md: labelled and
   * cross-checked, labelled, or guessed from position or pattern). A strategy that cannot
   * tell leaves it out.
   */
  confidence?: number;
  /**
   * Where the value is printed: one box per line of it (words on one line side by side
   * make one box), on pages that are pictures (PDFs and images). Text formats have none;
   * their values are shown by `offset` and `text` alone.
   */
  boxes?: SourceBox[];
}

export interface ChunkExtraction {
  data: Record<string, unknown>;
  /** Keyed by the JSON pointer of the value in `data` (`/total`, `/line_items/0/amount`). */
  sources: Record<string, ValueSource>;
  usage: { inputTokens: number; outputTokens: number };
}

export interface StrategyContext {
  schema: TargetSchema;
  outputInstructions: string;
  model: string;
  /** What earlier chunks found, merged. */
  merged: Record<string, unknown>;
  signal: AbortSignal;
}

export interface ExtractionStrategy {
  extractChunk(chunk: Chunk, context: StrategyContext): Promise<ChunkExtraction>;
}

/**
 * An error whose message a person can act on, e.g. "scan.pdf has no text layer and OCR
 * found no text", and its `code`, the kind of failure it is, which the interface words in
 * the person's language. The document fails with both; any other error is a bug of ours
 * (`extraction_failed`, with words of our own). `detail` is for whoever runs the service,
 * not for the people the message is shown to (a provider's own words, its address, the
 * settings to check): it goes to the service's log, never into what the API answers.
 */
export class ExtractionError extends Error {
  override name = 'ExtractionError';
  /** The file the error is about, when it is about one: the document workers set it. */
  fileName?: string;

  constructor(
    message: string,
    readonly code: DocumentErrorCode,
    readonly detail?: string,
  ) {
    super(message);
  }
}
