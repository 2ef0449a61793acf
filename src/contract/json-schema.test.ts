import { describe, expect, it } from 'vitest';
import { parseTargetSchema, readTargetSchema } from './json-schema.js';

describe('readTargetSchema', () => {
  it('reads what parseTargetSchema accepted, as it is', () => {
    const text = JSON.stringify({
      type: 'object',
      properties: {
        total: { type: 'number' },
        lines: { type: 'array', items: { type: 'string' } },
      },
      required: ['total'],
    });
    const accepted = parseTargetSchema(text);
    expect(accepted.ok).toBe(true);
    expect(readTargetSchema(text)).toEqual(accepted.ok && accepted.schema);
  });

  it('reads nothing from text that is no object schema', () => {
    for (const text of [
      '',
      '{',
      'null',
      '[]',
      '"object"',
      '{"type": "object"}',
      '{"properties": 7}',
    ])
      expect(readTargetSchema(text), text).toBeUndefined();
  });
});

describe('parseTargetSchema', () => {
  /** An object schema whose JSON nests exactly `depth` levels (depth ≥ 3), field `a` in `a`. */
  function schemaOfDepth(depth: number): string {
    const leaf = depth % 2 === 0 ? '{"type":["string","null"]}' : '{"type":"string"}';
    const levels = (depth - (depth % 2 === 0 ? 4 : 3)) / 2;
    return (
      '{"type":"object","properties":{"a":'.repeat(levels) +
      `{"type":"object","properties":{"leaf":${leaf}}}` +
      '}}'.repeat(levels)
    );
  }

  it('takes a schema nested 64 levels deep and names where one nested 65 passes the limit', () => {
    expect(parseTargetSchema(schemaOfDepth(64)).ok).toBe(true);
    expect(parseTargetSchema(schemaOfDepth(65))).toEqual({
      ok: false,
      message: `nests objects and arrays deeper than 64 levels, at ${'/properties/a'.repeat(31)}/properties/leaf`,
    });
  });

  it('counts the bytes of the text as UTF-8 and the values of the schema', () => {
    const text = (description: string) =>
      JSON.stringify({ type: 'object', properties: { a: { type: 'string', description } } });
    const fits = text('€'.repeat(87_000));
    expect(parseTargetSchema(fits).ok).toBe(true);
    const over = text('€'.repeat(88_000));
    expect(parseTargetSchema(over)).toEqual({
      ok: false,
      message: `is ${over.length + 2 * 88_000} bytes long; the limit is 262144 bytes`,
    });
    const values = (count: number) =>
      JSON.stringify({ type: 'object', properties: { a: { enum: Array(count).fill(0) } } });
    // The root, its type, properties, a, and a's enum: five values besides the items.
    expect(parseTargetSchema(values(9_995)).ok).toBe(true);
    expect(parseTargetSchema(values(9_996)).ok).toBe(false);
  });
});
