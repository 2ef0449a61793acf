/**
 * Word files. A DOCX goes through mammoth to HTML (which keeps its tables and pictures,
 * where mammoth's raw text would put every table cell on its own line) and then through
 * the HTML reader.
 */
import { checkUnpackedSize } from '../limits.js';
import { ExtractionError, type ContentOptions } from '../types.js';
import { withCheckedImageSizes, type DocumentFormat, type TextPage } from './format.js';
import { markCheckboxes } from './docx-controls.js';
import { readHtml } from './html.js';

export const docxFormat: DocumentFormat = {
  name: 'Word',
  types: [
    {
      mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      extensions: ['.docx'],
      recognise: { zipPart: 'word/document.xml' },
    },
  ],
  // The HTML mammoth makes of it is one page, as an HTML file is.
  pageCount: { by: 'type', pages: 1 },
  read: async (bytes, file, { options, limits }) => {
    checkUnpackedSize(file.name, bytes, limits);
    return withCheckedImageSizes(await readDocx(bytes, file.name, options), limits);
  },
};

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
  return readHtml(markCheckboxes(html), fileName, options);
}
