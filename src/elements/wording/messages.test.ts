import { describe, expect, it } from 'vitest';
import { type TargetSchema } from '../../contract/json-schema.js';
import { findSchemaProblems, testPatternNatively } from '../../contract/schema-validation.js';
import { describePattern, describeSchemaProblem, titleAt } from './messages.js';
import { valueAtPointer } from '../internal/values.js';

/** The editor's messages for a value, by pointer. */
function messages(schema: TargetSchema, value: unknown, locale = 'en-US'): Record<string, string> {
  return Object.fromEntries(
    findSchemaProblems(schema, value, testPatternNatively).map((problem) => [
      problem.pointer,
      describeSchemaProblem(problem, {
        title: titleAt(problem.pointer, problem.schema),
        value: valueAtPointer(value, problem.pointer),
        locale,
      }),
    ]),
  );
}

describe('describePattern', () => {
  it('puts simple patterns in words, with an example that matches', () => {
    for (const [pattern, words, example] of [
      ['^[A-Z]{3}$', 'three capital letters', 'ABC'],
      ['^[0-9]{4,5}$', '4 to 5 digits', '1234'],
      ['^[A-Z]{2}-\\d{6}$', 'two capital letters, then “-”, then six digits', 'AB-123456'],
      ['^\\d+$', 'one or more digits', '1'],
    ] as const) {
      const described = describePattern(pattern);
      expect(described, pattern).toEqual({ words, example });
      expect(new RegExp(pattern).test(described!.example), pattern).toBe(true);
    }
  });

  it('leaves richer patterns to the schema’s description and examples', () => {
    for (const pattern of ['^(EUR|USD)$', '[A-Z]{3}', '^\\w+@\\w+$', '^(?=x).*$'])
      expect(describePattern(pattern), pattern).toBeUndefined();
  });
});

describe('the editor’s messages', () => {
  const schema: TargetSchema = {
    type: 'object',
    required: ['currency', 'status', 'reference', 'paid'],
    properties: {
      currency: { type: 'string', title: 'Currency', pattern: '^[A-Z]{3}$', examples: ['EUR'] },
      code: { type: 'string', title: 'Code', pattern: '^(A|B)-[0-9]+$', examples: ['A-12'] },
      reference: {
        type: 'string',
        title: 'Reference',
        pattern: '^(R|S)[0-9]+$',
        description: 'The R or S number from the letterhead',
      },
      status: { type: 'string', enum: ['open', 'paid'], title: 'Status' },
      paid: { type: 'boolean' },
      total: { type: 'number', minimum: 0, multipleOf: 0.01 },
      iban: { type: 'string', format: 'iban', title: 'IBAN' },
    },
  };

  it('puts a pattern in words with the schema’s own description, when it has no example', () => {
    const currency: TargetSchema = {
      type: 'object',
      properties: {
        currency: {
          type: ['string', 'null'],
          title: 'Currency',
          description: 'ISO 4217 currency code, such as EUR or USD.',
          pattern: '^[A-Z]{3}$',
        },
      },
    };
    expect(messages(currency, { currency: 'euro' })).toEqual({
      '/currency':
        'Enter the currency as three capital letters (ISO 4217 currency code, such as EUR or USD).',
    });
  });

  it('writes from the schema’s title, examples and description, never a raw pattern', () => {
    const found = messages(schema, {
      currency: 'euro',
      code: 'x',
      reference: 'x',
      status: 'open',
      paid: true,
      iban: 'DE00 0000',
    });
    expect(found).toEqual({
      '/currency': 'Enter the currency as three capital letters, such as EUR.',
      '/code': 'Enter the code in the same form as A-12.',
      '/reference': 'Enter the reference as described: the R or S number from the letterhead.',
      '/iban': 'This IBAN does not add up: check it for a mistyped character.',
    });
    for (const message of Object.values(found)) expect(message).not.toMatch(/[\^$\\[\]]/);
  });

  it('asks for a missing value in the words of its control, not its JSON type', () => {
    expect(messages(schema, { currency: null, status: null, reference: '' })).toEqual({
      '/currency': 'Enter the currency.',
      '/status': 'Choose the status.',
      '/reference': 'Enter the reference.',
      '/paid': 'Choose yes or no.',
    });
    expect(
      messages(schema, { currency: 'EUR', status: 'gone', reference: 'R1', paid: 'maybe' }),
    ).toEqual({
      '/status': '“gone” is not one of the options: choose one from the list.',
      '/paid': 'Choose yes or no.',
    });
  });

  it('speaks of numbers in the person’s locale', () => {
    const base = { currency: 'EUR', status: 'open', reference: 'R1', paid: false };
    expect(messages(schema, { ...base, total: 'lots' }, 'de-DE')).toEqual({
      '/total': 'Enter a number, such as 1.234,56.',
    });
    expect(messages(schema, { ...base, total: -1.5 }, 'de-DE')).toEqual({
      '/total': 'Enter 0 or more.',
    });
    expect(messages(schema, { ...base, total: 1.005 })).toEqual({
      '/total': 'Use at most two decimal places.',
    });
  });
});
