/** Excel files: one page per worksheet with one line per row. */
import type ExcelJS from 'exceljs';
import {
  checkCharacters,
  checkUnpackedSize,
  defaultDocumentLimits,
  type DocumentLimits,
} from '../limits.js';
import { embeddedImageMarker } from '../markers.js';
import { fillMissingFormulaResults } from './xlsx-formulas.js';
import { ExtractionError, type ContentOptions, type PageImage } from '../types.js';
import { withCheckedImageSizes, type DocumentFormat, type TextPage } from './format.js';
import { tableToText } from './text.js';

export const xlsxFormat: DocumentFormat = {
  name: 'Excel',
  types: [
    {
      mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      extensions: ['.xlsx'],
      recognise: { zipPart: 'xl/workbook.xml' },
    },
  ],
  // A page per visible sheet: only reading the workbook tells.
  pageCount: { by: 'reading' },
  read: async (bytes, file, { options, limits }) => {
    checkUnpackedSize(file.name, bytes, limits);
    return withCheckedImageSizes(await readXlsx(bytes, file.name, options, limits), limits);
  },
};

/**
 * Each worksheet is a page; each row a line of tab-separated cells, the way a person
 * copies a range out of Excel. Cells show their value (a formula its last result, a date
 * its ISO date). Hidden sheets are left out, as a printout would leave them out.
 */
export async function readXlsx(
  bytes: Buffer,
  fileName: string,
  options: ContentOptions,
  limits: DocumentLimits = defaultDocumentLimits,
): Promise<TextPage[]> {
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
  toleratePartsWithoutPictures(workbook);
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new ExtractionError(
      `${fileName} could not be read as an Excel workbook; it may be damaged`,
      'damaged_file',
    );
  }
  // A program that wrote the workbook may have stored formulas without their results.
  fillMissingFormulaResults(workbook);
  // Each row becomes a line as long as its last cell's column (empty cells are tabs): one
  // cell in column XFD on 2,000 rows of an 11 KB file is 32 million characters.
  let lineCharacters = 0;
  for (const sheet of workbook.worksheets) {
    if (sheet.state !== 'visible') continue;
    sheet.eachRow((row) => (lineCharacters += row.cellCount));
  }
  checkCharacters(fileName, lineCharacters, limits);
  const pages: TextPage[] = [];
  for (const sheet of workbook.worksheets) {
    if (sheet.state !== 'visible') continue;
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = cellText(cell.value);
      });
      rows[rowNumber - 1] = Array.from(cells, (cell) => cell ?? '');
    });
    const lines = Array.from(rows, (row) => row ?? []);
    const images: PageImage[] = [];
    const markers: string[] = [];
    if (options.includeEmbeddedImages || options.markEmbeddedImages) {
      sheet.getImages().forEach((placed, index) => {
        const image = workbook.getImage(Number(placed.imageId));
        const label = `${fileName}, sheet ${sheet.name}, image ${index + 1}`;
        if (options.markEmbeddedImages) markers.push(embeddedImageMarker(label));
        const data = image.buffer
          ? Buffer.from(image.buffer).toString('base64')
          : image.base64?.replace(/^data:[^,]*,/, '');
        if (options.includeEmbeddedImages && data && image.extension !== 'gif') {
          images.push({
            kind: 'embedded',
            label,
            mediaType: image.extension === 'png' ? 'image/png' : 'image/jpeg',
            data,
            width: 0,
            height: 0,
            offset: 0,
          });
        }
      });
    }
    let text = tableToText(lines)
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (markers.length > 0) {
      const table = text;
      text = [table, ...markers].filter(Boolean).join('\n');
      for (const image of images) image.offset = text.indexOf(embeddedImageMarker(image.label));
    }
    pages.push({ text, images });
  }
  return pages;
}

interface LoadedModel {
  drawings?: Record<string, unknown>;
  worksheets?: {
    drawing?: { rId: string };
    relationships?: { Id: string; Target: string }[];
  }[];
}

const patchedReaders = new WeakSet<object>();

/**
 * exceljs 4.4 reads every `xl/drawings/drawingN.xml` as a sheet's pictures, and a part
 * of another kind there (a chart's `c:userShapes`, which Excel writes for shapes drawn on
 * a chart) comes out as nothing; its reconciliation then throws "Cannot read properties
 * of undefined (reading 'anchors')" and a valid workbook would be blamed as damaged
 * (exceljs issue 2591). Such a part, or one a sheet names but the file lacks, is given
 * an empty list of pictures before exceljs reconciles the parts: the cells are what we
 * read, and they are all there.
 */
function toleratePartsWithoutPictures(workbook: ExcelJS.Workbook): void {
  const reader = Object.getPrototypeOf(workbook.xlsx) as {
    reconcile(model: LoadedModel, options: unknown): unknown;
  };
  if (patchedReaders.has(reader)) return;
  patchedReaders.add(reader);
  const reconcile = reader.reconcile;
  reader.reconcile = function (this: unknown, model: LoadedModel, options: unknown) {
    const drawings = (model.drawings ??= {});
    for (const name of Object.keys(drawings)) drawings[name] ??= { anchors: [] };
    for (const sheet of model.worksheets ?? []) {
      const target = sheet.relationships?.find((rel) => rel.Id === sheet.drawing?.rId)?.Target;
      const name = target && /\/drawings\/([a-zA-Z0-9]+)[.][a-zA-Z]{3,4}$/.exec(target)?.[1];
      if (name) drawings[name] ??= { anchors: [] };
    }
    return reconcile.call(this, model, options);
  };
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value)
    return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
  if ('hyperlink' in value)
    return cellText((value as { text?: ExcelJS.CellValue }).text ?? value.hyperlink);
  if ('error' in value) return String(value.error);
  return '';
}
