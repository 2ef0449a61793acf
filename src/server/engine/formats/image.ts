/** Image files (PNG, JPEG, WebP, TIFF): one page, read by OCR. */
import { checkImage, imageDimensions, type DocumentLimits } from '../limits.js';
import { recognizeImage } from '../ocr/ocr.js';
import {
  ExtractionError,
  type ContentOptions,
  type PageImage,
  type SourceFile,
  type TextBox,
} from '../types.js';
import type { TextPage } from './text.js';

/** A page as a reader gives it; pages that are pictures (images) know where their words are. */
export type ReadPage = TextPage & { boxes?: TextBox[] };

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
  if (options.includeText) {
    ({ text, boxes } = await recognizeImage(bytes, signal).catch((error: unknown) => {
      // tesseract.js rejects an image it cannot decode with its message, not an Error.
      if (error instanceof Error) throw error;
      throw new ExtractionError(
        `${file.name} could not be read as an image; it may be damaged`,
        'damaged_file',
      );
    }));
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
  return { text, images, boxes };
}
