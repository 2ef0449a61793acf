/** Image files (PNG, JPEG, WebP, TIFF): one page, read by OCR. */
import { checkImage, imageDimensions, type DocumentLimits } from '../limits.js';
import { withPageCodes } from '../codes/page-codes.js';
import { ocr } from '../ocr/ocr.js';
import {
  ExtractionError,
  type ContentOptions,
  type PageCode,
  type PageImage,
  type SourceFile,
  type TextBox,
} from '../types.js';
import type { DocumentFormat, DrawnPage, PageDrawing, ReadPage } from './format.js';

export const imageFormat: DocumentFormat = {
  name: 'image',
  types: [
    {
      mediaType: 'image/png',
      extensions: ['.png'],
      recognise: {
        signatures: [[{ at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }]],
      },
    },
    {
      mediaType: 'image/jpeg',
      extensions: ['.jpg', '.jpeg'],
      recognise: { signatures: [[{ at: 0, bytes: [0xff, 0xd8, 0xff] }]] },
    },
    {
      mediaType: 'image/webp',
      extensions: ['.webp'],
      // A RIFF container ("RIFF") of WebP ("WEBP").
      recognise: {
        signatures: [
          [
            { at: 0, bytes: [0x52, 0x49, 0x46, 0x46] },
            { at: 8, bytes: [0x57, 0x45, 0x42, 0x50] },
          ],
        ],
      },
    },
    {
      mediaType: 'image/tiff',
      extensions: ['.tif', '.tiff'],
      // Little-endian ("II*") or big-endian ("MM*").
      recognise: {
        signatures: [
          [{ at: 0, bytes: [0x49, 0x49, 0x2a, 0x00] }],
          [{ at: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] }],
        ],
      },
    },
  ],
  pageCount: { by: 'type', pages: 1 },
  read: async (bytes, file, { options, limits, signal, onPage }) => {
    // One page, which OCR may take seconds to read.
    onPage?.(0, 1);
    return [await readImage(bytes, file, options, limits, signal)];
  },
  drawPage: drawImage,
};

/**
 * An image file is one page: its text is what OCR finds, and its page picture is the file
 * itself. Vision APIs take PNG, JPEG and WebP; a TIFF is read by OCR only.
 */
export async function readImage(
  bytes: Buffer,
  file: SourceFile,
  options: ContentOptions,
  limits: DocumentLimits,
  signal?: AbortSignal,
): Promise<ReadPage> {
  checkImage(file.name, bytes, limits);
  let text = '';
  let boxes: TextBox[] = [];
  let codes: PageCode[] = [];
  if (options.includeText) {
    ({ text, boxes } = await ocr.recognize(bytes, {
      languages: options.documentLanguages,
      source: file.name,
      signal,
    }));
    // Barcodes and machine-readable zones: blocks of their own at the end of the text.
    ({ text, boxes, codes } = await withPageCodes(bytes, { text, boxes }, signal));
    if (text.trim() === '')
      throw new ExtractionError(`${file.name} is a picture and OCR found no text in it`, 'no_text');
  }
  const images: PageImage[] = [];
  if (options.includePageImages && file.mediaType !== 'image/tiff') {
    const size = imageDimensions(bytes) ?? { width: 0, height: 0 };
    images.push({
      kind: 'page',
      label: `${file.name}, page 1`,
      mediaType: file.mediaType as PageImage['mediaType'],
      data: bytes.toString('base64'),
      ...size,
      offset: 0,
    });
  }
  return { text, images, boxes, codes };
}

/**
 * The image as a picture `width` pixels wide (never enlarged past its own width), with
 * transparency flattened onto white, as paper; an image has page 1 only.
 */
async function drawImage(
  bytes: Buffer,
  file: SourceFile,
  { page, width, format }: PageDrawing,
  limits: DocumentLimits,
): Promise<DrawnPage> {
  if (page !== 1) return { pageCount: 1 };
  const { default: sharp } = await import('sharp');
  checkImage(file.name, bytes, limits);
  const image = sharp(bytes, { limitInputPixels: limits.megapixels * 1_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width, withoutEnlargement: true });
  try {
    return {
      pageCount: 1,
      picture: await (format === 'webp' ? image.webp({ quality: 85 }) : image.png()).toBuffer(),
    };
  } catch {
    throw new ExtractionError(
      `${file.name} could not be read as an image; it may be damaged`,
      'damaged_file',
    );
  }
}
