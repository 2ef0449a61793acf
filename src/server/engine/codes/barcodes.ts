/**
 * Barcodes and 2D codes on a picture (an image file, a scanned or rendered PDF page), read
 * with zxing-wasm (ZXing-C++ compiled to WebAssembly): every symbology it knows, QR codes,
 * PDF417, Aztec, Data Matrix, Code 128, EAN and the rest.
 *
 * zxing-wasm fetches its .wasm from a CDN unless told otherwise; here the module is given
 * the bytes of the one in `node_modules/zxing-wasm` (`wasmBinary`), so nothing is fetched.
 * Packages stay outside the service's bundle (src/tools/build-server.ts), so the same path
 * resolves under tsx and in `dist/server/document-worker.mjs`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as ZXingReader from 'zxing-wasm/reader';
import type { ReadResult } from 'zxing-wasm/reader';

/** Where a code is, in fractions of its picture (0 to 1 from the top-left corner). */
export interface CodeBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FoundBarcode {
  /** The symbology as people name it: "QR Code", "PDF417", "Data Matrix", "EAN-13"… */
  kind: string;
  /** What the code holds, as text (UTF-8, or the character set its ECI names). */
  text: string;
  box: CodeBox;
}

/**
 * Pictures are read at most this wide or high: a 50-megapixel page is reduced to about
 * 11 megapixels (44 MB of RGBA for the decoder) first. A code small enough to be lost by
 * the reduction is a few millimetres on a poster-sized scan.
 */
const maxReadSide = 4096;
/** sharp refuses larger pictures before it decodes them (the document limit is lower). */
const maxInputPixels = 100_000_000;
/**
 * zxing stops after this many codes on one picture (its own ceiling is 255). A page of
 * tickets or labels holds a few dozen; a page of ten thousand is not a document.
 */
export const maxCodesPerPicture = 100;

export const wasmPath = createRequire(import.meta.url).resolve(
  'zxing-wasm/reader/zxing_reader.wasm',
);

let reader: Promise<typeof ZXingReader> | undefined;

/** The reader module, given the local wasm once per process (loaded at the first picture). */
function loadReader(): Promise<typeof ZXingReader> {
  reader ??= import('zxing-wasm/reader').then((module) => {
    const wasm = readFileSync(wasmPath);
    module.prepareZXingModule({
      overrides: {
        wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength),
      },
    });
    return module;
  });
  return reader;
}

/**
 * Every code on a picture (PNG, JPEG, WebP or TIFF bytes), in reading order (top to
 * bottom, then left to right). Bytes sharp cannot decode give no codes: OCR says what it
 * makes of them.
 */
export async function readBarcodes(
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<FoundBarcode[]> {
  signal?.throwIfAborted();
  const { default: sharp } = await import('sharp');
  let picture: { data: Buffer; width: number; height: number };
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxInputPixels })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: maxReadSide, height: maxReadSide, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    picture = { data, width: info.width, height: info.height };
  } catch {
    return [];
  }
  const zxing = await loadReader();
  signal?.throwIfAborted();
  const results = await zxing.readBarcodes(
    {
      data: new Uint8ClampedArray(
        picture.data.buffer,
        picture.data.byteOffset,
        picture.data.length,
      ),
      width: picture.width,
      height: picture.height,
    } as ImageData,
    { formats: [], tryHarder: true, maxNumberOfSymbols: maxCodesPerPicture },
  );
  signal?.throwIfAborted();
  return results
    .filter((result) => result.isValid && result.text.trim() !== '')
    .map((result) => ({
      kind: zxing.formatToLabel(result.format) ?? result.format,
      text: result.text,
      box: boxOf(result, picture.width, picture.height),
    }))
    .sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** The upright rectangle around a code's four corners, in fractions of the picture. */
function boxOf(result: ReadResult, width: number, height: number): CodeBox {
  const { topLeft, topRight, bottomLeft, bottomRight } = result.position;
  const corners = [topLeft, topRight, bottomLeft, bottomRight];
  const left = clamp(Math.min(...corners.map((corner) => corner.x)) / width);
  const right = clamp(Math.max(...corners.map((corner) => corner.x)) / width);
  const top = clamp(Math.min(...corners.map((corner) => corner.y)) / height);
  const bottom = clamp(Math.max(...corners.map((corner) => corner.y)) / height);
  // A linear code's corners can lie on one scan line: give it at least a sliver of height.
  return {
    x: round(left),
    y: round(top),
    width: round(Math.max(right - left, 0.001)),
    height: round(Math.max(bottom - top, 0.001)),
  };
}
