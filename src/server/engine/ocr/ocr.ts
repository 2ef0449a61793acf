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
import type Tesseract from 'tesseract.js';
import { boxesOfPieces } from '../geometry.js';
import { imageDimensions } from '../limits.js';
import { layoutPage, type PlacedText } from '../layout.js';
import type { TextBox } from '../types.js';

/** The LSTM model, which is what tesseract.js itself picks for its default engine mode. */
const modelDir = join(
  dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

/** Tesseract reads best at about 300 dpi; smaller images (screenshots) are enlarged first. */
const minOcrWidth = 1600;
const targetOcrWidth = 2000;
const maxUpscale = 3;
/** Wider images are reduced to this: a phone photo or a 600 dpi scan gains nothing above it. */
const maxOcrWidth = 2400;
/** sharp refuses images above this many pixels (a decompression bomb), as the canvas would. */
const maxInputPixels = 100_000_000;
/** Lines sloping less than this are left as they are; more is measured up to the max. */
const minDeskewDegrees = 0.5;
const maxDeskewDegrees = 6;
const skewSampleWidth = 600;
/** A page needs this many lines of text for their height to be measured. */
const minTextLines = 5;
/**
 * The height of a line's band of ink that text is reduced to when it is larger: tesseract
 * reads capitals best at about 30 px (willus.org/author/entries/tesseract_accuracy.html),
 * and a band holds a little more than the capitals. Larger print is only more pixels to
 * work through: a phone photo of a receipt is read a fifth faster at this height.
 */
const targetLineHeight = 36;
/**
 * The paper's brightness is measured on a copy this many times smaller, as the lightest
 * grey within this many of its pixels: wider than a stroke of the largest print.
 */
const backgroundShrink = 16;
const paperRadius = 2;
/** Greys this much darker than the paper are ink. */
const minInkContrast = 48;

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
    // A job that fails (an image tesseract cannot decode) rejects its own promise; without
    // a handler, tesseract.js also throws the reason from its message listener, where
    // nothing can catch it and it ends the process.
    errorHandler: () => {},
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

export interface RecognizeOptions {
  /** Only these characters are read (a machine-readable zone's `A–Z0–9<`), as one block. */
  characters?: string;
}

export interface OcrResult {
  /** The recognised text, laid out as on the page. */
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
  /** Where each word of the text is, in fractions of the image as given (turned upright). */
  boxes: TextBox[];
}

/**
 * How the image tesseract read relates to the image as given, upright: the same picture
 * `width` × `height`, turned `angle` degrees (anticlockwise, to level its lines) onto a
 * larger canvas. Filled in by `prepareForOcr`; empty when it left the image as it was.
 */
interface OcrPlacement {
  width?: number;
  height?: number;
  angle?: number;
}

/**
 * Recognises the text in an image (PNG, JPEG, WebP or TIFF bytes). Small images are
 * enlarged and transparency is flattened onto white first, which tesseract needs for
 * screenshots; formats the canvas cannot decode (TIFF) go to tesseract as they are.
 */
export async function recognizeImage(
  bytes: Uint8Array,
  signal?: AbortSignal,
  options: RecognizeOptions = {},
): Promise<OcrResult> {
  signal?.throwIfAborted();
  const placement: OcrPlacement = {};
  const prepared = await prepareForOcr(bytes, placement);
  const result = await withWorker(async (ocr) => {
    if (!options.characters)
      return ocr.recognize(Buffer.from(prepared), {}, { text: true, blocks: true });
    // A zone of a known alphabet (a machine-readable zone) read as one block of lines; the
    // worker's settings are put back at once, in the same job, for the next image.
    const { PSM } = (await import('tesseract.js')).default;
    const block = {
      tessedit_char_whitelist: options.characters,
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    };
    await ocr.setParameters(block);
    try {
      return await ocr.recognize(Buffer.from(prepared), {}, { text: true, blocks: true });
    } finally {
      await ocr.setParameters({
        tessedit_char_whitelist: '',
        tessedit_pageseg_mode: PSM.SPARSE_TEXT,
      });
    }
  });
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
  const { text, placed } = layoutPage(pieces, { separateWords: true });
  return { text, confidence, boxes: wordBoxes(placed, prepared, placement) };
}

/** The words' boxes in fractions of the upright image, undoing the levelling turn. */
function wordBoxes(
  placed: Parameters<typeof boxesOfPieces>[0],
  prepared: Uint8Array,
  placement: OcrPlacement,
): TextBox[] {
  const read = imageDimensions(prepared);
  if (!read) return [];
  const width = placement.width ?? read.width;
  const height = placement.height ?? read.height;
  const radians = ((placement.angle ?? 0) * Math.PI) / 180;
  if (radians === 0) return boxesOfPieces(placed, width, height);
  // The turn was about the centre, onto a canvas grown to hold the corners: a point of the
  // read image goes back by turning it the other way about the centres.
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return boxesOfPieces(placed, width, height, (x, y) => {
    const dx = x - read.width / 2;
    const dy = y - read.height / 2;
    return [width / 2 + dx * cos - dy * sin, height / 2 + dx * sin + dy * cos];
  });
}

/**
 * An image made ready for tesseract, which reads dark text on an even light ground at
 * about 300 dpi best: grey, enlarged when small (screenshots) or reduced when huge (phone
 * photos, 600 dpi scans: more pixels only cost time), its uneven lighting evened out (the
 * image divided by a blur of itself, so a shadow across a photographed receipt becomes
 * white like the rest of the paper), reduced again when its print is larger than
 * tesseract needs (a receipt photographed close up), contrast stretched, and turned
 * upright when its lines slope. Transparency is flattened onto white. Bytes sharp cannot decode go to tesseract
 * as they are, which reports what it makes of them.
 */
export async function prepareForOcr(
  bytes: Uint8Array,
  placement: OcrPlacement = {},
): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  try {
    const source = sharp(bytes, { limitInputPixels: maxInputPixels });
    const { width = 0, height = 0, orientation = 1 } = await source.metadata();
    if (width === 0 || height === 0) return bytes;
    const uprightWidth = orientation >= 5 ? height : width;
    const scale =
      uprightWidth < minOcrWidth
        ? Math.min(maxUpscale, targetOcrWidth / uprightWidth)
        : uprightWidth > maxOcrWidth
          ? maxOcrWidth / uprightWidth
          : 1;
    const { data, info } = await source
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: Math.round(uprightWidth * scale), kernel: 'lanczos3' })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image = { data, width: info.width, height: info.height };
    await evenLighting(image);
    const { angle, lineHeight } = textLines(image);
    // Print larger than tesseract needs only costs time: reduced to the height it reads
    // best. (A page whose lines cannot be measured, or measure small, keeps its size.)
    if (lineHeight && lineHeight > targetLineHeight * 1.1) {
      const reduced = await sharp(image.data, {
        raw: { width: image.width, height: image.height, channels: 1 },
      })
        .resize({
          width: Math.round((image.width * targetLineHeight) / lineHeight),
          kernel: 'lanczos3',
        })
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true });
      Object.assign(image, {
        data: reduced.data,
        width: reduced.info.width,
        height: reduced.info.height,
      });
    }
    const upright = { width: image.width, height: image.height, angle: 0 };
    if (Math.abs(angle) >= minDeskewDegrees) {
      upright.angle = angle;
      const rotated = await sharp(image.data, {
        raw: { width: image.width, height: image.height, channels: 1 },
      })
        .rotate(-angle, { background: '#ffffff' })
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true });
      Object.assign(image, {
        data: rotated.data,
        width: rotated.info.width,
        height: rotated.info.height,
      });
    }
    Object.assign(placement, upright);
    stretchContrast(image);
    // Stored, not compressed: tesseract decodes it at once, and nobody keeps it.
    return await sharp(image.data, {
      raw: { width: image.width, height: image.height, channels: 1 },
    })
      .png({ compressionLevel: 0, adaptiveFiltering: false })
      .toBuffer();
  } catch {
    return bytes;
  }
}

interface GreyImage {
  /** One byte per pixel, row after row. */
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Divides the image by the brightness of its paper, in place, so that paper is white
 * everywhere (a shadow across a photographed receipt included) and ink stays dark. The
 * paper's brightness is measured on a small copy: the lightest grey near each place
 * (which skips over the letters), softened, and enlarged again.
 */
async function evenLighting(image: GreyImage): Promise<void> {
  const { default: sharp } = await import('sharp');
  const width = Math.max(16, Math.round(image.width / backgroundShrink));
  const small = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .resize({ width })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const height = small.info.height;
  const lightest = Buffer.alloc(small.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let max = 0;
      for (let dy = -paperRadius; dy <= paperRadius; dy++) {
        const row = Math.min(height - 1, Math.max(0, y + dy)) * width;
        for (let dx = -paperRadius; dx <= paperRadius; dx++)
          max = Math.max(max, small.data[row + Math.min(width - 1, Math.max(0, x + dx))]!);
      }
      lightest[y * width + x] = max;
    }
  }
  // Two pipelines: sharp applies one resize per pipeline.
  const background = await sharp(
    await sharp(lightest, { raw: { width, height, channels: 1 } })
      .blur(paperRadius)
      .toColourspace('b-w')
      .raw()
      .toBuffer(),
    { raw: { width, height, channels: 1 } },
  )
    .resize({ width: image.width, height: image.height, fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const { data } = image;
  for (let index = 0; index < data.length; index++)
    data[index] = Math.min(255, Math.round((data[index]! * 255) / Math.max(1, background[index]!)));
}

/**
 * Spreads the greys between the ink and the paper over the whole range, in place: the
 * paper is the lightest percent of the pixels, and the ink the median of the pixels
 * clearly darker than paper, so that faded thermal print becomes black rather than the
 * grey that tesseract's own thresholding loses. (A hard threshold here would break the
 * thin strokes of small print; tesseract thresholds anyway.)
 */
function stretchContrast(image: GreyImage): void {
  const histogram = new Uint32Array(256);
  for (const value of image.data) histogram[value]!++;
  const cut = image.data.length / 100;
  let paper = 255;
  for (let seen = histogram[255]!; paper > 0 && seen <= cut; seen += histogram[--paper]!);
  const darkest = paper - minInkContrast;
  let inkPixels = 0;
  for (let value = 0; value < darkest; value++) inkPixels += histogram[value]!;
  if (inkPixels === 0) return;
  let ink = 0;
  for (let seen = histogram[0]!; ink < darkest && seen < inkPixels / 2; seen += histogram[++ink]!);
  // One grey in, one grey out: a table of the 256 answers costs far less than working
  // each of a receipt's millions of pixels out again.
  const stretched = new Uint8Array(256);
  for (let value = 0; value < 256; value++)
    stretched[value] = Math.max(
      0,
      Math.min(255, Math.round(((value - ink) * 255) / (paper - ink))),
    );
  const { data } = image;
  for (let index = 0; index < data.length; index++) data[index] = stretched[data[index]!]!;
}

/**
 * The slope of the text lines, in degrees, and their height in pixels: the angle at which
 * the dark pixels, counted row by row, stack into the sharpest rows (lines of text with
 * white between them), and the usual height of those rows' bands of ink. A sample of the
 * pixels is measured, every half degree up to `maxDeskewDegrees` either way.
 */
function textLines(image: GreyImage): { angle: number; lineHeight?: number } {
  const step = Math.max(1, Math.round(image.width / skewSampleWidth));
  const dark: [number, number][] = [];
  for (let y = 0; y < image.height; y += step)
    for (let x = 0; x < image.width; x += step)
      if (image.data[y * image.width + x]! < 128) dark.push([x / step, y / step]);
  const width = Math.ceil(image.width / step);
  const height = Math.ceil(image.height / step);
  // A page that is mostly dark (a photo of something else) has no lines to measure.
  if (dark.length === 0 || dark.length > width * height * 0.4) return { angle: 0 };
  let best = { angle: 0, score: -1, rows: new Uint32Array(0) };
  for (let tenth = -maxDeskewDegrees * 2; tenth <= maxDeskewDegrees * 2; tenth++) {
    const angle = tenth / 2;
    const radians = (angle * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    // Rows shift by at most the width; the offset keeps the indices positive.
    const rows = new Uint32Array(height + 2 * width + 2);
    for (const [x, y] of dark) rows[Math.round(y * cos - x * sin) + width]!++;
    let score = 0;
    for (const count of rows) score += count * count;
    if (score > best.score || (score === best.score && Math.abs(angle) < Math.abs(best.angle)))
      best = { angle, score, rows };
  }
  const lineHeight = bandHeight(best.rows);
  return { angle: best.angle, lineHeight: lineHeight && lineHeight * step };
}

/**
 * The median height of the bands of inked rows in a row profile (in rows), or undefined
 * when there are too few bands to tell: a row belongs to a band when it holds a tenth of
 * the ink of a well-filled row.
 */
function bandHeight(rows: Uint32Array): number | undefined {
  const filled = [...rows].filter((count) => count > 0).sort((a, b) => a - b);
  if (filled.length === 0) return undefined;
  const inked = Math.max(2, filled[Math.floor(filled.length * 0.9)]! / 10);
  const bands: number[] = [];
  let run = 0;
  for (const count of [...rows, 0]) {
    if (count >= inked) run++;
    else {
      if (run >= 2) bands.push(run);
      run = 0;
    }
  }
  if (bands.length < minTextLines) return undefined;
  bands.sort((a, b) => a - b);
  return bands[bands.length >> 1];
}
