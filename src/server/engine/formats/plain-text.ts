/** Plain text: as it is; a form feed starts a new page. */
import { createReadStream } from 'node:fs';
import type { DocumentFormat, TextPage } from './format.js';
import { normaliseNewlines, textOf } from './text.js';

export const plainTextFormat: DocumentFormat = {
  name: 'plain text',
  types: [
    // Any text the other text formats do not claim: it comes last in the list.
    { mediaType: 'text/plain', extensions: ['.txt'], recognise: { text: () => true } },
  ],
  pageCount: { by: 'bytes', count: countTextPages },
  read: async (bytes, file, { limits }) => readPlainText(textOf(bytes, file.name, limits)),
};

/** Plain text; a form feed starts a new page, as printers and `pdftotext` agree. */
export function readPlainText(source: string): TextPage[] {
  return normaliseNewlines(source)
    .split('\f')
    .map((text) => ({ text, images: [] }));
}

/**
 * The pages of a plain text file: the reader starts one at each form feed. Only bytes are
 * counted, as they stream past (nothing is parsed), so the service may count them itself
 * instead of starting a document worker for an upload.
 */
export async function countTextPages(path: string): Promise<number> {
  let pages = 1;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>)
    for (let at = chunk.indexOf(0x0c); at >= 0; at = chunk.indexOf(0x0c, at + 1)) pages++;
  return pages;
}
