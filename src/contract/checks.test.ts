import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  checkProblems,
  checksSchema,
  englishWording,
  evaluateChecks as evaluateChecksWorded,
  type Check,
} from './checks.js';
import type { TargetSchema } from './json-schema.js';

const invoice: TargetSchema = {
  type: 'object',
  properties: {
    date: { type: ['string', 'null'], format: 'date', title: 'Invoice date' },
    due_date: { type: ['string', 'null'], format: 'date', title: 'Due date' },
    subtotal: { type: ['number', 'null'], title: 'Subtotal' },
    tax: { type: ['number', 'null'] },
    total: { type: ['number', 'null'], title: 'Total' },
    currency: { type: ['string', 'null'] },
    paid: { type: 'boolean' },
    vendor: { type: 'object', properties: { name: { type: 'string' } } },
    line_items: {
      type: 'array',
      title: 'Line items',
      items: { $ref: '#/$defs/line' },
    },
    notes: { type: 'array', items: { type: 'string' } },
  },
  $defs: {
    line: {
      type: 'object',
      properties: {
        quantity: { type: ['number', 'null'], title: 'Quantity' },
        unit_price: { type: ['number', 'null'], title: 'Unit price' },
        amount: { type: ['number', 'null'], title: 'Amount' },
        description: { type: ['string', 'null'] },
      },
    },
  },
};

const sumOfLines: Check = {
  left: { sum: '/line_items/*/amount' },
  op: '=',
  right: '/total',
  tolerance: 0.01,
};
const dueAfterDate: Check = { left: '/due_date', op: '>=', right: '/date' };
const linesMultiply: Check = {
  left: { multiply: ['/line_items/*/quantity', '/line_items/*/unit_price'] },
  op: '=',
  right: '/line_items/*/amount',
  tolerance: 0.005,
};

const results = (overrides: Record<string, unknown> = {}) => ({
  date: '2024-03-12',
  due_date: '2024-04-11',
  subtotal: 100,
  tax: 21,
  total: 121,
  currency: 'EUR',
  paid: false,
  line_items: [
    { quantity: 2, unit_price: 10.1, amount: 20.2, description: 'Cable' },
    { quantity: 1, unit_price: 100.8, amount: 100.8, description: 'Router' },
  ],
  ...overrides,
});

describe('evaluateChecks', () => {
  // Worded as the service words its messages; the results editor's own wording is tested
  // with it (src/elements/results-view).
  const evaluateChecks = (checks: Check[], data: unknown, schema?: TargetSchema) =>
    evaluateChecksWorded(checks, data, schema, englishWording);

  it('passes results that hold, cents summed without a binary hair of difference', () => {
    const checks: Check[] = [
      sumOfLines,
      dueAfterDate,
      linesMultiply,
      { left: { add: ['/subtotal', '/tax'] }, op: '=', right: '/total' },
      { left: '/currency', op: '=', right: { value: 'EUR' } },
      { left: '/total', op: '>', right: 0 },
    ];
    // 20.2 + 100.8 is 121.00000000000001 in binary floating point.
    expect(evaluateChecks(checks, results(), invoice)).toEqual([]);
    expect(evaluateChecks([{ ...sumOfLines, tolerance: undefined }], results())).toEqual([]);
  });

  it('fails a sum that is off by more than its tolerance, naming every value it involves', () => {
    const [failure, ...rest] = evaluateChecks([sumOfLines], results({ total: 125 }), invoice);
    expect(rest).toEqual([]);
    expect(failure).toEqual({
      check: 0,
      message: 'The sum of Line items › Amount (121) should equal Total (125), within 0.01.',
      pointers: ['/line_items/0/amount', '/line_items/1/amount', '/total'],
    });
    expect(evaluateChecks([sumOfLines], results({ total: 121.009 }), invoice)).toEqual([]);
  });

  it('compares dates as dates, and says so in words of dates', () => {
    const failures = evaluateChecks([dueAfterDate], results({ due_date: '2024-03-11' }), invoice);
    expect(failures).toEqual([
      {
        check: 0,
        message: 'Due date ("2024-03-11") should not be before Invoice date ("2024-03-12").',
        pointers: ['/due_date', '/date'],
      },
    ]);
    // A date-time with a zone is an instant: 21:00 UTC on the 30th, after that day's start.
    expect(
      evaluateChecks(
        [{ left: '/due_date', op: '>', right: { value: '2024-09-30T23:00:00+02:00' } }],
        results({ due_date: '2024-09-30' }),
      ),
    ).toHaveLength(1);
    expect(
      evaluateChecks(
        [{ left: '/due_date', op: '=', right: '/date', tolerance: 1 }],
        results({ due_date: '2024-03-13' }),
      ),
    ).toEqual([]);
  });

  it('goes item by item when a pointer outside a sum has *, one failure per item', () => {
    const lines = [
      { quantity: 2, unit_price: 10, amount: 20 },
      { quantity: 3, unit_price: 5, amount: 16 },
      { quantity: null, unit_price: 5, amount: 5 },
      { quantity: 1, unit_price: 7, amount: 9 },
    ];
    const failures = evaluateChecks([linesMultiply], results({ line_items: lines }), invoice);
    expect(failures.map((failure) => failure.pointers)).toEqual([
      ['/line_items/1/quantity', '/line_items/1/unit_price', '/line_items/1/amount'],
      ['/line_items/3/quantity', '/line_items/3/unit_price', '/line_items/3/amount'],
    ]);
    expect(failures[0]!.message).toBe(
      'Line items 2 › Quantity × Line items 2 › Unit price (15) should equal Line items 2 › Amount (16), within 0.005.',
    );
  });

  it('says nothing about values that are not there: not found is shown on its own', () => {
    const checks = [sumOfLines, dueAfterDate, linesMultiply];
    expect(
      evaluateChecks(checks, results({ total: null, due_date: null, line_items: [] }), invoice),
    ).toEqual([]);
    // A sum with an item's amount missing cannot be checked either.
    const lines = [{ amount: 20 }, { amount: null }];
    expect(evaluateChecks([sumOfLines], results({ line_items: lines }))).toEqual([]);
    expect(evaluateChecks(checks, {}, invoice)).toEqual([]);
    expect(evaluateChecks(checks, null)).toEqual([]);
  });

  it("uses the check's own message, and property names when there is no schema", () => {
    const own = { ...dueAfterDate, message: 'Due before it was issued?' };
    const broken = results({ due_date: '2024-01-01' });
    expect(evaluateChecks([own], broken)[0]!.message).toBe('Due before it was issued?');
    expect(evaluateChecks([dueAfterDate], broken)[0]!.message).toBe(
      'Due date ("2024-01-01") should not be before date ("2024-03-12").',
    );
    expect(
      evaluateChecks([{ left: '/currency', op: '=', right: { value: 'USD' } }], results())[0],
    ).toMatchObject({ message: 'Currency ("EUR") should equal "USD".', pointers: ['/currency'] });
  });

  it('gives text and booleans equality only, and leaves a comparison of unlike values alone', () => {
    expect(
      evaluateChecks([{ left: '/currency', op: '<', right: { value: 'USD' } }], results()),
    ).toEqual([]);
    expect(
      evaluateChecks([{ left: '/paid', op: '!=', right: { value: false } }], results()),
    ).toHaveLength(1);
    expect(evaluateChecks([{ left: '/currency', op: '=', right: '/total' }], results())).toEqual(
      [],
    );
  });
});

describe('checks on save', () => {
  it('takes the documented format and refuses what is not an operand', () => {
    expect(z.safeParse(checksSchema, [sumOfLines, dueAfterDate, linesMultiply]).success).toBe(true);
    const refused = z.safeParse(checksSchema, [
      { left: 'total', op: '=', right: '/total' },
      { left: '/total', op: '===', right: 1 },
      { left: { summ: '/line_items/*/amount' }, op: '=', right: '/total' },
      { left: { add: [{ add: ['/a', '/b'] }, '/c'] }, op: '=', right: '/total' },
      { left: '/total', op: '=', right: 0, tolerance: -1 },
    ]);
    expect(refused.success).toBe(false);
    const paths = refused.error!.issues.map((issue) => issue.path.join('/'));
    expect(paths).toEqual(
      expect.arrayContaining(['0/left', '1/op', '2/left', '3/left', '4/tolerance']),
    );
  });

  it('finds the pointers, lists and kinds that do not fit the schema, each where it is', () => {
    const checks: Check[] = [
      sumOfLines,
      dueAfterDate,
      linesMultiply,
      { left: '/totl', op: '=', right: 0 },
      { left: '/total/*', op: '=', right: 0 },
      { left: { sum: '/line_items/*/description' }, op: '=', right: '/total' },
      { left: { sum: '/line_items/0/amount' }, op: '=', right: '/total' },
      { left: '/currency', op: '<', right: { value: 'USD' } },
      { left: '/total', op: '=', right: '/date' },
      { left: '/line_items/*/amount', op: '<=', right: '/notes/*' },
      { left: '/vendor', op: '=', right: '/vendor' },
      { left: { add: ['/total', '/currency'] }, op: '>', right: 0 },
    ];
    expect(checkProblems(checks, invoice)).toEqual([
      {
        pointer: '/3/left',
        message: '"/totl" names no property of jsonSchema ("totl" is not one)',
      },
      { pointer: '/4/left', message: '"/total/*" has * where jsonSchema has no list' },
      {
        pointer: '/5/left/sum',
        message: '"/line_items/*/description" is text; arithmetic needs numbers',
      },
      {
        pointer: '/6/left/sum',
        message: '"/line_items/0/amount" has no *: a sum adds the values of a list\'s items',
      },
      { pointer: '/7/op', message: '"<" orders numbers and dates; text takes only = and !=' },
      { pointer: '/8/right', message: 'compares a number with a date' },
      { pointer: '/9/right', message: 'compares a number with text' },
      {
        pointer: '/9',
        message:
          'goes item by item over "/line_items" and "/notes"; one list per check (or sum one of them)',
      },
      {
        pointer: '/10/left',
        message:
          '"/vendor" is an object; a check compares single values (use * for a list\'s items)',
      },
      {
        pointer: '/10/right',
        message:
          '"/vendor" is an object; a check compares single values (use * for a list\'s items)',
      },
      { pointer: '/11/left/add/1', message: '"/currency" is text; arithmetic needs numbers' },
    ]);
  });
});
