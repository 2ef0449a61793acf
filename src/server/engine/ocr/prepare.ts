/**
 * Images made ready for OCR: grey, at the size tesseract reads best, the light evened, the
 * ink darkened, the lines levelled, and turned upright when the page lies sideways or upside
 * down. `OcrPlacement` says how the prepared picture relates to the image as shown, so that
 * the words' boxes can be taken back to it.
 */

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
/** A quarter turn, clockwise, in degrees. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/**
 * How the image tesseract read relates to the image as shown to a person (its EXIF
 * orientation applied): that image turned `turn` degrees clockwise (a page photographed
 * sideways or upside down, set upright), scaled to `width` × `height`, then turned `angle`
 * degrees (anticlockwise, to level its lines) onto a larger canvas. `bandEnd` is a blank
 * row of the prepared image below about the first third of its text, where a first
 * reading of part of the page can stop. Filled in by `prepareForOcr`; empty when it left
 * the image as it was.
 */
export interface OcrPlacement {
  turn?: QuarterTurn;
  width?: number;
  height?: number;
  angle?: number;
  bandEnd?: number;
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
  turn: QuarterTurn = 0,
): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  try {
    const source = sharp(bytes, { limitInputPixels: maxInputPixels });
    const { width = 0, height = 0, orientation = 1 } = await source.metadata();
    if (width === 0 || height === 0) return bytes;
    // EXIF orientations 5 to 8 lie sideways, and so does a page turned a quarter.
    const uprightWidth = orientation >= 5 !== (turn === 90 || turn === 270) ? height : width;
    const scale =
      uprightWidth < minOcrWidth
        ? Math.min(maxUpscale, targetOcrWidth / uprightWidth)
        : uprightWidth > maxOcrWidth
          ? maxOcrWidth / uprightWidth
          : 1;
    const { data, info } = await source
      .autoOrient()
      .rotate(turn)
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
    stretchContrast(image);
    Object.assign(placement, upright, { turn, bandEnd: firstBandEnd(image) });
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

/** The first band of a page ends below this share of its rows of ink, in a blank row. */
const firstBandShare = 0.3;

/**
 * The middle of a gap below about the first third of the image's rows of ink (counted on level
 * lines), before its last fifth; undefined when there is none, or too little text to cut.
 */
function firstBandEnd(image: GreyImage): number | undefined {
  const inkRows: boolean[] = [];
  for (let y = 0; y < image.height; y++) {
    let dark = 0;
    const row = y * image.width;
    for (let x = 0; x < image.width; x += 2) if (image.data[row + x]! < 128) dark++;
    inkRows.push(dark > 1);
  }
  const total = inkRows.filter(Boolean).length;
  if (total < minTextLines * 20) return undefined;
  let seen = 0;
  for (let y = 0; y < image.height * 0.8; y++) {
    if (inkRows[y]) seen++;
    else if (seen >= total * firstBandShare) {
      // The middle of the blank rows, so that both parts keep a margin around their print.
      let end = y;
      while (end < image.height && !inkRows[end]) end++;
      return Math.round((y + end) / 2);
    }
  }
  return undefined;
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
