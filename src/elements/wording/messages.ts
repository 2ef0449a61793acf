/**
 * What the results editor says about a value the schema does not accept, in plain words
 * written from the schema: the field's title, its examples or description, and the kind
 * of value expected ("Enter the currency as three capital letters, such as EUR."). Never a
 * raw pattern or a JSON type name: those are the API's words (src/contract/schema-validation.ts),
 * not a person's. All of the editor's messages are here, through the catalogue (src/locales).
 *
 * A title goes into a message as the schema has it; only English lowers its first letter
 * for the middle of a sentence ("Enter the invoice number."). Other languages' catalogues
 * quote it instead, which needs no article and keeps German nouns capitalised.
 */
import { msg, str } from '@lit/localize';
import type { TargetSchema } from '../../contract/json-schema.js';
import type { SchemaProblem } from '../../contract/schema-validation.js';
import { plural } from '../../locales/plural.js';
import { humanizeName } from '../internal/field-names.js';
import { formatNumber } from '../../locales/format.js';
import { fieldKindOf } from '../field-kinds/index.js';
import { chooseOption, chooseYesOrNo } from '../field-kinds/controls.js';
import { inSentence, isEnglish } from '../../locales/sentence.js';

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

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function plainExample(schema: TargetSchema): string | undefined {
  const example = schema.examples?.find(
    (candidate) => typeof candidate === 'string' || typeof candidate === 'number',
  );
  return example === undefined ? undefined : String(example);
}

/** The message for a value that is not there: what its field kind asks for. */
function missingMessage(schema: TargetSchema, title: string): string {
  return fieldKindOf(schema).missing(schema, title);
}

const numberWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** A count as English spells small ones ("three"); digits in the locale's form otherwise. */
function countWord(amount: number): string {
  return (isEnglish() ? numberWords[amount] : undefined) ?? formatNumber(amount);
}

/** The kinds of character a pattern's classes stand for: a counted noun, and examples. */
const capitals = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const digits = '1234567890';
/**
 * A counted noun: "three digits". `shown` is what stands for the count when it is not
 * the spelled count: digits ("4 to 5 digits"), or words ("one or more digits").
 */
type Counted = (amount: number, shown?: string) => string;
const capitalLetters: Counted = (amount, shown = countWord(amount)) =>
  plural(
    amount,
    {
      one: str`${shown} capital letter`,
      other: str`${shown} capital letters`,
    },
    { id: 'pattern.capital-letters' },
  );
const smallLetters: Counted = (amount, shown = countWord(amount)) =>
  plural(
    amount,
    { one: str`${shown} small letter`, other: str`${shown} small letters` },
    { id: 'pattern.small-letters' },
  );
const letters: Counted = (amount, shown = countWord(amount)) =>
  plural(
    amount,
    { one: str`${shown} letter`, other: str`${shown} letters` },
    { id: 'pattern.letters' },
  );
const digitsCounted: Counted = (amount, shown = countWord(amount)) =>
  plural(
    amount,
    { one: str`${shown} digit`, other: str`${shown} digits` },
    { id: 'pattern.digits' },
  );
const capitalsOrDigits: Counted = (amount, shown = countWord(amount)) =>
  plural(
    amount,
    {
      one: str`${shown} capital letter or digit`,
      other: str`${shown} capital letters or digits`,
    },
    { id: 'pattern.capitals-or-digits' },
  );
const lettersOrDigits: Counted = (amount, shown = countWord(amount)) =>
  plural(
    amount,
    {
      one: str`${shown} letter or digit`,
      other: str`${shown} letters or digits`,
    },
    { id: 'pattern.letters-or-digits' },
  );
const characterClasses: Record<string, { counted: Counted; examples: string }> = {
  'A-Z': { counted: capitalLetters, examples: capitals },
  'a-z': { counted: smallLetters, examples: capitals.toLowerCase() },
  'A-Za-z': { counted: letters, examples: capitals },
  'a-zA-Z': { counted: letters, examples: capitals.toLowerCase() },
  '0-9': { counted: digitsCounted, examples: digits },
  '\\d': { counted: digitsCounted, examples: digits },
  'A-Z0-9': { counted: capitalsOrDigits, examples: capitals },
  '0-9A-Z': { counted: capitalsOrDigits, examples: digits },
  'A-Za-z0-9': { counted: lettersOrDigits, examples: capitals },
  'a-zA-Z0-9': { counted: lettersOrDigits, examples: capitals.toLowerCase() },
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
          ? klass.counted(low)
          : high === undefined
            ? low > 1
              ? msg(str`at least ${klass.counted(low, formatNumber(low))}`, {
                  id: 'pattern.at-least',
                })
              : // The plural form of five: the one "more" takes in Polish and Arabic too.
                klass.counted(5, msg('one or more', { id: 'pattern.one-or-more' }))
            : msg(str`${formatNumber(low)} to ${klass.counted(high, formatNumber(high))}`, {
                id: 'pattern.range',
              });
      const length = Math.max(low, 1);
      pieces.push({
        words: amount,
        example: klass.examples.repeat(Math.ceil(length / klass.examples.length)).slice(0, length),
      });
    } else {
      const name =
        character === ' '
          ? msg('a space', { id: 'pattern.space' })
          : msg(str`“${character}”`, { id: 'pattern.character' });
      if (high !== 1 || low !== 1) return undefined;
      pieces.push({ words: name, example: character! });
    }
  }
  if (pieces.length === 0 || pieces.length > 4) return undefined;
  return {
    words: pieces
      .map((piece) => piece.words)
      .reduce((before, next) => msg(str`${before}, then ${next}`, { id: 'pattern.then' })),
    example: pieces.map((piece) => piece.example).join(''),
  };
}

function patternMessage(schema: TargetSchema, title: string): string {
  const example = plainExample(schema);
  const description = schema.description?.trim().replace(/[.!?]+$/, '');
  const described = schema.pattern ? describePattern(schema.pattern) : undefined;
  if (!title) return patternMessageUntitled(example, description, described);
  const what = inSentence(title);
  // The schema's own example or description says more than one made up from the pattern.
  if (described && example)
    return msg(str`Enter the ${what} as ${described.words}, such as ${example}.`, {
      id: 'form.pattern.example',
    });
  if (described && description)
    return msg(str`Enter the ${what} as ${described.words} (${description}).`, {
      id: 'form.pattern.description',
    });
  if (described)
    return msg(str`Enter the ${what} as ${described.words}, such as ${described.example}.`, {
      id: 'form.pattern.made-up-example',
    });
  if (example)
    return msg(str`Enter the ${what} in the same form as ${example}.`, {
      id: 'form.pattern.same-form',
    });
  if (description)
    return msg(str`Enter the ${what} as described: ${inSentence(description)}.`, {
      id: 'form.pattern.as-described',
    });
  return msg(str`Enter the ${what} in the form it has on the document.`, {
    id: 'form.pattern.as-on-document',
  });
}

function patternMessageUntitled(
  example: string | undefined,
  description: string | undefined,
  described: { words: string; example: string } | undefined,
): string {
  if (described && example)
    return msg(str`Enter the value as ${described.words}, such as ${example}.`, {
      id: 'form.pattern.value-example',
    });
  if (described && description)
    return msg(str`Enter the value as ${described.words} (${description}).`, {
      id: 'form.pattern.value-description',
    });
  if (described)
    return msg(str`Enter the value as ${described.words}, such as ${described.example}.`, {
      id: 'form.pattern.value-made-up-example',
    });
  if (example)
    return msg(str`Enter the value in the same form as ${example}.`, {
      id: 'form.pattern.value-same-form',
    });
  if (description)
    return msg(str`Enter the value as described: ${inSentence(description)}.`, {
      id: 'form.pattern.value-as-described',
    });
  return msg('Enter the value in the form it has on the document.', {
    id: 'form.pattern.value-as-on-document',
  });
}

function formatMessage(format: string): string | undefined {
  switch (format) {
    case 'date':
      return msg('Enter a date as year-month-day, such as 2024-05-31.', { id: 'form.format.date' });
    case 'date-time':
      return msg(
        'Enter a date and time as year-month-day hours:minutes, such as 2024-05-31 14:30.',
        { id: 'form.format.date-time' },
      );
    case 'time':
      return msg('Enter a time as hours:minutes, such as 14:30.', { id: 'form.format.time' });
    case 'email':
      return msg('Enter an email address, such as name@example.com.', {
        id: 'form.format.email',
      });
    case 'uri':
      return msg('Enter a full web address, such as https://example.com.', {
        id: 'form.format.uri',
      });
    case 'iban':
      return msg('This IBAN does not add up: check it for a mistyped character.', {
        id: 'form.format.iban',
      });
    default:
      return undefined;
  }
}

function numberExample(schema: TargetSchema, whole: boolean, locale: string | undefined): string {
  const example = schema.examples?.find((candidate) => typeof candidate === 'number');
  const number = typeof example === 'number' ? example : whole ? 12 : 1234.56;
  return formatNumber(number, locale);
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
      if (expected.includes('boolean')) return chooseYesOrNo();
      if (expected.includes('number'))
        return msg(str`Enter a number, such as ${numberExample(schema, false, locale)}.`, {
          id: 'form.type.number',
        });
      if (expected.includes('integer'))
        return msg(str`Enter a whole number, such as ${numberExample(schema, true, locale)}.`, {
          id: 'form.type.integer',
        });
      if (expected.includes('array'))
        return msg('What was found here is not a list: add the items again.', {
          id: 'form.type.array',
        });
      if (expected.includes('object'))
        return msg('What was found here cannot be shown: fill it in again.', {
          id: 'form.type.object',
        });
      return title
        ? msg(str`Enter the ${inSentence(title)} as text.`, { id: 'form.type.text-named' })
        : msg('Enter the value as text.', { id: 'form.type.text' });
    }
    case 'enum':
      if (isMissing(value)) return missingMessage(schema, title);
      return typeof value === 'string'
        ? msg(str`“${value}” is not one of the options: choose one from the list.`, {
            id: 'form.enum',
          })
        : chooseOption();
    case 'const':
      return msg(
        str`This can only be ${typeof schema.const === 'string' ? `“${schema.const}”` : JSON.stringify(schema.const)}.`,
        { id: 'form.const' },
      );
    case 'pattern':
      return isMissing(value) ? missingMessage(schema, title) : patternMessage(schema, title);
    case 'format':
      return formatMessage(problem.format) ?? patternMessage(schema, title);
    case 'minLength':
      return isMissing(value)
        ? missingMessage(schema, title)
        : plural(
            problem.limit,
            {
              one: str`Enter at least ${number(problem.limit)} character.`,
              other: str`Enter at least ${number(problem.limit)} characters.`,
            },
            { id: 'form.min-length' },
          );
    case 'maxLength':
      return plural(
        problem.limit,
        {
          one: str`Use at most ${number(problem.limit)} character; this has ${number([...String(value)].length)}.`,
          other: str`Use at most ${number(problem.limit)} characters; this has ${number([...String(value)].length)}.`,
        },
        { id: 'form.max-length' },
      );
    case 'minimum':
      return msg(str`Enter ${number(problem.limit)} or more.`, { id: 'form.minimum' });
    case 'maximum':
      return msg(str`Enter ${number(problem.limit)} or less.`, { id: 'form.maximum' });
    case 'exclusiveMinimum':
      return msg(str`Enter more than ${number(problem.limit)}.`, { id: 'form.exclusive-minimum' });
    case 'exclusiveMaximum':
      return msg(str`Enter less than ${number(problem.limit)}.`, { id: 'form.exclusive-maximum' });
    case 'multipleOf': {
      if (problem.limit === 1) return msg('Enter a whole number.', { id: 'form.whole-number' });
      const places = -Math.log10(problem.limit);
      if (Number.isInteger(places) && places > 0)
        return plural(
          places,
          {
            one: str`Use at most ${countWord(places)} decimal place.`,
            other: str`Use at most ${countWord(places)} decimal places.`,
          },
          { id: 'form.decimal-places' },
        );
      return msg(str`Enter a multiple of ${number(problem.limit)}.`, { id: 'form.multiple-of' });
    }
    case 'minItems':
      return plural(
        problem.limit,
        {
          one: str`Add at least ${countWord(problem.limit)} item.`,
          other: str`Add at least ${countWord(problem.limit)} items.`,
        },
        { id: 'form.min-items' },
      );
    case 'maxItems':
      return plural(
        problem.limit,
        {
          one: str`Keep at most ${countWord(problem.limit)} item.`,
          other: str`Keep at most ${countWord(problem.limit)} items.`,
        },
        { id: 'form.max-items' },
      );
    case 'additionalProperties':
      return msg('This value is not part of the form.', { id: 'form.additional' });
    case 'false':
      return msg('This value is not allowed.', { id: 'form.not-allowed' });
  }
}

/** Above a form with fields marked as required. */
export const requiredNote = () =>
  msg('Fields marked * must be filled in.', { id: 'form.required-note' });

/** What to show for a complaint of the service that the editor's own check did not make. */
export const serviceRefusedMessage = () =>
  msg('The service did not accept this value.', { id: 'form.service-refused' });

/** The texts of the line-item table. */
export const tableText = {
  get row() {
    return msg('Row', { id: 'table.row' });
  },
  get remove() {
    return msg('Remove', { id: 'table.remove' });
  },
  get addRow() {
    return msg('Add row', { id: 'table.add-row' });
  },
  rows: (count: number) =>
    plural(
      count,
      { one: str`${formatNumber(count)} row`, other: str`${formatNumber(count)} rows` },
      { id: 'table.rows' },
    ),
  shownRows: (shown: number, count: number) =>
    plural(
      count,
      {
        one: str`${formatNumber(shown)} of ${formatNumber(count)} row shown`,
        other: str`${formatNumber(shown)} of ${formatNumber(count)} rows shown`,
      },
      { id: 'table.shown-rows' },
    ),
  cellLabel: (column: string, index: number) =>
    msg(str`${column}, row ${formatNumber(index + 1)}`, { id: 'table.cell' }),
  removeRow: (index: number) =>
    msg(str`Remove row ${formatNumber(index + 1)}`, { id: 'table.remove-row' }),
  get keys() {
    return msg(
      'In the table, the arrow keys move between cells; Enter or F2 edits a cell, Escape undoes the edit.',
      { id: 'table.keys' },
    );
  },
  problemCount: (rows: number) =>
    plural(
      rows,
      {
        one: str`${formatNumber(rows)} row needs attention.`,
        other: str`${formatNumber(rows)} rows need attention.`,
      },
      { id: 'table.problem-count' },
    ),
  get filter() {
    return msg('Show only rows that need attention', { id: 'table.filter' });
  },
  problemPlace: (row: number, column: string) =>
    column
      ? msg(str`Row ${formatNumber(row + 1)} · ${column}:`, { id: 'table.problem-place-column' })
      : msg(str`Row ${formatNumber(row + 1)}:`, { id: 'table.problem-place' }),
  more: (count: number) => msg(str`And ${formatNumber(count)} more.`, { id: 'table.more' }),
};
