/**
 * The document formats the engine reads: one file each in this folder, one entry each in
 * this list. Everything that asks which format a file is asks this list: readDocuments
 * (how to read it), the page routes (how to count and show its pages) and the upload
 * (how to recognise it, `recognise.ts`). The upload list of src/contract/resources.ts
 * (`acceptedMediaTypes`, `acceptedExtensions`, which the interface offers too) says the
 * same in the contract, and `formats.test.ts` keeps the two in agreement.
 *
 * The order matters only for text: text formats are recognised in this order, and plain
 * text, which takes any text, comes last.
 */
import type { PageKind } from '../../../contract/resources.js';
import { csvFormat } from './csv.js';
import { docxFormat } from './docx.js';
import type { DocumentFormat, FormatType } from './format.js';
import { htmlFormat } from './html.js';
import { imageFormat } from './image.js';
import { markdownFormat } from './markdown.js';
import { pdfFormat } from './pdf.js';
import { plainTextFormat } from './plain-text.js';
import { xlsxFormat } from './xlsx.js';

export const documentFormats: readonly DocumentFormat[] = [
  pdfFormat,
  imageFormat,
  docxFormat,
  xlsxFormat,
  htmlFormat,
  csvFormat,
  markdownFormat,
  plainTextFormat,
];

/** Every media type the formats read, in the list's order. */
export const formatTypes: readonly (FormatType & { format: DocumentFormat })[] =
  documentFormats.flatMap((format) => format.types.map((type) => ({ ...type, format })));

/** The format that reads files of `mediaType`, if any does. */
export function formatOf(mediaType: string): DocumentFormat | undefined {
  return formatTypes.find((type) => type.mediaType === mediaType)?.format;
}

/** Whether a file's pages are shown as pictures (formats that draw them) or as their text. */
export function pageKindOf(mediaType: string): PageKind {
  return formatOf(mediaType)?.drawPage ? 'image' : 'text';
}
