/**
 * Pictures of codes for the engine's tests: barcodes written by zxing-wasm's writer (from
 * the wasm in node_modules, as the reader is), placed on a white page, and machine-readable
 * zones of a passport or identity card drawn in a monospace font, with their check digits
 * worked out here (ICAO Doc 9303, part 3: weights 7, 3, 1; `<` is 0, A is 10).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type * as ZXingWriter from 'zxing-wasm/writer';

let writer: Promise<typeof ZXingWriter> | undefined;

function loadWriter(): Promise<typeof ZXingWriter> {
  writer ??= import('zxing-wasm/writer').then((module) => {
    const path = createRequire(import.meta.url).resolve('zxing-wasm/writer/zxing_writer.wasm');
    const wasm = readFileSync(path);
    module.prepareZXingModule({
      overrides: {
        wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength),
      },
    });
    return module;
  });
  return writer;
}

/** A code as a PNG (black modules on white, with its quiet zone), `scale` pixels a module. */
export async function writeCode(
  text: string,
  format: 'QRCode' | 'PDF417' | 'Aztec' | 'DataMatrix' | 'Code128' | 'EAN13',
  scale = 4,
): Promise<Buffer> {
  const { writeBarcode } = await loadWriter();
  const written = await writeBarcode(text, { format, scale });
  if (!written.image) throw new Error(`zxing could not write ${format}: ${written.error}`);
  return Buffer.from(await written.image.arrayBuffer());
}

export interface PlacedCode {
  png: Buffer;
  x: number;
  y: number;
}

/** A white page `width` × `height` with codes at their places and lines of text above them. */
export async function renderCodePage(
  width: number,
  height: number,
  codes: PlacedCode[],
  lines: string[] = [],
): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = '36px "Liberation Sans", "DejaVu Sans", sans-serif';
  lines.forEach((line, index) => context.fillText(line, 60, 80 + index * 56));
  for (const code of codes) context.drawImage(await loadImage(code.png), code.x, code.y);
  return canvas.encode('png');
}

/** The check digit of a field of a machine-readable zone. */
export function mrzCheckDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (const [index, character] of [...field].entries()) {
    const value = /\d/.test(character)
      ? Number(character)
      : /[A-Z]/.test(character)
        ? character.charCodeAt(0) - 55
        : 0;
    sum += value * weights[index % 3]!;
  }
  return String(sum % 10);
}

export interface PassportData {
  issuingState: string;
  surname: string;
  givenNames: string;
  documentNumber: string;
  nationality: string;
  /** YYMMDD */
  birthDate: string;
  sex: 'M' | 'F' | '<';
  /** YYMMDD */
  expiryDate: string;
}

/** The two lines of a passport's zone (TD3), every check digit right. */
export function td3Lines(data: PassportData): [string, string] {
  const name = `${data.surname}<<${data.givenNames}`.replace(/ /g, '<');
  const first = `P<${data.issuingState}${name}`.padEnd(44, '<').slice(0, 44);
  const number = data.documentNumber.padEnd(9, '<');
  const personal = ''.padEnd(14, '<');
  const composite =
    number +
    mrzCheckDigit(number) +
    data.birthDate +
    mrzCheckDigit(data.birthDate) +
    data.expiryDate +
    mrzCheckDigit(data.expiryDate) +
    personal +
    mrzCheckDigit(personal);
  const second =
    number +
    mrzCheckDigit(number) +
    data.nationality +
    data.birthDate +
    mrzCheckDigit(data.birthDate) +
    data.sex +
    data.expiryDate +
    mrzCheckDigit(data.expiryDate) +
    personal +
    mrzCheckDigit(personal) +
    mrzCheckDigit(composite);
  return [first, second];
}

/**
 * A specimen-like passport page: a few printed lines, then the zone at the bottom in a
 * monospace font (OCR-B is not installed; DejaVu Sans Mono has the same fixed pitch).
 */
export async function renderPassportPage(
  zone: readonly string[],
  options: { width?: number; height?: number; repeat?: number } = {},
): Promise<Buffer> {
  const width = options.width ?? 1800;
  const height = options.height ?? 1000;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = '34px "Liberation Sans", "DejaVu Sans", sans-serif';
  ['PASSPORT', 'Surname / Nom', 'Given names / Prenoms'].forEach((line, index) =>
    context.fillText(line, 80, 90 + index * 60),
  );
  context.font = '36px "DejaVu Sans Mono", "Liberation Mono", monospace';
  const repeat = options.repeat ?? 1;
  const lineHeight = 56;
  const top = repeat === 1 ? height - 80 - lineHeight * (zone.length - 1) : 60;
  for (let copy = 0; copy < repeat; copy++)
    zone.forEach((line, index) =>
      context.fillText(line, 60, top + (copy * zone.length + index) * lineHeight),
    );
  return canvas.encode('png');
}
