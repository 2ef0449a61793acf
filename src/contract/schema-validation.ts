/**
 * The validator of target schemas (see json-schema.ts for what they may use). It is shared:
 * the server checks results and edits with it, the results editor checks values with it
 * while a person types, so both always agree. The interface's first view never loads it.
 */
import {
  encodePointerToken,
  isPlainObject,
  resolveRef,
  typesOf,
  typeOfValue,
  type JsonType,
  type TargetSchema,
} from './json-schema.js';

/**
 * Whether a text matches a schema's `pattern`. The validator leaves it to its caller: the
 * service runs patterns on a linear-time engine (src/server/extractors/patterns.ts), since a
 * backtracking one held every request for seconds on a 34-character value; the results
 * editor, which runs in the person's own page, uses the browser's RegExp and stays small.
 */
export type PatternTest = (pattern: string, text: string) => boolean;

/** The browser's own engine, for the results editor. */
export const testPatternNatively: PatternTest = (pattern, text) =>
  new RegExp(pattern, 'u').test(text);

export interface SchemaViolation {
  /** RFC 6901 JSON pointer to the offending value, `''` for the whole document. */
  pointer: string;
  message: string;
}

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const isoTime = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?$/i;

function isCalendarDate(text: string): boolean {
  const match = isoDate.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** ISO 13616: country code, check digits, then mod-97 of the rearranged number is 1. */
export function isValidIban(text: string): boolean {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const formatTests: Record<string, (text: string) => boolean> = {
  date: isCalendarDate,
  'date-time': (text) => {
    const [date, time] = text.split(/[Tt ]/, 2);
    return !!date && !!time && isCalendarDate(date) && isoTime.test(time);
  },
  time: (text) => isoTime.test(text),
  // Something@domain.tld. The lookahead keeps it linear: /^[^\s@]+@[^\s@]+\.[^\s@]+$/
  // backtracked over every dot of a long value that ends badly (a minute for 200 KB).
  email: (text) => /^[^\s@]+@(?=[^\s@]+$)[^\s@]+\.[^\s@]/.test(text),
  uri: (text) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(text),
  iban: isValidIban,
};

/**
 * The API's words for a value not in its format; apart from the tests, so that the results
 * editor, which words problems in the person's language (messages.ts), does not carry them.
 */
const formatMessages: Record<string, string> = {
  date: 'must be a date (YYYY-MM-DD)',
  'date-time': 'must be a date and time (YYYY-MM-DDThh:mm:ssZ)',
  time: 'must be a time (hh:mm:ss)',
  email: 'must be an email address',
  uri: 'must be an absolute address (https://…)',
  iban: 'must be a valid IBAN',
};

const typeNames: Record<JsonType, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'empty',
};

function matchesType(value: unknown, type: JsonType): boolean {
  const actual = typeOfValue(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** A keyword whose limit a value passed: the limit is the keyword's number. */
export type LimitKeyword =
  | 'minLength'
  | 'maxLength'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'multipleOf'
  | 'minItems'
  | 'maxItems';

/**
 * One way a value breaks a schema, as data: which keyword, where, and the (resolved) schema
 * of the value there, whose title, description and examples let an interface explain the
 * problem in its own words. `validateAgainstSchema` words the same problems for the API.
 */
export type SchemaProblem = {
  /** RFC 6901 JSON pointer to the offending value, `''` for the whole document. */
  pointer: string;
  /** The schema of the value at `pointer` (for `required`, of the missing property, if known). */
  schema: TargetSchema;
} & (
  | { keyword: 'false' | 'enum' | 'const' | 'required' | 'pattern' | 'additionalProperties' }
  | { keyword: 'type'; expected: JsonType[] }
  | { keyword: 'format'; format: string }
  | { keyword: LimitKeyword; limit: number }
);

/**
 * Every way a value breaks a schema, each with a JSON pointer and a message a person can
 * act on. An empty list means the value is valid.
 */
export function validateAgainstSchema(
  schema: TargetSchema,
  value: unknown,
  testPattern: PatternTest,
): SchemaViolation[] {
  return findSchemaProblems(schema, value, testPattern).map((problem) => ({
    pointer: problem.pointer,
    message: describeProblem(problem),
  }));
}

/** The problems of a value under a schema, as data; empty when the value is valid. */
export function findSchemaProblems(
  schema: TargetSchema,
  value: unknown,
  testPattern: PatternTest,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  visit(schema, value, '', schema, problems, testPattern);
  return problems;
}

/** The words of the API for a problem (the `detail` of a field error). */
function describeProblem(problem: SchemaProblem): string {
  const { schema } = problem;
  switch (problem.keyword) {
    case 'false':
      return 'is not allowed';
    case 'type':
      return `must be ${problem.expected.map((type) => typeNames[type]).join(' or ')}`;
    case 'enum':
      return `must be one of ${(schema.enum ?? []).map((o) => JSON.stringify(o)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(schema.const)}`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'pattern':
      return `must match the pattern ${schema.pattern}`;
    case 'format':
      return formatMessages[problem.format] ?? 'is not in the expected format';
    case 'minLength':
      return problem.limit === 1
        ? 'must not be empty'
        : `must be at least ${problem.limit} characters`;
    case 'maxLength':
      return `must be at most ${problem.limit} characters`;
    case 'minimum':
      return `must be at least ${problem.limit}`;
    case 'maximum':
      return `must be at most ${problem.limit}`;
    case 'exclusiveMinimum':
      return `must be more than ${problem.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${problem.limit}`;
    case 'multipleOf':
      return `must be a multiple of ${problem.limit}`;
    case 'minItems':
      return `must have at least ${problem.limit} item${problem.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${problem.limit} items`;
  }
}

// Plain parameters rather than an object of them: the results editor's bundle has no bytes
// to spare, and a parameter's name, unlike a property's, is minified away.
function visit(
  rawSchema: TargetSchema | boolean,
  value: unknown,
  pointer: string,
  root: TargetSchema,
  out: SchemaProblem[],
  testPattern: PatternTest,
): void {
  if (rawSchema === true) return;
  if (rawSchema === false) {
    out.push({ pointer, schema: {}, keyword: 'false' });
    return;
  }
  const schema = resolveRef(rawSchema, root);
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((type) => matchesType(value, type))) {
    out.push({ pointer, schema, keyword: 'type', expected: types });
    return;
  }
  if (schema.enum && !schema.enum.some((option) => deepEqual(option, value))) {
    out.push({ pointer, schema, keyword: 'enum' });
  }
  if (schema.const !== undefined && !deepEqual(schema.const, value)) {
    out.push({ pointer, schema, keyword: 'const' });
  }
  const limit = (keyword: LimitKeyword, limit: number) =>
    out.push({ pointer, schema, keyword, limit });
  if (typeof value === 'string') checkString(schema, value, pointer, out, testPattern, limit);
  else if (typeof value === 'number') checkNumber(schema, value, limit);
  else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      limit('minItems', schema.minItems);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      limit('maxItems', schema.maxItems);
    if (schema.items !== undefined) {
      value.forEach((item, index) =>
        visit(schema.items!, item, `${pointer}/${index}`, root, out, testPattern),
      );
    }
  } else if (isPlainObject(value)) {
    for (const name of schema.required ?? []) {
      if (value[name] === undefined) {
        const child = schema.properties?.[name];
        out.push({
          pointer: `${pointer}/${encodePointerToken(name)}`,
          schema: child ? resolveRef(child, root) : {},
          keyword: 'required',
        });
      }
    }
    for (const [name, child] of Object.entries(value)) {
      const childPointer = `${pointer}/${encodePointerToken(name)}`;
      const childSchema = schema.properties?.[name];
      if (childSchema !== undefined)
        visit(childSchema, child, childPointer, root, out, testPattern);
      else if (schema.additionalProperties === false) {
        out.push({ pointer: childPointer, schema: {}, keyword: 'additionalProperties' });
      } else if (isPlainObject(schema.additionalProperties)) {
        visit(schema.additionalProperties, child, childPointer, root, out, testPattern);
      }
    }
  }
}

function checkString(
  schema: TargetSchema,
  value: string,
  pointer: string,
  out: SchemaProblem[],
  testPattern: PatternTest,
  limit: (keyword: LimitKeyword, limit: number) => void,
): void {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength)
    limit('minLength', schema.minLength);
  if (schema.maxLength !== undefined && length > schema.maxLength)
    limit('maxLength', schema.maxLength);
  if (schema.pattern !== undefined) {
    let matches = true;
    try {
      matches = testPattern(schema.pattern, value);
    } catch {
      // A pattern the engine cannot run is refused when the schema is saved; one that
      // slipped through (saved before) is ignored, as an unknown keyword would be.
    }
    if (!matches) out.push({ pointer, schema, keyword: 'pattern' });
  }
  // Own formats only: "toString" or "constructor" is unknown, not Object.prototype's.
  const format =
    schema.format && Object.hasOwn(formatTests, schema.format)
      ? formatTests[schema.format]
      : undefined;
  if (format && value !== '' && !format(value))
    out.push({ pointer, schema, keyword: 'format', format: schema.format! });
}

function checkNumber(
  schema: TargetSchema,
  value: number,
  limit: (keyword: LimitKeyword, limit: number) => void,
): void {
  if (schema.minimum !== undefined && value < schema.minimum) limit('minimum', schema.minimum);
  if (schema.maximum !== undefined && value > schema.maximum) limit('maximum', schema.maximum);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
    limit('exclusiveMinimum', schema.exclusiveMinimum);
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
    limit('exclusiveMaximum', schema.exclusiveMaximum);
  if (schema.multipleOf !== undefined && schema.multipleOf > 0) {
    const quotient = value / schema.multipleOf;
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9) limit('multipleOf', schema.multipleOf);
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => deepEqual(left[key], right[key]))
  );
}
