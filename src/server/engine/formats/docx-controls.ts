/**
 * Word's form controls as a person reads them. mammoth already gives the text of content
 * controls (`w:sdt`: plain and rich text, dates, lists), of legacy text form fields
 * (FORMTEXT) and of text boxes (from the VML fallback Word writes beside each one), but a
 * tick box, a content control or a legacy FORMCHECKBOX, becomes an HTML `<input>`, which
 * the HTML reader, like a page's text, leaves out. They read as the marks a PDF form's
 * boxes read as (`pdf-form-fields.ts`): ☒ ticked, ☐ not.
 */
import { tickedMark, untickedMark } from './pdf-form-fields.js';

export function markCheckboxes(html: string): string {
  return html.replace(/<input\b[^>]*\btype="checkbox"[^>]*>/g, (input) =>
    /\bchecked\b/.test(input) ? tickedMark : untickedMark,
  );
}
