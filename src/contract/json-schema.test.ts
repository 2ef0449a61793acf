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
