/**
 * Compression of the built interface's files (scripts, styles, the library): Brotli where
 * the client accepts it, else gzip, else the bytes as they are. The files change only
 * with a build, so each is compressed once, at the highest settings, and the result kept
 * beside the bytes it came from: a request costs a comparison, not a compression. API
 * answers are not compressed: each is new, so each would cost a compression per request.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { parseAccept } from 'hono/utils/accept';
import { qualityOf } from './negotiation.js';

export const contentEncodings = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof contentEncodings)[number];

/**
 * The encoding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3): the first of
 * ours, in our order of preference, that the header accepts with a q-value above 0,
 * by name or through `*`. Read with Hono's parser, and q-values as negotiation reads them.
 */
export function chooseEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const coding of parseAccept(acceptEncoding))
    weights.set(coding.type.toLowerCase(), qualityOf(coding));
  return contentEncodings.find((encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0);
}

/** Media types worth compressing: text. Images other than SVG and fonts are compressed already. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript)|image\/svg\+xml)/.test(contentType);
}

interface Compressed {
  source: Buffer;
  encoded: Partial<Record<ContentEncoding, Buffer>>;
}

const compressedFiles = new Map<string, Compressed>();

function compress(content: Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      })
    : gzipSync(content, { level: 9 });
}

/**
 * The file at `path`, whose bytes are `content`, in `encoding`: from the cache while the
 * bytes are the same as when it was compressed (a new build replaces them), or undefined
 * when compression would not make it smaller.
 */
export function compressedFile(
  path: string,
  content: Buffer,
  encoding: ContentEncoding,
): Buffer | undefined {
  let entry = compressedFiles.get(path);
  if (!entry || !entry.source.equals(content)) {
    entry = { source: content, encoded: {} };
    compressedFiles.set(path, entry);
  }
  const encoded = (entry.encoded[encoding] ??= compress(content, encoding));
  return encoded.length < content.length ? encoded : undefined;
}
