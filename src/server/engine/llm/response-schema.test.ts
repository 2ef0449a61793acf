import { describe, expect, it } from 'vitest';
import { invoiceSchema } from '../../extractors/demo.js';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { responseSchemaFor } from './response-schema.js';

describe('responseSchemaFor', () => {
  it('makes the demo schema strict: every property required, optional ones nullable, no extra properties', () => {
    const format = responseSchemaFor(invoiceSchema as unknown as TargetSchema);
    expect(format.strict).toBe(true);
    expect(format.name).toBe('Invoice');
    const schema = format.schema as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.required).toEqual([
      'invoice_number',
      'date',
      'total',
      'currency',
      'vendor',
      'line_items',
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.currency).toEqual({
      type: ['string', 'null'],
      description: 'Currency. ISO 4217 currency code, such as EUR or USD. (pattern: ^[A-Z]{3}$)',
    });
    expect(schema.properties.line_items).toMatchObject({
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'quantity', 'unit_price', 'amount'],
      },
    });
  });

  it('follows references and keeps enums, adding null to an optional one', () => {
    const schema: TargetSchema = {
      type: 'object',
      properties: { kind: { $ref: '#/$defs/kind' } },
      $defs: { kind: { type: 'string', enum: ['invoice', 'credit note'] } },
    };
    expect(responseSchemaFor(schema).schema).toEqual({
      type: 'object',
      properties: { kind: { type: ['string', 'null'], enum: ['invoice', 'credit note', null] } },
      required: ['kind'],
      additionalProperties: false,
    });
  });

  it('falls back to a non-strict format for what strict mode cannot say', () => {
    const map: TargetSchema = {
      type: 'object',
      properties: { totals: { type: 'object', additionalProperties: { type: 'number' } } },
    };
    expect(responseSchemaFor(map)).toMatchObject({ strict: false, schema: map });
    const untyped: TargetSchema = {
      type: 'object',
      properties: { anything: { description: 'whatever is there' } },
    };
    expect(responseSchemaFor(untyped).strict).toBe(false);
  });
});
