/** Plain text: as it is. */
import { normaliseNewlines, type TextPage } from './text.js';

/** Plain text; a form feed starts a new page, as printers and `pdftotext` agree. */
export function readPlainText(source: string): TextPage[] {
  return normaliseNewlines(source)
    .split('\f')
    .map((text) => ({ text, images: [] }));
}
