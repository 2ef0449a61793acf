/**
 * The tesseract engine: tesseract.js 7 with the LSTM models of `@tesseract.js-data/*`
 * (`4.0.0_best_int`) and the orientation-and-script model of `@tesseract.js-data/osd`,
 * read from `node_modules`: nothing is fetched from the network (without the model bytes
 * tesseract.js would download them from a CDN).
 *
 * A page is read in passes, each as cheap as the page allows:
 * 1. the first band of the page (about a third of its lines, cut in a blank row) with the
 *    English model, or with the caller's languages when it names them;
 * 2. only when that reading is weak (few words, low confidence): orientation and script
 *    detection (OSD), and the page turned upright and read again when it lies turned;
 * 3. the language from the script (Japanese, Arabic) or, for Latin script, from the words
 *    of the first band (franc-min, among the ten languages of the interface);
 * 4. an English page: the rest of the page below the band, with the same model; any
 *    other language: the whole page again with its own model.
 * So an English page costs one reading, and a page in another language a reading and a
 * third.
 *
 * Each model runs in a tesseract worker of its own, started when a page needs it; at most
 * `maxRecognisers` of them (and the OSD one) are up at once, the least recently used
 * stopped to make room, and all of them are stopped after a short idle time, because a
 * live worker thread keeps Node from exiting.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Tesseract from 'tesseract.js';
import type { DocumentLanguage } from '../../../contract/resources.js';
import { boxesOfPieces } from '../geometry.js';
import { layoutPage, type PlacedText } from '../layout.js';
import { imageDimensions } from '../limits.js';
import { ExtractionError } from '../types.js';
import type { OcrEngine, OcrOptions, OcrPage, OcrWord } from './engine.js';
import { prepareForOcr, type OcrPlacement, type QuarterTurn } from './prepare.js';

/** tesseract's model of each language. */
const models = {
  en: 'eng',
  de: 'deu',
  fr: 'fra',
  es: 'spa',
  it: 'ita',
  nl: 'nld',
  pl: 'pol',
  pt: 'por',
  ja: 'jpn',
  ar: 'ara',
} as const satisfies Record<DocumentLanguage, string>;
type Model = (typeof models)[DocumentLanguage];

/** franc's ISO 639-3 codes of the languages written in Latin script. */
const latinLanguages: Record<string, DocumentLanguage> = {
  eng: 'en',
  deu: 'de',
  fra: 'fr',
  spa: 'es',
  ita: 'it',
  nld: 'nl',
  pol: 'pl',
  por: 'pt',
};

/** The language an OSD script stands for, among ours. */
const scriptLanguages: Record<string, DocumentLanguage> = {
  Japanese: 'ja',
  Han: 'ja',
  Hiragana: 'ja',
  Katakana: 'ja',
  Arabic: 'ar',
};

/** Words below this confidence (0–100) are specks, rules and signatures, not text. */
const minWordConfidence = 15;
/**
 * A first reading this poor (mean word confidence, or words) may be a page lying turned
 * or in another script: OSD is asked. English print read upright scores above 80.
 */
const weakConfidence = 65;
const weakWords = 4;
/** OSD's confidence in an orientation below this is a guess, and the page is left as it is. */
const minOrientationConfidence = 1.5;
/** Letters franc needs to name a language. */
const minLanguageLetters = 40;
/** English scoring this share of the best language's score is taken as English. */
const clearlyOther = 0.9;
/** White rows above and below each part of a page cut in two, in pixels. */
const partMargin = 40;
/** Recognition workers (one model each) up at once; the least recently used goes first. */
const maxRecognisers = 2;

/** tesseract's page segmentation modes (`Tesseract.PSM`, which loads with the engine). */
const sparseText = '11' as Tesseract.PSM;
const singleBlock = '6' as Tesseract.PSM;

const require = createRequire(import.meta.url);

/** Where a model's package keeps it: each language ships in a package of its own. */
function modelDir(model: Model | 'osd'): string {
  return join(
    dirname(require.resolve(`@tesseract.js-data/${model}/package.json`)),
    '4.0.0_best_int',
  );
}

// ---------------------------------------------------------------------------------------
// Workers

interface Slot {
  worker: Promise<Tesseract.Worker>;
  /** The jobs of a worker run one after the other: a job may set parameters for itself. */
  queue: Promise<unknown>;
  jobs: number;
  lastUsed: number;
}

const slots = new Map<Model | 'osd', Slot>();
let idleMs = 3000;
let idleTimer: NodeJS.Timeout | undefined;

async function startWorker(model: Model | 'osd'): Promise<Tesseract.Worker> {
  // Loaded at the first image, like the workers: most processes never run OCR.
  const { default: Tesseract } = await import('tesseract.js');
  const osd = model === 'osd';
  const started = await Tesseract.createWorker(
    model,
    osd ? Tesseract.OEM.TESSERACT_ONLY : Tesseract.OEM.LSTM_ONLY,
    {
      langPath: modelDir(model),
      gzip: true,
      cacheMethod: 'none',
      // OSD is tesseract's legacy engine, which the LSTM-only core leaves out.
      legacyCore: osd,
      legacyLang: osd,
      // A job that fails (an image tesseract cannot decode) rejects its own promise;
      // without a handler, tesseract.js also throws the reason from its message listener,
      // where nothing can catch it and it ends the process.
      errorHandler: () => {},
    },
  );
  // Sparse-text segmentation finds words in boxes and scattered fields that the default
  // page segmentation drops; the lines are rebuilt from the word positions afterwards.
  // A fixed resolution and a null debug file keep tesseract from printing its estimates
  // and warnings on the service's output.
  await started.setParameters({
    ...(osd ? {} : { tessedit_pageseg_mode: sparseText }),
    user_defined_dpi: '300',
    debug_file: '/dev/null',
  });
  return started;
}

async function withModel<T>(
  model: Model | 'osd',
  job: (worker: Tesseract.Worker) => Promise<T>,
): Promise<T> {
  clearTimeout(idleTimer);
  let slot = slots.get(model);
  if (!slot) {
    if (model !== 'osd') await makeRoom();
    const worker = startWorker(model);
    slot = { worker, queue: worker, jobs: 0, lastUsed: 0 };
    slots.set(model, slot);
    worker.catch(() => slots.get(model) === slot && slots.delete(model));
  }
  const current = slot;
  current.jobs++;
  current.lastUsed = performance.now();
  const run = current.queue.then(
    async () => job(await current.worker),
    async () => job(await current.worker),
  );
  current.queue = run.catch(() => undefined);
  try {
    return await run;
  } finally {
    current.jobs--;
    if ([...slots.values()].every((each) => each.jobs === 0)) {
      idleTimer = setTimeout(() => void terminateAll(), idleMs);
      idleTimer.unref();
    }
  }
}

/** Stops the least recently used idle recognition worker when the bound is reached. */
async function makeRoom(): Promise<void> {
  const recognisers = [...slots].filter(([model]) => model !== 'osd');
  if (recognisers.length < maxRecognisers) return;
  const idle = recognisers
    .filter(([, slot]) => slot.jobs === 0)
    .sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
  // Every worker busy (pages of several languages read at once): one more, for a while.
  if (!idle) return;
  slots.delete(idle[0]);
  await (await idle[1].worker.catch(() => undefined))?.terminate();
}

async function terminateAll(): Promise<void> {
  clearTimeout(idleTimer);
  const stopping = [...slots.values()];
  slots.clear();
  await Promise.all(
    stopping.map(async (slot) => (await slot.worker.catch(() => undefined))?.terminate()),
  );
}

// ---------------------------------------------------------------------------------------
// Readings

interface Reading {
  words: RawWord[];
  confidence: number;
}

interface RawWord {
  /** The line tesseract put it on, counted over one reading. */
  line: number;
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A part of the prepared image, cut across in a blank row, and where its top lies. */
interface Part {
  image: Uint8Array;
  top: number;
}

async function read(model: Model, part: Part, characters?: string): Promise<Reading> {
  const image = Buffer.from(part.image);
  const result = await withModel(model, async (worker) => {
    if (characters === undefined) return worker.recognize(image, {}, { blocks: true });
    // A few characters (a zone's) are a block of lines of print, not scattered words:
    // sparse-text segmentation drops a line of them now and then.
    await worker.setParameters({
      tessedit_char_whitelist: characters,
      tessedit_pageseg_mode: singleBlock,
    });
    try {
      return await worker.recognize(image, {}, { blocks: true });
    } finally {
      await worker.setParameters({
        tessedit_char_whitelist: '',
        tessedit_pageseg_mode: sparseText,
      });
    }
  });
  const words: RawWord[] = [];
  let lineNumber = 0;
  for (const block of result.data.blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines) {
        lineNumber++;
        for (const word of line.words) {
          // Limited to some characters, what is read is checked by the caller (a zone's
          // check digits): a line of fillers, which tesseract scores 0, is kept.
          if (word.text.trim() === '') continue;
          if (characters === undefined && word.confidence < minWordConfidence) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({
            line: lineNumber,
            text: word.text,
            confidence: word.confidence,
            x0,
            x1,
            y0: y0 + part.top,
            y1: y1 + part.top,
          });
        }
      }
  return { words, confidence: meanConfidence(words) };
}

function meanConfidence(words: readonly RawWord[]): number {
  return words.length ? words.reduce((sum, word) => sum + word.confidence, 0) / words.length : 0;
}

interface Orientation {
  turn: QuarterTurn;
  script: string | undefined;
}

/** The page's orientation and script, as OSD sees them. */
async function detectOrientation(image: Uint8Array): Promise<Orientation> {
  const { data } = await withModel('osd', (worker) => worker.detect(Buffer.from(image)));
  const degrees = data.orientation_degrees ?? 0;
  // OSD names how far the page is turned anticlockwise; turning it that far clockwise
  // sets it upright.
  const turn =
    (data.orientation_confidence ?? 0) >= minOrientationConfidence &&
    [90, 180, 270].includes(degrees)
      ? (degrees as QuarterTurn)
      : 0;
  return { turn, script: data.script ?? undefined };
}

/**
 * The language of a reading in Latin script, among ours: English unless the words read
 * clearly as another (a short band of invoice labels and figures is English or nothing);
 * undefined when there are too few letters to tell.
 */
async function latinLanguage(words: readonly RawWord[]): Promise<DocumentLanguage | undefined> {
  const text = words.map((word) => word.text).join(' ');
  if ((text.match(/\p{L}/gu) ?? []).length < minLanguageLetters) return undefined;
  const { francAll } = await import('franc-min');
  const scores = francAll(text, { only: Object.keys(latinLanguages) });
  const english = scores.find(([code]) => code === 'eng')?.[1] ?? 0;
  const [best] = scores[0] ?? [];
  return english >= clearlyOther ? 'en' : (latinLanguages[best ?? 'eng'] ?? 'en');
}

// ---------------------------------------------------------------------------------------
// A page

interface Prepared {
  image: Uint8Array;
  placement: OcrPlacement;
}

async function prepare(bytes: Uint8Array, turn: QuarterTurn): Promise<Prepared> {
  const placement: OcrPlacement = {};
  const image = await prepareForOcr(bytes, placement, turn);
  return { image, placement };
}

/** How much a reading holds: its characters, each counted by its word's confidence. */
function weight(reading: Reading): number {
  return reading.words.reduce((sum, word) => sum + word.text.length * word.confidence, 0);
}

function isWeak(reading: Reading): boolean {
  return reading.words.length < weakWords || reading.confidence < weakConfidence;
}

/**
 * The prepared image cut in two at its first band's end (tesseract's own rectangles mix up
 * the words of sparse-text pages), or undefined when it has no band.
 */
async function bandOf(page: Prepared): Promise<{ band: Part; rest: Part } | undefined> {
  const size = imageDimensions(page.image);
  const end = page.placement.bandEnd;
  if (!size || !end) return undefined;
  const { default: sharp } = await import('sharp');
  // Each part gets a white margin, as a page has: tesseract misreads print at the edge.
  const cut = (top: number, height: number) =>
    sharp(page.image)
      .extract({ left: 0, top, width: size.width, height })
      .extend({ top: partMargin, bottom: partMargin, background: '#ffffff' })
      .png({ compressionLevel: 0, adaptiveFiltering: false })
      .toBuffer();
  return {
    band: { image: await cut(0, end), top: -partMargin },
    rest: { image: await cut(end, size.height - end), top: end - partMargin },
  };
}

/**
 * A reading limited to some characters (a machine-readable zone cut from its page) is of a
 * known text in a known place: the whole image as given, in one pass, with the caller's
 * language's model or English. No orientation is guessed (OSD takes two lines of `<<<` for
 * a page lying on its side) and no language (the letters of a zone are no language's words).
 */
async function recognizeCharacters(
  bytes: Uint8Array,
  characters: string,
  options: OcrOptions,
): Promise<OcrPage> {
  const named = [...new Set(options.languages ?? [])];
  const language = named.length === 1 ? named[0]! : undefined;
  const page = await prepare(bytes, 0);
  const { words } = await read(models[language ?? 'en'], { image: page.image, top: 0 }, characters);
  options.signal?.throwIfAborted();
  return pageOf(words, page, { language, script: undefined, turn: 0 });
}

async function recognizePage(bytes: Uint8Array, options: OcrOptions): Promise<OcrPage> {
  if (options.characters !== undefined)
    return recognizeCharacters(bytes, options.characters, options);
  const named = [...new Set(options.languages ?? [])];
  const firstModel: Model = named.length === 1 ? models[named[0]!] : 'eng';
  const readWith = (model: Model, part: Part) => read(model, part);
  const whole = (page: Prepared): Part => ({ image: page.image, top: 0 });

  let page = await prepare(bytes, 0);
  let parts = await bandOf(page);
  let first = await readWith(firstModel, parts?.band ?? whole(page));
  let script: string | undefined;
  let turn: QuarterTurn = 0;
  if (isWeak(first)) {
    options.signal?.throwIfAborted();
    ({ turn, script } = await detectOrientation(page.image).catch(() => ({
      turn: 0 as const,
      script: undefined,
    })));
    if (turn !== 0) {
      const turned = await prepare(bytes, turn);
      const turnedParts = await bandOf(turned);
      const again = await readWith(firstModel, turnedParts?.band ?? whole(turned));
      // OSD guesses on print that is no language's (lines of `<<<`, codes, figures): the
      // page is taken as turned only when it reads better so.
      if (weight(again) > weight(first)) {
        page = turned;
        parts = turnedParts;
        first = again;
      } else turn = 0;
    }
  }
  options.signal?.throwIfAborted();

  // The language from the script, else from the band's words, else (a band too short to
  // tell) from the whole page read with the first model.
  let words = first.words;
  let complete = !parts;
  const fromPage = async () => (script && scriptLanguages[script]) || (await latinLanguage(words));
  let found = named.length === 1 ? named[0] : await fromPage();
  if (!found && parts) {
    words = [...first.words, ...(await readWith(firstModel, parts.rest)).words];
    complete = true;
    found = await fromPage();
  }
  // Among the owner's languages when they named several.
  const language =
    named.length === 0 ? (found ?? 'en') : found && named.includes(found) ? found : named[0]!;
  const model = models[language];
  if (model !== firstModel) words = (await readWith(model, whole(page))).words;
  else if (!complete && parts)
    words = [...first.words, ...(await readWith(model, parts.rest)).words];
  options.signal?.throwIfAborted();
  return pageOf(words, page, { language, script, turn });
}

/** The words laid out as lines, with their boxes taken back to the image as shown. */
function pageOf(
  read: readonly RawWord[],
  page: Prepared,
  found: { language: DocumentLanguage | undefined; script: string | undefined; turn: QuarterTurn },
): OcrPage {
  const words = found.language === 'ja' ? joinCharacters(read) : read;
  const size = imageDimensions(page.image) ?? { width: 0, height: 0 };
  const rightToLeft = found.language === 'ar';
  // A right-to-left line is read from its right end: laid out mirrored, and each piece
  // then put back where it is.
  const upright = words.map((word): PlacedText => ({
    text: word.text,
    x: word.x0,
    y: (word.y0 + word.y1) / 2,
    width: word.x1 - word.x0,
    height: word.y1 - word.y0,
  }));
  const pieces = rightToLeft
    ? upright.map((piece) => ({ ...piece, x: size.width - piece.x - piece.width }))
    : upright;
  const original = new Map(pieces.map((piece, index) => [piece, upright[index]!]));
  const { text, placed } = layoutPage(pieces, { separateWords: true });
  const toShown = shownPoint(size, page.placement);
  const shown = shownSize(size, page.placement);
  const boxes = boxesOfPieces(
    placed.map((laid) => ({ ...laid, piece: original.get(laid.piece) ?? laid.piece })),
    shown.width,
    shown.height,
    toShown,
  );
  const ocrWords: OcrWord[] = [];
  for (const [index, word] of words.entries()) {
    const piece = upright[index]!;
    const [box] = boxesOfPieces([{ piece, start: 0, end: 1 }], shown.width, shown.height, toShown);
    if (box) {
      const { start: _start, end: _end, ...place } = box;
      ocrWords.push({ text: word.text, confidence: word.confidence, box: place });
    }
  }
  return {
    text,
    confidence: meanConfidence(words),
    boxes,
    words: ocrWords,
    language: found.language,
    script: found.script,
    orientation: found.turn,
  };
}

/**
 * Japanese is written without spaces between words: the runs of characters that tesseract
 * gives as words are joined where they follow each other on a line, less than a
 * character's height apart.
 */
function joinCharacters(words: readonly RawWord[]): RawWord[] {
  const joined: RawWord[] = [];
  for (const word of words) {
    const last = joined.at(-1);
    const height = Math.max(word.y1 - word.y0, 1);
    if (last && last.line === word.line && word.x0 - last.x1 < height && word.x0 >= last.x0) {
      joined[joined.length - 1] = {
        ...last,
        text: last.text + word.text,
        confidence: Math.min(last.confidence, word.confidence),
        x1: Math.max(last.x1, word.x1),
        y0: Math.min(last.y0, word.y0),
        y1: Math.max(last.y1, word.y1),
      };
    } else joined.push({ ...word });
  }
  return joined;
}

/** The size of the image as shown, before it was turned upright. */
function shownSize(
  read: { width: number; height: number },
  placement: OcrPlacement,
): { width: number; height: number } {
  const width = placement.width ?? read.width;
  const height = placement.height ?? read.height;
  return placement.turn === 90 || placement.turn === 270
    ? { width: height, height: width }
    : { width, height };
}

/**
 * Takes a point of the image tesseract read back to the image as shown, in the latter's
 * pixels at the prepared scale: the levelling turn undone about the centres, then the
 * quarter turn.
 */
function shownPoint(
  read: { width: number; height: number },
  placement: OcrPlacement,
): (x: number, y: number) => [number, number] {
  const width = placement.width ?? read.width;
  const height = placement.height ?? read.height;
  const radians = ((placement.angle ?? 0) * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const level = (x: number, y: number): [number, number] => {
    if (radians === 0) return [x, y];
    // The turn was about the centre, onto a canvas grown to hold the corners: a point of
    // the read image goes back by turning it the other way about the centres.
    const dx = x - read.width / 2;
    const dy = y - read.height / 2;
    return [width / 2 + dx * cos - dy * sin, height / 2 + dx * sin + dy * cos];
  };
  // The upright image is the shown one turned `turn` degrees clockwise.
  return (x, y) => {
    const [ux, uy] = level(x, y);
    switch (placement.turn) {
      case 90:
        return [uy, width - ux];
      case 180:
        return [width - ux, height - uy];
      case 270:
        return [height - uy, ux];
      default:
        return [ux, uy];
    }
  };
}

export const tesseractEngine: OcrEngine = {
  async recognize(image, options = {}) {
    options.signal?.throwIfAborted();
    try {
      return await recognizePage(image, options);
    } catch (error) {
      // tesseract.js rejects an image it cannot decode with its message, not an Error.
      if (error instanceof Error) throw error;
      throw new ExtractionError(
        `${options.source ?? 'The image'} could not be read as an image; it may be damaged`,
        'damaged_file',
      );
    }
  },
  terminate: terminateAll,
  setIdleTime(ms) {
    const previous = idleMs;
    idleMs = ms;
    return previous;
  },
};
