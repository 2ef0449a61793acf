/**
 * Optical character recognition with tesseract.js and the English model that ships in
 * `@tesseract.js-data/eng`, read from disk: nothing is fetched from the network (without
 * `langPath` tesseract.js would download the model from a CDN).
 *
 * One worker serves the whole process. It starts on the first image, is shared by every
 * run (tesseract queues its jobs, and the machine has few cores anyway), and is terminated
 * after a short idle time, because a live worker thread keeps Node from exiting.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Image } from '@napi-rs/canvas';
import type Tesseract from 'tesseract.js';
import { layoutLines, type PlacedText } from './layout.js';

/** The LSTM model, which is what tesseract.js itself picks for its default engine mode. */
const modelDir = join(
  dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

/** Tesseract reads best at about 300 dpi; smaller images (screenshots) are enlarged first. */
const minOcrWidth = 1600;
const targetOcrWidth = 2000;
const maxUpscale = 3;
/** Words below this confidence (0–100) are specks, rules and signatures, not text. */
const minWordConfidence = 15;

let idleMs = 3000;
let worker: Promise<Tesseract.Worker> | undefined;
let activeJobs = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** How long the worker may sit idle before it is terminated; returns the previous time. */
export function setOcrIdleTime(ms: number): number {
  const previous = idleMs;
  idleMs = ms;
  return previous;
}

async function startWorker(): Promise<Tesseract.Worker> {
  // Loaded at the first image, like the worker itself: most processes never run OCR.
  const { default: Tesseract } = await import('tesseract.js');
  const started = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: modelDir,
    gzip: true,
    cacheMethod: 'none',
  });
  // Sparse-text segmentation finds words in boxes and scattered fields that the default
  // page segmentation drops; the lines are rebuilt from the word positions afterwards.
  // A fixed resolution and a null debug file keep tesseract from printing its estimates
  // and warnings on the service's output.
  await started.setParameters({
    tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT,
    user_defined_dpi: '300',
    debug_file: '/dev/null',
  });
  return started;
}

async function withWorker<T>(job: (worker: Tesseract.Worker) => Promise<T>): Promise<T> {
  clearTimeout(idleTimer);
  activeJobs++;
  try {
    worker ??= startWorker().catch((error: unknown) => {
      worker = undefined;
      throw error;
    });
    return await job(await worker);
  } finally {
    activeJobs--;
    if (activeJobs === 0) {
      idleTimer = setTimeout(() => void terminateOcr(), idleMs);
      idleTimer.unref();
    }
  }
}

/** Stops the worker now (the service calls it on shutdown; the next OCR starts a new one). */
export async function terminateOcr(): Promise<void> {
  clearTimeout(idleTimer);
  const current = worker;
  worker = undefined;
  if (current) await (await current.catch(() => undefined))?.terminate();
}

export interface OcrResult {
  /** The recognised text, laid out as on the page. */
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
}

/**
 * Recognises the text in an image (PNG, JPEG, WebP or TIFF bytes). Small images are
 * enlarged and transparency is flattened onto white first, which tesseract needs for
 * screenshots; formats the canvas cannot decode (TIFF) go to tesseract as they are.
 */
export async function recognizeImage(bytes: Uint8Array, signal?: AbortSignal): Promise<OcrResult> {
  signal?.throwIfAborted();
  const prepared = await prepareForOcr(bytes);
  const result = await withWorker((ocr) =>
    ocr.recognize(Buffer.from(prepared), {}, { text: true, blocks: true }),
  );
  signal?.throwIfAborted();
  const pieces: PlacedText[] = [];
  const confidences: number[] = [];
  for (const block of result.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          if (word.confidence < minWordConfidence || word.text.trim() === '') continue;
          confidences.push(word.confidence);
          const { x0, y0, x1, y1 } = word.bbox;
          pieces.push({
            text: word.text,
            x: x0,
            y: (y0 + y1) / 2,
            width: x1 - x0,
            height: y1 - y0,
          });
        }
      }
    }
  }
  const confidence = confidences.length
    ? confidences.reduce((sum, value) => sum + value, 0) / confidences.length
    : 0;
  return { text: layoutLines(pieces, { separateWords: true }), confidence };
}

async function prepareForOcr(bytes: Uint8Array): Promise<Uint8Array> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  let image: Image;
  try {
    image = await loadImage(Buffer.from(bytes));
  } catch {
    return bytes;
  }
  const scale = image.width < minOcrWidth ? Math.min(maxUpscale, targetOcrWidth / image.width) : 1;
  const canvas = createCanvas(Math.round(image.width * scale), Math.round(image.height * scale));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.encode('png');
}
