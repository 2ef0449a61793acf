/**
 * Optical character recognition behind one interface (`OcrEngine`, engine.ts): the readers
 * (`../formats/pdf.ts`, `../documents.ts`, the `local` strategy's pictures) ask
 * `ocr.recognize` for the words of an image and never see the engine that reads them. The
 * engine finds each page's orientation, script and language itself, unless the caller
 * names the languages; it translates its own failures into `ExtractionError`s; and it keeps
 * its models loaded only while they are used. Today's engine is tesseract (`tesseract.ts`);
 * a second one would be another file implementing `OcrEngine`, chosen here.
 */
import type { OcrEngine } from './engine.js';
import { tesseractEngine } from './tesseract.js';

export type { OcrEngine, OcrOptions, OcrPage, OcrWord } from './engine.js';
export type { QuarterTurn } from './prepare.js';

/** The engine the service reads with. */
export const ocr: OcrEngine = tesseractEngine;

/** Stops OCR's workers now (the service calls it on shutdown). */
export function terminateOcr(): Promise<void> {
  return ocr.terminate();
}

/** How long OCR's workers may sit idle before they are stopped; returns the previous time. */
export function setOcrIdleTime(ms: number): number {
  return ocr.setIdleTime(ms);
}
