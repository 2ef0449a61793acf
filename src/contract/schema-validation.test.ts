import { describe, expect, it } from 'vitest';
import type { TargetSchema } from './json-schema.js';
import {
  findSchemaProblems as findWith,
  testPatternNatively,
  validateAgainstSchema as validateWith,
} from './schema-validation.js';

const findSchemaProblems = (schema: TargetSchema, value: unknown) =>
  findWith(schema, value, testPatternNatively);
const validateAgainstSchema = (schema: TargetSchema, value: unknown) =>
  validateWith(schema, value, testPatternNatively);

const schema: TargetSchema = {
  type: 'object',
  required: ['currency', 'lines'],
  $defs: { amount: { type: 'number', title: 'Amount', minimum: 0 } },
  properties: {
    currency: { type: 'string', title: 'Currency', pattern: '^[A-Z]{3}$' },
    total: { $ref: '#/$defs/amount' },
    lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } },
  },
};

describe('findSchemaProblems', () => {
  it('says which keyword failed where, with the resolved schema of the value there', () => {
    const problems = findSchemaProblems(schema, { total: -1, lines: [{ qty: 1.5 }] });
    expect(problems).toEqual([
      {
        pointer: '/currency',
        keyword: 'required',
        schema: schema.properties!.currency,
      },
      { pointer: '/total', keyword: 'minimum', limit: 0, schema: schema.$defs!.amount },
      {
        pointer: '/lines/0/qty',
        keyword: 'type',
        expected: ['integer'],
        schema: { type: 'integer' },
      },
    ]);
    expect(findSchemaProblems(schema, { currency: 'EUR', lines: [] })).toEqual([]);
  });
});

describe('validateAgainstSchema', () => {
  it('words the same problems for the API as before', () => {
    expect(
      validateAgainstSchema(schema, { currency: 'eur', total: 'x', lines: [{ qty: 'a' }] }),
    ).toEqual([
      { pointer: '/currency', message: 'must match the pattern ^[A-Z]{3}$' },
      { pointer: '/total', message: 'must be a number' },
      { pointer: '/lines/0/qty', message: 'must be a whole number' },
    ]);
    expect(validateAgainstSchema({ type: 'string', minLength: 1, enum: ['a'] }, '')).toEqual([
      { pointer: '', message: 'must be one of "a"' },
      { pointer: '', message: 'must not be empty' },
    ]);
  });

  it('ignores a format it does not know, even one named like a member of every object', () => {
    for (const format of ['postal-code', 'toString', 'constructor', 'valueOf', '__proto__'])
      expect(validateAgainstSchema({ type: 'string', format }, 'x'), format).toEqual([]);
  });
});
