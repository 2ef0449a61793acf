/**
 * What an OCR engine is, apart from any engine: the readers ask `ocr.recognize` (ocr.ts)
 * for the words of an image, and never see the engine that reads them.
 */
import type { DocumentLanguage } from '../../../contract/resources.js';
import type { TextBox } from '../types.js';
import type { QuarterTurn } from './prepare.js';

export interface OcrOptions {
  /**
   * The languages the image may be written in (an extractor's `documentLanguages`): only
   * their models are used. Left out or empty, each page's language is found from the page.
   */
  languages?: readonly DocumentLanguage[];
  /**
   * Only these characters may be read (a machine-readable zone: `A–Z0–9<`). Left out,
   * anything the language's model knows.
   */
  characters?: string;
  /** Names the image in error messages ("scan.png could not be read as an image"). */
  source?: string;
  signal?: AbortSignal;
}

/** A word as read, with its box in fractions of the image as shown. */
export interface OcrWord {
  text: string;
  /** 0–100. */
  confidence: number;
  box: Omit<TextBox, 'start' | 'end'>;
}

export interface OcrPage {
  /** The recognised text, laid out as on the page (right-to-left lines in reading order). */
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
  /** Where each word of `text` is, in fractions of the image as shown to a person. */
  boxes: TextBox[];
  words: OcrWord[];
  /** The language read, when the page said which (or the caller named one). */
  language: DocumentLanguage | undefined;
  /** The page's script as detected: `Latin`, `Japanese`, `Arabic`, … */
  script: string | undefined;
  /**
   * How far the page was turned, clockwise, to stand upright before it was read: 90 for
   * a page photographed lying on its left side. The boxes are nevertheless those of the
   * image as shown, unturned.
   */
  orientation: QuarterTurn;
}

export interface OcrEngine {
  /**
   * Reads an image (PNG, JPEG, WebP or TIFF bytes). Rejects with an `ExtractionError`
   * (`damaged_file`) when the bytes are no image the engine can decode.
   */
  recognize(image: Uint8Array, options?: OcrOptions): Promise<OcrPage>;
  /** Stops the engine's workers now (on shutdown); the next image starts them again. */
  terminate(): Promise<void>;
  /** How long idle workers stay up before they are stopped; returns the previous time. */
  setIdleTime(ms: number): number;
}
