/**
 * What a file is, judged from its bytes and never from its name, by what each format of
 * `index.ts` says of its types: binary formats by their signatures; Office Open XML
 * packages by the parts listed in the ZIP's central directory; text by being valid UTF-8
 * without control bytes, then told apart by content (HTML markup, a consistent CSV shape,
 * Markdown syntax), the text formats tried in the list's order. Anything else is not
 * accepted.
 */
import { open } from 'node:fs/promises';
import type { AcceptedMediaType } from '../../../contract/resources.js';
import type { BytesAt } from './format.js';
import { formatTypes } from './index.js';

const headBytes = 8192;
/** The end-of-central-directory record sits in the last 22 bytes plus a comment of up to 64 KiB. */
const tailBytes = 22 + 65_535;
/** Every ZIP (an Office package among them) starts with a local file header, "PK\3\4". */
const zipSignature: readonly BytesAt[] = [{ at: 0, bytes: [0x50, 0x4b, 0x03, 0x04] }];

function matches(head: Uint8Array, signature: readonly BytesAt[]): boolean {
  return signature.every(({ at, bytes }) =>
    bytes.every((byte, index) => head[at + index] === byte),
  );
}

function binaryType(head: Uint8Array): AcceptedMediaType | 'zip' | undefined {
  for (const { mediaType, recognise } of formatTypes)
    if ('signatures' in recognise && recognise.signatures.some((each) => matches(head, each)))
      return mediaType;
  return matches(head, zipSignature) ? 'zip' : undefined;
}

/** Names of the entries in a ZIP's central directory, read from the file's tail. */
export function zipEntryNames(tail: Uint8Array): string[] {
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let index = tail.length - 22; index >= 0; index--) {
    if (view.getUint32(index, true) === 0x06054b50) {
      eocd = index;
      break;
    }
  }
  if (eocd < 0) return [];
  const entries = view.getUint16(eocd + 10, true);
  const size = view.getUint32(eocd + 12, true);
  // The directory ends where the EOCD record begins; it must lie inside what was read.
  let offset = eocd - size;
  if (offset < 0) return [];
  const names: string[] = [];
  const decoder = new TextDecoder();
  for (let entry = 0; entry < entries && offset + 46 <= eocd; entry++) {
    if (view.getUint32(offset, true) !== 0x02014b50) break;
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    names.push(decoder.decode(tail.subarray(offset + 46, offset + 46 + nameLength)));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

function officeType(names: readonly string[]): AcceptedMediaType | undefined {
  if (!names.includes('[Content_Types].xml')) return undefined;
  for (const { mediaType, recognise } of formatTypes)
    if ('zipPart' in recognise && names.includes(recognise.zipPart)) return mediaType;
  return undefined;
}

/** Valid UTF-8 (a sequence cut at the end of the sample is allowed) without NUL or control bytes. */
function decodeText(head: Uint8Array, complete: boolean): string | undefined {
  let bytes = head;
  if (!complete) {
    // Drop a multi-byte sequence the sample cut in half.
    let cut = bytes.length;
    for (let back = 1; back <= 3 && back <= bytes.length; back++) {
      const byte = bytes[bytes.length - back]!;
      if ((byte & 0xc0) === 0xc0) {
        cut = bytes.length - back;
        break;
      }
      if ((byte & 0x80) === 0) break;
    }
    bytes = bytes.subarray(0, cut);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // Tab, line feed, form feed and carriage return are text; other C0 controls are not.
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

function textType(text: string): AcceptedMediaType | undefined {
  const start = text.replace(/^\ufeff/, '').trimStart();
  if (/^<\?xml|^<svg[\s>]/i.test(start)) return undefined; // XML and SVG are not accepted.
  for (const { mediaType, recognise } of formatTypes)
    if ('text' in recognise && recognise.text(start)) return mediaType;
  return undefined;
}

/** The accepted media type of the file at `path`, or `undefined` when it is of no accepted kind. */
export async function sniffMediaType(path: string): Promise<AcceptedMediaType | undefined> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return undefined;
    const head = new Uint8Array(Math.min(headBytes, size));
    await handle.read(head, 0, head.length, 0);
    const binary = binaryType(head);
    if (binary === 'zip') {
      const length = Math.min(tailBytes, size);
      const tail = new Uint8Array(length);
      await handle.read(tail, 0, length, size - length);
      return officeType(zipEntryNames(tail));
    }
    if (binary) return binary;
    const text = decodeText(head, size <= headBytes);
    return text === undefined ? undefined : textType(text);
  } finally {
    await handle.close();
  }
}
