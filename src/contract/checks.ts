/**
 * Checks an extractor defines over its schema's values: "the line items' amounts add up
 * to the total, within 0.01", "the due date is not before the invoice date". The service
 * evaluates them on each document's record as it completes (that document's `checks` in
 * the run's `resultMetadata.documents`) and the results editor on every edit, with this
 * one module, so both always agree.
 *
 * A check compares two operands:
 *
 *     { "left": { "sum": "/line_items/*\/amount" }, "op": "=", "right": "/total", "tolerance": 0.01 }
 *     { "left": "/due_date", "op": ">=", "right": "/date", "message": "Due before it was issued?" }
 *
 * An operand is a JSON pointer into the results (`"/total"`), a number (`0`), a literal
 * (`{ "value": "EUR" }`), the sum of a list's values (`{ "sum": "/line_items/*\/amount" }`:
 * `*` stands for every item), or arithmetic over those: `{ "add": [...] }`,
 * `{ "subtract": [a, b] }`, `{ "multiply": [...] }`. A pointer with `*` outside a sum makes
 * the check one per item of that list ("quantity × unit price = amount" on every line).
 *
 * Numbers compare as numbers, dates (ISO 8601) as dates, anything else only with `=` and
 * `!=`, as written. `tolerance` (numbers, or days for dates) counts values that close as
 * equal. A check whose values are not all there is not evaluated: a value not found is
 * shown as such already, and a check says nothing about it.
 *
 * The checks' shapes are in check-schemas.ts (re-exported here), which the resources
 * import; this module, the evaluator, imports nothing but them and the contract's JSON
 * Schema helpers, and the browser loads it with the results editor only, never in the
 * interface's first view.
 */
import type { Check, CheckFailure, CheckOperand, CheckOperator, Term } from './check-schemas.js';
import {
  decodePointerToken,
  encodePointerToken,
  primaryType,
  resolveRef,
  type TargetSchema,
} from './json-schema.js';

export * from './check-schemas.js';

// ---------------------------------------------------------------------------------------
// Pointers, with `*` for every item of a list

function tokensOf(path: string): string[] {
  return path.split('/').slice(1).map(decodePointerToken);
}

function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${encodePointerToken(token)}`).join('');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every value a pointer with `*` reaches in `data`, with its own pointer. */
function valuesAt(data: unknown, path: string): { pointer: string; value: unknown }[] {
  let found: { tokens: (string | number)[]; value: unknown }[] = [{ tokens: [], value: data }];
  for (const token of tokensOf(path)) {
    const next: typeof found = [];
    for (const { tokens, value } of found) {
      if (token === '*') {
        if (Array.isArray(value))
          value.forEach((item, index) => next.push({ tokens: [...tokens, index], value: item }));
      } else if (Array.isArray(value) && /^(0|[1-9]\d*)$/.test(token)) {
        next.push({ tokens: [...tokens, Number(token)], value: value[Number(token)] });
      } else if (isPlainObject(value)) {
        next.push({ tokens: [...tokens, token], value: value[token] });
      } else {
        next.push({ tokens: [...tokens, token], value: undefined });
      }
    }
    found = next;
  }
  return found.map(({ tokens, value }) => ({ pointer: pointerOf(tokens), value }));
}

function pointersIn(operand: CheckOperand): { path: string; summed: boolean }[] {
  if (typeof operand === 'string') return [{ path: operand, summed: false }];
  if (typeof operand === 'number' || 'value' in operand) return [];
  if ('sum' in operand) return [{ path: operand.sum, summed: true }];
  const parts =
    'add' in operand ? operand.add : 'subtract' in operand ? operand.subtract : operand.multiply;
  return parts.flatMap((part) => pointersIn(part));
}

/**
 * The list a check runs over item by item: the part before `*` of its pointers outside
 * sums (`/line_items` for `/line_items/*\/amount`), or undefined when it has none.
 */
function rowListOf(check: Check): string | undefined {
  for (const { path, summed } of [...pointersIn(check.left), ...pointersIn(check.right)]) {
    const star = path.indexOf('/*');
    if (!summed && star >= 0 && (path.length === star + 2 || path[star + 2] === '/'))
      return path.slice(0, star);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Validation against the extractor's schema

export interface CheckProblem {
  /** JSON pointer into the list of checks (`/0/left`). */
  pointer: string;
  message: string;
}

type Kind = 'number' | 'date' | 'text' | 'boolean';

const isoDate = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

/** The schema a pointer (with `*`) names, or a message saying why it names none. */
function schemaAt(root: TargetSchema, path: string): TargetSchema | string {
  let schema = resolveRef(root, root);
  for (const token of tokensOf(path)) {
    const type = primaryType(schema);
    if (type === 'array' || (schema.items && !schema.properties)) {
      if (token !== '*' && !/^(0|[1-9]\d*)$/.test(token))
        return `"${path}" goes into a list with "${token}"; use * (every item) or an index`;
      if (!schema.items) return `"${path}" names the items of a list whose items have no schema`;
      schema = resolveRef(schema.items, root);
    } else if (token === '*') {
      return `"${path}" has * where jsonSchema has no list`;
    } else {
      const child = schema.properties?.[token];
      if (!child) return `"${path}" names no property of jsonSchema ("${token}" is not one)`;
      schema = resolveRef(child, root);
    }
  }
  return schema;
}

function kindOfSchema(schema: TargetSchema): Kind | string {
  const type = primaryType(schema);
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'string')
    return schema.format === 'date' || schema.format === 'date-time' ? 'date' : 'text';
  if (type === 'object' || type === 'array') return `a${type === 'array' ? ' list' : 'n object'}`;
  return 'text';
}

/**
 * What is wrong with checks for a schema, each problem with a pointer into the list of
 * checks: a pointer that names no property, `*` where there is no list, a sum of text, an
 * order between values that have none, rows of two lists in one check.
 */
export function checkProblems(checks: readonly Check[], schema: TargetSchema): CheckProblem[] {
  const problems: CheckProblem[] = [];
  for (const [index, check] of checks.entries()) {
    const at = (path: string) => `/${index}${path}`;
    const kindOf = (operand: CheckOperand, where: string): Kind | undefined => {
      if (typeof operand === 'number') return 'number';
      if (typeof operand === 'string') {
        const found = schemaAt(schema, operand);
        if (typeof found === 'string') {
          problems.push({ pointer: at(where), message: found });
          return undefined;
        }
        const kind = kindOfSchema(found);
        if (kind === 'number' || kind === 'date' || kind === 'text' || kind === 'boolean')
          return kind;
        problems.push({
          pointer: at(where),
          message: `"${operand}" is ${kind}; a check compares single values (use * for a list's items)`,
        });
        return undefined;
      }
      if ('value' in operand) {
        const { value } = operand;
        if (typeof value === 'number') return 'number';
        if (typeof value === 'boolean') return 'boolean';
        return isoDate.test(value) ? 'date' : 'text';
      }
      if ('sum' in operand && !operand.sum.split('/').includes('*'))
        problems.push({
          pointer: at(`${where}/sum`),
          message: `"${operand.sum}" has no *: a sum adds the values of a list's items`,
        });
      const parts: [Term, string][] =
        'sum' in operand
          ? [[operand.sum, `${where}/sum`]]
          : ('add' in operand
              ? operand.add
              : 'subtract' in operand
                ? operand.subtract
                : operand.multiply
            ).map((part, position) => [part, `${where}/${Object.keys(operand)[0]}/${position}`]);
      for (const [part, path] of parts) {
        const kind = kindOf(part, path);
        if (kind && kind !== 'number')
          problems.push({
            pointer: at(path),
            message: `${typeof part === 'number' ? part : JSON.stringify(part)} is ${kind}; arithmetic needs numbers`,
          });
      }
      return 'number';
    };
    const left = kindOf(check.left, '/left');
    const right = kindOf(check.right, '/right');
    if (left && right) {
      if (left !== right)
        problems.push({
          pointer: at('/right'),
          message: `compares ${left === 'text' ? 'text' : `a ${left}`} with ${right === 'text' ? 'text' : `a ${right}`}`,
        });
      else if (check.op !== '=' && check.op !== '!=' && left !== 'number' && left !== 'date')
        problems.push({
          pointer: at('/op'),
          message: `"${check.op}" orders numbers and dates; ${left === 'text' ? 'text takes' : 'booleans take'} only = and !=`,
        });
    }
    // Item by item over one list only: two lists have no rows in common.
    const lists = new Set(
      [...pointersIn(check.left), ...pointersIn(check.right)]
        .filter(({ summed, path }) => !summed && path.split('/').includes('*'))
        .map(({ path }) => {
          const tokens = path.split('/');
          const star = tokens.indexOf('*');
          if (tokens.indexOf('*', star + 1) >= 0)
            problems.push({
              pointer: at(''),
              message: `"${path}" has more than one * outside a sum; a check goes item by item over one list`,
            });
          return tokens.slice(0, star).join('/');
        }),
    );
    if (lists.size > 1)
      problems.push({
        pointer: at(''),
        message: `goes item by item over ${[...lists].map((list) => `"${list}"`).join(' and ')}; one list per check (or sum one of them)`,
      });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------
// Evaluation

interface Evaluated {
  /** undefined when a value is not there (or not what the check can compare). */
  value: number | string | boolean | undefined;
  pointers: string[];
  /** How a person would name it: "Total", "the sum of Amount in Line items". */
  name: string;
}

/**
 * A field's name for people, from the titles in the schema (or the property names), an
 * item numbered from 1: "Total", "Line items 3 › Amount".
 */
function nameOf(path: string, schema: TargetSchema | undefined, root: string): string {
  const names: string[] = [];
  let current = schema && resolveRef(schema, schema);
  for (const token of tokensOf(path)) {
    if (token === '*' || /^\d+$/.test(token)) {
      if (token !== '*' && names.length > 0)
        names[names.length - 1] = `${names[names.length - 1]} ${Number(token) + 1}`;
      current = current?.items && schema && resolveRef(current.items, schema);
      continue;
    }
    const child = current?.properties?.[token];
    current = child && schema && resolveRef(child, schema);
    names.push(child?.title?.trim() || token.replace(/_/g, ' '));
  }
  return names.join(' › ') || root;
}

function evaluateTerm(
  operand: CheckOperand,
  data: unknown,
  schema: TargetSchema | undefined,
  wording: FailureWording,
): Evaluated {
  if (typeof operand === 'number')
    return { value: operand, pointers: [], name: wording.value(operand) };
  if (typeof operand === 'string') {
    const [found] = valuesAt(data, operand);
    const value = found?.value;
    return {
      value:
        typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean'
          ? value
          : undefined,
      pointers: found ? [found.pointer] : [],
      name: nameOf(found?.pointer ?? operand, schema, wording.root),
    };
  }
  if ('value' in operand)
    return { value: operand.value, pointers: [], name: wording.value(operand.value) };
  if ('sum' in operand) {
    const found = valuesAt(data, operand.sum);
    const numbers = found.map(({ value }) => value);
    const complete = numbers.length > 0 && numbers.every((value) => typeof value === 'number');
    return {
      value: complete ? (numbers as number[]).reduce((sum, value) => sum + value, 0) : undefined,
      pointers: found.map(({ pointer }) => pointer),
      name: wording.sumOf(nameOf(operand.sum, schema, wording.root)),
    };
  }
  const [symbol, parts] =
    'add' in operand
      ? [' + ', operand.add]
      : 'subtract' in operand
        ? [' − ', operand.subtract]
        : [' × ', operand.multiply];
  const evaluated = parts.map((part: Term) => evaluateTerm(part, data, schema, wording));
  const numbers = evaluated.map(({ value }) => value);
  let value: number | undefined;
  if (numbers.every((part) => typeof part === 'number')) {
    const [first, ...rest] = numbers as number[];
    value = rest.reduce(
      (result, part) =>
        'add' in operand ? result + part : 'subtract' in operand ? result - part : result * part,
      first!,
    );
  }
  return {
    value,
    pointers: evaluated.flatMap((part) => part.pointers),
    name: evaluated.map((part) => part.name).join(symbol),
  };
}

const dayMs = 86_400_000;

/** -1, 0 or 1; undefined when the two cannot be compared (or ordered, for `ordered`). */
function compare(
  left: number | string | boolean,
  right: number | string | boolean,
  tolerance: number,
): { order: number; kind: Kind } | undefined {
  if (typeof left === 'number' && typeof right === 'number') {
    // Sums of cents are not exact in binary: a hair's difference is no difference.
    const slack = Math.max(tolerance, 1e-9 * Math.max(1, Math.abs(left), Math.abs(right)));
    return { order: Math.abs(left - right) <= slack ? 0 : Math.sign(left - right), kind: 'number' };
  }
  if (typeof left === 'string' && typeof right === 'string') {
    if (isoDate.test(left) && isoDate.test(right)) {
      const difference = instantOf(left) - instantOf(right);
      if (Number.isNaN(difference)) return undefined;
      return {
        order: Math.abs(difference) <= tolerance * dayMs ? 0 : Math.sign(difference),
        kind: 'date',
      };
    }
    return { order: left === right ? 0 : Number.NaN, kind: 'text' };
  }
  if (typeof left === 'boolean' && typeof right === 'boolean')
    return { order: left === right ? 0 : Number.NaN, kind: 'boolean' };
  return undefined;
}

/** A date or date-time as milliseconds; one without a zone is taken as UTC, everywhere alike. */
function instantOf(text: string): number {
  return Date.parse(/T/.test(text) && !/(Z|[+-]\d{2}:\d{2})$/.test(text) ? `${text}Z` : text);
}

function holds(op: CheckOperator, order: number): boolean | undefined {
  if (op === '=') return order === 0;
  if (op === '!=') return order !== 0;
  // Text and booleans have no order: NaN says "different, unordered".
  if (Number.isNaN(order)) return undefined;
  if (op === '<') return order < 0;
  if (op === '<=') return order <= 0;
  if (op === '>') return order > 0;
  return order >= 0;
}

/**
 * How a failed check without a `message` of its own is worded: the service words it in
 * English (`englishWording`, the message it stores), the results editor in the person's
 * language. A check's wording is given, never defaulted, so the browser's bundle does not
 * carry the English beside its own.
 */
export interface FailureWording {
  /** The name of the results as a whole (a pointer to the root). */
  readonly root: string;
  /** "the sum of Amount in Line items". */
  sumOf(name: string): string;
  /** A value in the sentence: a number, a text, a date (an ISO 8601 text) or a boolean. */
  value(value: number | string | boolean): string;
  /** A field with the value it has: "Total (125)". */
  operand(name: string, value: string): string;
  /**
   * The whole sentence. `kind` is `date` when dates are compared, `value` for numbers,
   * texts and booleans; `tolerance` (days for dates) only for `=` and `!=`, when the
   * check has one.
   */
  sentence(
    op: CheckOperator,
    kind: 'value' | 'date',
    left: string,
    right: string,
    tolerance?: number,
  ): string;
}

const phrases: Record<CheckOperator, { value: string; date: string }> = {
  '=': { value: 'should equal', date: 'should be' },
  '!=': { value: 'should differ from', date: 'should differ from' },
  '<': { value: 'should be less than', date: 'should be before' },
  '<=': { value: 'should be at most', date: 'should not be after' },
  '>': { value: 'should be more than', date: 'should be after' },
  '>=': { value: 'should be at least', date: 'should not be before' },
};

function formatEnglish(value: number | string | boolean): string {
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: 6 });
  return typeof value === 'string' ? `"${value}"` : String(value);
}

/** The service's wording, in English: the `message` of each failure it stores. */
export const englishWording: FailureWording = {
  root: 'the results',
  sumOf: (name) => `the sum of ${name}`,
  value: formatEnglish,
  operand: (name, value) => `${name} (${value})`,
  sentence(op, kind, left, right, tolerance) {
    const within =
      tolerance === undefined
        ? ''
        : `, within ${formatEnglish(tolerance)}${kind === 'date' ? ' days' : ''}`;
    const sentence = `${left} ${phrases[op][kind]} ${right}${within}.`;
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  },
};

function describeFailure(
  check: Check,
  left: Evaluated,
  right: Evaluated,
  kind: Kind,
  wording: FailureWording,
): string {
  const shown = (side: Evaluated) =>
    side.pointers.length === 0 ? side.name : wording.operand(side.name, wording.value(side.value!));
  const tolerance =
    check.tolerance && (check.op === '=' || check.op === '!=') ? check.tolerance : undefined;
  return wording.sentence(
    check.op,
    kind === 'date' ? 'date' : 'value',
    shown(left),
    shown(right),
    tolerance,
  );
}

/**
 * The checks that fail on `data` (a run's results), in the order of the checks, one
 * failure per item for a check that goes item by item. `schema` names the fields in the
 * messages (without it, their property names do), and `wording` words those of checks
 * without a `message` of their own.
 */
export function evaluateChecks(
  checks: readonly Check[],
  data: unknown,
  schema: TargetSchema | undefined,
  wording: FailureWording,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const [index, check] of checks.entries()) {
    const list = rowListOf(check);
    const rows: ((operand: CheckOperand) => CheckOperand)[] = [];
    if (list === undefined) rows.push((operand) => operand);
    else {
      const items = valuesAt(data, list)[0]?.value;
      const count = Array.isArray(items) ? items.length : 0;
      for (let row = 0; row < count; row++) rows.push((operand) => inRow(operand, list, row));
    }
    for (const operandsOf of rows) {
      const left = evaluateTerm(operandsOf(check.left), data, schema, wording);
      const right = evaluateTerm(operandsOf(check.right), data, schema, wording);
      if (left.value === undefined || right.value === undefined) continue;
      const compared = compare(left.value, right.value, check.tolerance ?? 0);
      if (!compared) continue;
      if (holds(check.op, compared.order) !== false) continue;
      failures.push({
        check: index,
        message:
          check.message?.trim() || describeFailure(check, left, right, compared.kind, wording),
        pointers: [...new Set([...left.pointers, ...right.pointers])],
      });
    }
  }
  return failures;
}

/** The operand for one item of the check's list: `/line_items/*\/amount` → `/line_items/2/amount`. */
function inRow(operand: CheckOperand, list: string, row: number): CheckOperand {
  const place = (path: string) =>
    path.startsWith(`${list}/*`) ? `${list}/${row}${path.slice(list.length + 2)}` : path;
  if (typeof operand === 'string') return place(operand);
  if (typeof operand === 'number' || 'value' in operand || 'sum' in operand) return operand;
  const inner = (part: Term): Term => (typeof part === 'string' ? place(part) : part);
  if ('add' in operand) return { add: operand.add.map(inner) };
  if ('subtract' in operand)
    return { subtract: [inner(operand.subtract[0]), inner(operand.subtract[1])] };
  return { multiply: operand.multiply.map(inner) };
}
