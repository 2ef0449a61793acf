/**
 * What the results editor says about a value the schema does not accept, in plain words
 * written from the schema: the field's title, its examples or description, and the kind
 * of value expected ("Enter the currency as three capital letters, such as EUR."). Never a
 * raw pattern or a JSON type name: those are the API's words (src/contract/schema-validation.ts),
 * not a person's. All of the editor's English messages are here, to move into a catalogue
 * with the other built-in texts.
 */
import type { TargetSchema } from '../../contract/json-schema.js';
import type { SchemaProblem } from '../../contract/schema-validation.js';
import { humanizeName } from '../field-names.js';
import { editorKind, formatNumber } from './values.js';

export interface MessageContext {
  /** What the value is called: its title, or its property name made readable. */
  title: string;
  /** The value as it stands. */
  value: unknown;
  /** The person's locale, for numbers; the browser's when undefined. */
  locale?: string | undefined;
}

/** The name of the value at a JSON pointer: its schema's title, else its property name. */
export function titleAt(pointer: string, schema: TargetSchema): string {
  const title = schema.title?.trim();
  if (title) return title;
  const token = pointer
    .slice(pointer.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  return token && !/^\d+$/.test(token) ? humanizeName(token) : '';
}

/** "Invoice number" → "invoice number", for the middle of a sentence; "IBAN" stays. */
function inSentence(title: string): string {
  return /^.[a-z]/.test(title) || title.length === 1
    ? title[0]!.toLowerCase() + title.slice(1)
    : title;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function plainExample(schema: TargetSchema): string | undefined {
  const example = schema.examples?.find(
    (candidate) => typeof candidate === 'string' || typeof candidate === 'number',
  );
  return example === undefined ? undefined : String(example);
}

/** The message for a value that is not there. */
function missingMessage(schema: TargetSchema, title: string): string {
  const kind = editorKind(schema);
  const what = title ? `the ${inSentence(title)}` : 'a value';
  if (kind === 'boolean') return 'Choose yes or no.';
  if (kind === 'choice') return title ? `Choose ${what}.` : 'Choose one of the options.';
  const type = schema.type;
  if (type === 'array' || (Array.isArray(type) && type.includes('array')))
    return `Add ${title ? what : 'an item'}.`;
  return `Enter ${what}.`;
}

const numberWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

function count(amount: number, one: string, many: string): string {
  return `${numberWords[amount] ?? amount} ${amount === 1 ? one : many}`;
}

/** The kinds of character a pattern's classes stand for, as words. */
const capitals = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const digits = '1234567890';
const characterClasses: Record<string, { one: string; many: string; examples: string }> = {
  'A-Z': { one: 'capital letter', many: 'capital letters', examples: capitals },
  'a-z': { one: 'small letter', many: 'small letters', examples: capitals.toLowerCase() },
  'A-Za-z': { one: 'letter', many: 'letters', examples: capitals },
  'a-zA-Z': { one: 'letter', many: 'letters', examples: capitals.toLowerCase() },
  '0-9': { one: 'digit', many: 'digits', examples: digits },
  '\\d': { one: 'digit', many: 'digits', examples: digits },
  'A-Z0-9': {
    one: 'capital letter or digit',
    many: 'capital letters or digits',
    examples: capitals,
  },
  '0-9A-Z': { one: 'capital letter or digit', many: 'capital letters or digits', examples: digits },
  'A-Za-z0-9': { one: 'letter or digit', many: 'letters or digits', examples: capitals },
  'a-zA-Z0-9': {
    one: 'letter or digit',
    many: 'letters or digits',
    examples: capitals.toLowerCase(),
  },
};

/**
 * A simple pattern in words, with an example that matches it: `^[A-Z]{3}$` is "three
 * capital letters" (ABC), `^[0-9]{4,5}$` "4 to 5 digits". Only anchored sequences of
 * character classes and plain characters with counts are described; anything richer
 * (alternatives, groups, look-arounds) is left to the schema's description or examples.
 */
export function describePattern(pattern: string): { words: string; example: string } | undefined {
  const body = /^\^(.*)\$$/.exec(pattern)?.[1];
  if (body === undefined) return undefined;
  const atom =
    /(?:\[([^\]]+)\]|(\\d)|\\([-./ ])|([-./ A-Za-z0-9]))(?:\{(\d+)(?:,(\d*))?\}|([+?*]))?/y;
  const pieces: { words: string; example: string }[] = [];
  let at = 0;
  while (at < body.length) {
    atom.lastIndex = at;
    const match = atom.exec(body);
    if (!match) return undefined;
    at = atom.lastIndex;
    const [, group, digit, escaped, literal, min, max, shorthand] = match;
    const klass = characterClasses[group ?? digit ?? ''];
    const character = escaped ?? literal;
    if (!klass && character === undefined) return undefined;
    let low = 1;
    let high: number | undefined = 1;
    if (min !== undefined) {
      low = Number(min);
      high = max === undefined ? low : max === '' ? undefined : Number(max);
    } else if (shorthand === '+') high = undefined;
    else if (shorthand === '?') low = 0;
    else if (shorthand === '*') {
      low = 0;
      high = undefined;
    }
    if (klass) {
      const amount =
        high === low
          ? count(low, klass.one, klass.many)
          : high === undefined
            ? `${low > 1 ? `at least ${low}` : 'one or more'} ${klass.many}`
            : `${low} to ${high} ${klass.many}`;
      const length = Math.max(low, 1);
      pieces.push({
        words: amount,
        example: klass.examples.repeat(Math.ceil(length / klass.examples.length)).slice(0, length),
      });
    } else {
      const name = character === ' ' ? 'a space' : `“${character}”`;
      if (high !== 1 || low !== 1) return undefined;
      pieces.push({ words: name, example: character! });
    }
  }
  if (pieces.length === 0 || pieces.length > 4) return undefined;
  return {
    words: pieces.map((piece) => piece.words).join(', then '),
    example: pieces.map((piece) => piece.example).join(''),
  };
}

function patternMessage(schema: TargetSchema, title: string): string {
  const what = title ? `the ${inSentence(title)}` : 'the value';
  const example = plainExample(schema);
  const description = schema.description?.trim().replace(/[.!?]+$/, '');
  const described = schema.pattern ? describePattern(schema.pattern) : undefined;
  // The schema's own example or description says more than one made up from the pattern.
  if (described && example) return `Enter ${what} as ${described.words}, such as ${example}.`;
  if (described && description) return `Enter ${what} as ${described.words} (${description}).`;
  if (described) return `Enter ${what} as ${described.words}, such as ${described.example}.`;
  if (example) return `Enter ${what} in the same form as ${example}.`;
  if (description) return `Enter ${what} as described: ${inSentence(description)}.`;
  return `Enter ${what} in the form it has on the document.`;
}

const formatMessages: Record<string, string> = {
  date: 'Enter a date as year-month-day, such as 2024-05-31.',
  'date-time': 'Enter a date and time as year-month-day hours:minutes, such as 2024-05-31 14:30.',
  time: 'Enter a time as hours:minutes, such as 14:30.',
  email: 'Enter an email address, such as name@example.com.',
  uri: 'Enter a full web address, such as https://example.com.',
  iban: 'This IBAN does not add up: check it for a mistyped character.',
};

function numberExample(schema: TargetSchema, whole: boolean, locale: string | undefined): string {
  const example = schema.examples?.find((candidate) => typeof candidate === 'number');
  const number = typeof example === 'number' ? example : whole ? 12 : 1234.56;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(number);
}

/** The message for one problem, as a sentence. */
export function describeSchemaProblem(problem: SchemaProblem, context: MessageContext): string {
  const { schema } = problem;
  const { title, value, locale } = context;
  const number = (amount: number) => formatNumber(amount, locale);
  switch (problem.keyword) {
    case 'required':
      return missingMessage(schema, title);
    case 'type': {
      if (isMissing(value)) return missingMessage(schema, title);
      const expected = problem.expected.filter((type) => type !== 'null');
      if (expected.includes('boolean')) return 'Choose yes or no.';
      if (expected.includes('number'))
        return `Enter a number, such as ${numberExample(schema, false, locale)}.`;
      if (expected.includes('integer'))
        return `Enter a whole number, such as ${numberExample(schema, true, locale)}.`;
      if (expected.includes('array'))
        return 'What was found here is not a list: add the items again.';
      if (expected.includes('object'))
        return 'What was found here cannot be shown: fill it in again.';
      return `Enter ${title ? `the ${inSentence(title)}` : 'the value'} as text.`;
    }
    case 'enum':
      if (isMissing(value)) return missingMessage(schema, title);
      return typeof value === 'string'
        ? `“${value}” is not one of the options: choose one from the list.`
        : 'Choose one of the options.';
    case 'const':
      return `This can only be ${typeof schema.const === 'string' ? `“${schema.const}”` : JSON.stringify(schema.const)}.`;
    case 'pattern':
      return isMissing(value) ? missingMessage(schema, title) : patternMessage(schema, title);
    case 'format':
      return formatMessages[problem.format] ?? patternMessage(schema, title);
    case 'minLength':
      return isMissing(value)
        ? missingMessage(schema, title)
        : `Enter at least ${problem.limit} characters.`;
    case 'maxLength':
      return `Use at most ${problem.limit} characters; this has ${[...String(value)].length}.`;
    case 'minimum':
      return `Enter ${number(problem.limit)} or more.`;
    case 'maximum':
      return `Enter ${number(problem.limit)} or less.`;
    case 'exclusiveMinimum':
      return `Enter more than ${number(problem.limit)}.`;
    case 'exclusiveMaximum':
      return `Enter less than ${number(problem.limit)}.`;
    case 'multipleOf': {
      if (problem.limit === 1) return 'Enter a whole number.';
      const places = -Math.log10(problem.limit);
      if (Number.isInteger(places) && places > 0)
        return `Use at most ${count(places, 'decimal place', 'decimal places')}.`;
      return `Enter a multiple of ${number(problem.limit)}.`;
    }
    case 'minItems':
      return `Add at least ${count(problem.limit, 'item', 'items')}.`;
    case 'maxItems':
      return `Keep at most ${count(problem.limit, 'item', 'items')}.`;
    case 'additionalProperties':
      return 'This value is not part of the form.';
    case 'false':
      return 'This value is not allowed.';
  }
}

/** The words of the choices the editor offers. */
export const choiceText = {
  yes: 'Yes',
  no: 'No',
  /** A yes or no that is not known (null), or not found. */
  unknown: 'Not known',
  /** The empty choice of a list that allows nothing. */
  none: 'None',
  /** The empty choice of a list where something must be chosen. */
  prompt: 'Choose…',
};

/** Above a form with fields marked as required. */
export const requiredNote = 'Fields marked * must be filled in.';

/** What to show for a complaint of the service that the editor's own check did not make. */
export const serviceRefusedMessage = 'The service did not accept this value.';

/** The texts of the line-item table. */
export const tableText = {
  row: 'Row',
  remove: 'Remove',
  addRow: 'Add row',
  rows: (count: number) => (count === 1 ? '1 row' : `${count} rows`),
  shownRows: (shown: number, count: number) => `${shown} of ${count} rows shown`,
  cellLabel: (column: string, index: number) => `${column}, row ${index + 1}`,
  removeRow: (index: number) => `Remove row ${index + 1}`,
  keys: 'In the table, the arrow keys move between cells; Enter or F2 edits a cell, Escape undoes the edit.',
  problemCount: (rows: number) =>
    rows === 1 ? '1 row needs attention.' : `${rows} rows need attention.`,
  filter: 'Show only rows that need attention',
  problemPlace: (row: number, column: string) => `Row ${row + 1}${column ? ` · ${column}` : ''}:`,
  more: (count: number) => `And ${count} more.`,
};
