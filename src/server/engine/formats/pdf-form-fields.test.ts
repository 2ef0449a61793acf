/**
 * A fillable PDF's values are read where a person sees them: typed text beside or under
 * its caption, tick boxes and radio buttons as marks, each with its widget's box. A
 * flattened form reads as its printed text, and a page of 100,000 fields fails with its
 * limit in a document worker while the pool goes on answering.
 */
import { describe, expect, it } from 'vitest';
import { readDocuments } from '../documents.js';
import { boxesOfRange } from '../geometry.js';
import { DocumentPool } from '../isolation/pool.js';
import { defaultDocumentLimits } from '../limits.js';
import { buildFormPdf, buildManyFieldsPdf, type FormPage } from '../testing/build-pdf-forms.js';
import { buildPdf } from '../testing/build-documents.js';
import { textContent } from '../testing/invoice-fixtures.js';
import { useSourceFolder } from '../testing/source-files.js';
import { tickedMark, unchosenMark, chosenMark, untickedMark } from './pdf-form-fields.js';

const folder = useSourceFolder('pdf-form-fields-');

const form: FormPage = {
  captions: [
    { text: 'Name of applicant', x: 72, y: 700 },
    { text: 'Date of birth (MM-DD-YYYY)', x: 72, y: 660 },
    { text: 'I accept the terms', x: 72, y: 600 },
    { text: 'Newsletter', x: 72, y: 580 },
    { text: 'Delivery:', x: 72, y: 540 },
    { text: 'post', x: 150, y: 540 },
    { text: 'courier', x: 220, y: 540 },
  ],
  fields: [
    // Beside its caption.
    { kind: 'text', name: 'applicant', value: 'Jane Q. Doe', rect: [200, 695, 200, 18] },
    // Under its caption, as boxes of a printed form stand.
    { kind: 'text', name: 'dob', value: '04-15-1974', rect: [72, 636, 120, 18] },
    { kind: 'checkbox', name: 'terms', checked: true, rect: [200, 597, 12, 12] },
    { kind: 'checkbox', name: 'news', checked: false, rect: [200, 577, 12, 12] },
    {
      kind: 'radio',
      name: 'delivery',
      options: [
        { value: 'Post', rect: [135, 537, 12, 12] },
        { value: 'Courier', rect: [205, 537, 12, 12] },
      ],
      chosen: 'Courier',
    },
  ],
};

async function read(name: string, bytes: Buffer) {
  const file = await folder.store(name, 'application/pdf', bytes);
  const [page] = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
  return page!;
}

const lineWith = (text: string, part: string) =>
  text.split('\n').find((line) => line.includes(part)) ?? '';

describe('PDF form fields', () => {
  it('reads typed values, ticks and radio choices at their widgets, beside their captions', async () => {
    const page = await read('form.pdf', buildFormPdf(form));
    expect(lineWith(page.text, 'Name of applicant')).toMatch(/^Name of applicant\s+Jane Q\. Doe$/);
    // The date's box is under its caption: its line follows the caption's.
    const lines = page.text.split('\n');
    const caption = lines.findIndex((line) => line.includes('Date of birth'));
    expect(lines[caption + 1]?.trim()).toBe('04-15-1974');
    expect(lineWith(page.text, 'I accept')).toMatch(
      new RegExp(`I accept the terms\\s+${tickedMark}`),
    );
    expect(lineWith(page.text, 'Newsletter')).toMatch(new RegExp(`Newsletter\\s+${untickedMark}`));
    expect(lineWith(page.text, 'Delivery')).toMatch(
      new RegExp(`Delivery:\\s+${unchosenMark}\\s*post\\s+${chosenMark}\\s*courier`),
    );
    expect(page.readers).toEqual(['text-layer', 'form-fields']);

    // The value's source box is its widget's: 200 x 18 points at (200, 695) on 612 x 792.
    const start = page.text.indexOf('Jane Q. Doe');
    const [box] = boxesOfRange(page.boxes!, 1, start, start + 'Jane Q. Doe'.length);
    expect(box!.x).toBeCloseTo(200 / 612, 3);
    expect(box!.y).toBeCloseTo((792 - 713) / 792, 3);
    expect(box!.height).toBeCloseTo(18 / 792, 3);
    const fieldBox = page.boxes!.find((each) => each.start === start);
    expect(fieldBox?.reader).toBe('form-fields');
  });

  it('reads a flattened form as its printed text', async () => {
    const page = await read('flattened.pdf', buildFormPdf(form, { flatten: true }));
    expect(lineWith(page.text, 'Name of applicant')).toMatch(/Jane Q\. Doe/);
    expect(page.text).not.toContain(tickedMark);
    expect(page.readers).toEqual(['text-layer']);
    expect(page.boxes!.some((box) => box.reader)).toBe(false);
  });

  it('reads a PDF without a form as before', async () => {
    const page = await read('plain.pdf', buildPdf([{ lines: ['Invoice 12', 'Total 40.00'] }]));
    expect(page.text).toBe('Invoice 12\nTotal 40.00');
  });

  it(
    'fails a page of 100,000 form fields with its limit, and the pool goes on answering',
    { timeout: 600_000 },
    async () => {
      const pool = new DocumentPool({ size: 1, limits: defaultDocumentLimits });
      try {
        const prepare = async (name: string, bytes: Buffer) =>
          pool.prepare({
            files: [await folder.store(name, 'application/pdf', bytes)],
            options: textContent,
            cacheDir: folder.cacheDir,
            chunkSize: 4000,
          });
        await expect(prepare('fields.pdf', buildManyFieldsPdf(100_000))).rejects.toMatchObject({
          message:
            'fields.pdf, page 1 has 100,000 form fields; the limit is 5,000 form fields per page',
          code: 'too_large',
        });
        const after = await prepare('after.pdf', buildFormPdf(form));
        expect(JSON.stringify(after)).toContain('Jane Q. Doe');
      } finally {
        await pool.close();
      }
    },
  );
});
