import { describe, expect, it } from 'vitest';
import type { TargetSchema } from '../../contract/json-schema.js';
import { finaliseResult, mergeExtractions, mergeExtractionsInto } from './merge.js';
import type { ChunkExtraction, ValueSource } from './types.js';

const schema: TargetSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: ['string', 'null'] },
    total: { type: ['number', 'null'] },
    seller: { type: 'object', properties: { name: { type: 'string' }, vat: { type: 'string' } } },
    emails: { type: 'array', items: { type: 'string' } },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: { type: 'string' }, amount: { type: 'number' } },
      },
    },
  },
};

const at = (page: number, offset: number, text: string): ValueSource => ({
  file: 'a.pdf',
  fileId: 'f1',
  page,
  offset,
  text,
});
const extraction = (
  data: Record<string, unknown>,
  sources: Record<string, ValueSource> = {},
): ChunkExtraction => ({
  data,
  sources,
  usage: { inputTokens: 0, outputTokens: 0 },
});

describe('mergeExtractions', () => {
  it('replaces a guess with a value a later chunk found surely enough, and nothing surer', () => {
    const sure = (page: number, text: string, confidence: number) => ({
      ...at(page, 0, text),
      confidence,
    });
    let merged = mergeExtractions(
      schema,
      { data: {}, sources: {} },
      extraction(
        { invoice_number: 'A-1', total: 60 },
        { '/invoice_number': sure(1, 'A-1', 0.85), '/total': sure(1, '60,00', 0.4) },
      ),
    );
    merged = mergeExtractions(
      schema,
      merged,
      extraction(
        { invoice_number: 'B-2', total: 120 },
        { '/invoice_number': sure(2, 'B-2', 0.95), '/total': sure(2, '120,00', 0.75) },
      ),
    );
    expect(merged.data).toEqual({ invoice_number: 'A-1', total: 120 });
    expect(merged.sources['/total']).toEqual(sure(2, '120,00', 0.75));
    // A guess does not replace a guess: the first stays.
    merged = mergeExtractions(
      schema,
      { data: { total: 60 }, sources: { '/total': sure(1, '60,00', 0.4) } },
      extraction({ total: 70 }, { '/total': sure(2, '70,00', 0.5) }),
    );
    expect(merged.data.total).toBe(60);
  });

  it('keeps the first value found and lets later chunks fill only what is missing, with its source', () => {
    let merged = mergeExtractions(
      schema,
      { data: {}, sources: {} },
      extraction({ invoice_number: 'A-1', total: null }, { '/invoice_number': at(1, 10, 'A-1') }),
    );
    merged = mergeExtractions(
      schema,
      merged,
      extraction(
        { invoice_number: 'B-2', total: 99.5 },
        { '/invoice_number': at(2, 3, 'B-2'), '/total': at(2, 40, '99,50') },
      ),
    );
    expect(merged.data).toEqual({ invoice_number: 'A-1', total: 99.5 });
    expect(merged.sources).toEqual({
      '/invoice_number': at(1, 10, 'A-1'),
      '/total': at(2, 40, '99,50'),
    });
  });

  it('treats an empty string or an empty list as not found', () => {
    let merged = mergeExtractions(
      schema,
      { data: {}, sources: {} },
      extraction({ invoice_number: '', emails: [] }),
    );
    merged = mergeExtractions(
      schema,
      merged,
      extraction({ invoice_number: 'INV-7', emails: ['a@example.com'] }),
    );
    expect(merged.data).toEqual({ invoice_number: 'INV-7', emails: ['a@example.com'] });
  });

  it('appends list items, drops repeats, and moves each item’s sources to its new place', () => {
    const first = extraction(
      { line_items: [{ description: 'Cable', amount: 5 }] },
      { '/line_items/0/amount': at(1, 100, '5.00') },
    );
    const second = extraction(
      {
        line_items: [
          { description: 'Cable', amount: 5 },
          { description: 'Plug', amount: 2 },
        ],
      },
      {
        '/line_items/0/amount': at(2, 7, '5.00'),
        '/line_items/1/amount': at(2, 50, '2.00'),
        '/line_items/1/description': at(2, 40, 'Plug'),
      },
    );
    const merged = mergeExtractions(
      schema,
      mergeExtractions(schema, { data: {}, sources: {} }, first),
      second,
    );
    expect(merged.data.line_items).toEqual([
      { description: 'Cable', amount: 5 },
      { description: 'Plug', amount: 2 },
    ]);
    expect(merged.sources['/line_items/0/amount']).toEqual(at(1, 100, '5.00'));
    expect(merged.sources['/line_items/1/amount']).toEqual(at(2, 50, '2.00'));
    expect(merged.sources['/line_items/1/description']).toEqual(at(2, 40, 'Plug'));
  });

  it('fills nested objects field by field and does not change the data it was given', () => {
    const before = { data: { seller: { name: 'ACME' } }, sources: {} };
    const merged = mergeExtractions(
      schema,
      before,
      extraction({ seller: { name: 'Other', vat: 'NL1' } }, { '/seller/vat': at(1, 1, 'NL1') }),
    );
    expect(merged.data).toEqual({ seller: { name: 'ACME', vat: 'NL1' } });
    expect(merged.sources).toEqual({ '/seller/vat': at(1, 1, 'NL1') });
    expect(before.data).toEqual({ seller: { name: 'ACME' } });
  });
});

describe('mergeExtractionsInto', () => {
  it('adds each chunk to the same result, a repeated item (in any key order) once', () => {
    const merged = { data: {}, sources: {} };
    for (let chunk = 0; chunk < 300; chunk++) {
      mergeExtractionsInto(
        schema,
        merged,
        extraction(
          {
            invoice_number: chunk === 0 ? null : `INV-${chunk}`,
            // Each chunk repeats the table header row, and adds a row of its own.
            line_items: [
              { amount: 0, description: 'Description' },
              { description: `Item ${chunk}`, amount: chunk },
            ],
          },
          { [`/line_items/1/amount`]: at(chunk + 1, 10, String(chunk)) },
        ),
      );
    }
    const data = merged.data as { invoice_number: string; line_items: unknown[] };
    expect(data.invoice_number).toBe('INV-1');
    expect(data.line_items).toHaveLength(301);
    expect(data.line_items.slice(0, 3)).toEqual([
      { amount: 0, description: 'Description' },
      { description: 'Item 0', amount: 0 },
      { description: 'Item 1', amount: 1 },
    ]);
    expect(merged.sources).toMatchObject({ '/line_items/300/amount': at(300, 10, '299') });
  });
});

describe('finaliseResult', () => {
  it('gives every property: null when not found, an empty list for a list, and completes items and nested objects', () => {
    expect(finaliseResult(schema, {})).toEqual({
      invoice_number: null,
      total: null,
      seller: null,
      emails: [],
      line_items: [],
    });
    expect(
      finaliseResult(schema, { seller: { name: 'ACME' }, line_items: [{ amount: 3 }] }),
    ).toEqual({
      invoice_number: null,
      total: null,
      seller: { name: 'ACME', vat: null },
      emails: [],
      line_items: [{ description: null, amount: 3 }],
    });
  });

  it('drops properties the schema forbids and keeps those it allows', () => {
    expect(
      finaliseResult({ ...schema, additionalProperties: false }, { note: 'x' }),
    ).not.toHaveProperty('note');
    expect(finaliseResult(schema, { note: 'x' })).toHaveProperty('note', 'x');
  });
});
