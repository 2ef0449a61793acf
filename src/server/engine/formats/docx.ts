/**
 * Word files. A DOCX goes through mammoth to HTML (which keeps its tables and pictures,
 * where mammoth's raw text would put every table cell on its own line) and then through
 * the HTML reader.
 */
import { ExtractionError, type ContentOptions } from '../types.js';
import { readHtml } from './html.js';
import type { TextPage } from './text.js';

export async function readDocx(
  bytes: Buffer,
  fileName: string,
  options: ContentOptions,
): Promise<TextPage[]> {
  // Loaded at the first Word file, as exceljs at the first workbook: the service starts
  // without the megabytes of either, and most processes never need them.
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    // mammoth's default turns pictures into data: URLs, which the HTML reader picks up.
    html = (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch {
    throw new ExtractionError(
      `${fileName} could not be read as a Word document; it may be damaged`,
      'damaged_file',
    );
  }
  return readHtml(html, fileName, options);
}
