/**
 * What one document may cost, and the plain errors that say which file passed which limit.
 * The readers check what they can before they spend anything (pages declared by a PDF,
 * pixels declared by an image header, bytes a ZIP inflates to); the pool enforces memory
 * and time from outside, by ending the worker process (./pool.ts). Every limit is set by
 * environment (../../config.ts) and listed in docs/operating/configuration.md.
 */
import { inflateRawSync } from 'node:zlib';
import { imageSize } from 'image-size';
import { ExtractionError } from './types.js';

export interface DocumentLimits {
  /** Memory one document worker may use (its heap and everything else it holds), in MB. */
  memoryMb: number;
  /** Time one document may take to read, and one chunk's rules to run, in ms. */
  timeMs: number;
  /** Pages of one document. */
  pages: number;
  /** Pixels of one image: an image file, a picture in a document, a rendered page. */
  megapixels: number;
  /** Bytes an office file (DOCX, XLSX: a ZIP) may unpack to, in MB. */
  uncompressedMb: number;
  /** Characters of text one document may give. */
  characters: number;
}

export const defaultDocumentLimits: DocumentLimits = {
  memoryMb: 1024,
  timeMs: 600_000,
  pages: 1000,
  megapixels: 50,
  uncompressedMb: 64,
  characters: 10_000_000,
};

const count = (value: number) => value.toLocaleString('en-US');

/** A document passed one of the limits; the message names the file and the limit. */
export class DocumentLimitError extends ExtractionError {
  override name = 'DocumentLimitError';

  constructor(message: string) {
    // Whichever limit, the person's remedy is the same: a smaller or simpler file.
    super(message, 'too_large');
  }
}

export function memoryLimitError(fileName: string, limits: DocumentLimits): DocumentLimitError {
  return new DocumentLimitError(
    `${fileName} needed more than ${count(limits.memoryMb)} MB of memory to read; the limit is ${count(limits.memoryMb)} MB per document`,
  );
}

export function timeLimitError(fileName: string, limits: DocumentLimits): DocumentLimitError {
  const seconds = Math.round(limits.timeMs / 1000);
  return new DocumentLimitError(
    `${fileName} took longer than ${count(seconds)} s to read; the limit is ${count(seconds)} s per document`,
  );
}

export function checkPages(fileName: string, pages: number, limits: DocumentLimits): void {
  if (pages > limits.pages)
    throw new DocumentLimitError(
      `${fileName} has ${count(pages)} pages; the limit is ${count(limits.pages)} pages`,
    );
}

/** `what` is the file, or a part of it ("scan.pdf, page 3"). */
export function checkPixels(
  what: string,
  width: number,
  height: number,
  limits: DocumentLimits,
): void {
  if (width * height > limits.megapixels * 1_000_000)
    throw new DocumentLimitError(
      `${what} is ${count(width)} x ${count(height)} pixels; the limit is ${count(limits.megapixels)} megapixels`,
    );
}

/**
 * An image's size from its header alone, without decoding it (a 16000 x 16000 PNG of a few
 * hundred kilobytes decodes to a gigabyte); `undefined` for bytes no header reader knows,
 * which the decoder then refuses on its own.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

export function checkImage(what: string, bytes: Uint8Array, limits: DocumentLimits): void {
  const size = imageDimensions(bytes);
  if (size) checkPixels(what, size.width, size.height, limits);
}

export function checkCharacters(fileName: string, characters: number, limits: DocumentLimits) {
  if (characters > limits.characters)
    throw new DocumentLimitError(
      `${fileName} holds more than ${count(limits.characters)} characters of text; the limit is ${count(limits.characters)} characters`,
    );
}

/**
 * Inflates every entry of a ZIP (a DOCX or XLSX) just to count what it unpacks to, before a
 * reader that would hold it all in memory sees it. The sizes the ZIP declares are not
 * trusted: a bomb declares whatever it likes. An entry is inflated with a ceiling of what is
 * left of the allowance, so no more than the limit is ever held. A file that is not a ZIP
 * is left for the reader to refuse.
 */
export function checkUnpackedSize(fileName: string, zip: Buffer, limits: DocumentLimits): void {
  const allowance = limits.uncompressedMb * 1024 * 1024;
  const tooLarge = () =>
    new DocumentLimitError(
      `${fileName} unpacks to more than ${count(limits.uncompressedMb)} MB; the limit for an office file is ${count(limits.uncompressedMb)} MB`,
    );
  const entries = zipEntries(zip);
  if (!entries) return;
  let total = 0;
  for (const entry of entries) {
    const left = allowance - total;
    if (entry.method === 0) total += entry.data.length;
    else if (entry.method === 8) {
      try {
        total += inflateRawSync(entry.data, { maxOutputLength: Math.max(1, left + 1) }).length;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
        continue; // damaged: the reader says so in its own words
      }
    }
    if (total > allowance) throw tooLarge();
  }
}

interface ZipEntry {
  method: number;
  data: Buffer;
}

/** The entries of a ZIP from its central directory, each with its compressed bytes. */
function zipEntries(zip: Buffer): ZipEntry[] | undefined {
  // The end-of-central-directory record is the last 22 bytes, before a comment of up to 64 KB.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const starts: number[] = [];
  const headers: { method: number; compressedSize: number; localOffset: number }[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) return undefined;
    const header = {
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    };
    headers.push(header);
    starts.push(header.localOffset);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  const directoryStart = zip.readUInt32LE(end + 16);
  const sortedStarts = [...starts, directoryStart].sort((a, b) => a - b);
  const entries: ZipEntry[] = [];
  for (const header of headers) {
    const local = header.localOffset;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) return undefined;
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    // The next entry's start bounds this one's data, whatever size it declares (ZIP64
    // entries declare 0xffffffff here and their real size elsewhere).
    const next = sortedStarts.find((start) => start > local) ?? zip.length;
    const declared =
      header.compressedSize === 0xffffffff ? next - dataStart : header.compressedSize;
    entries.push({
      method: header.method,
      data: zip.subarray(dataStart, Math.min(next, dataStart + declared, zip.length)),
    });
  }
  return entries;
}
