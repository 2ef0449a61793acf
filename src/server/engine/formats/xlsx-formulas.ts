/**
 * Results for the formulas of a workbook that carries none. Excel stores each formula's
 * last result beside it, and that is what a reader shows; a workbook written by a program
 * (a report generator, exceljs itself, a converter) often stores only the formula, and
 * its totals would read as empty. The simple formulas are worked out here: numbers,
 * text, cells and ranges of the same sheet, + - * / ^ & %, comparisons, and SUM,
 * AVERAGE, MIN, MAX, COUNT, ABS, ROUND and IF. Anything else (another sheet, a lookup, a
 * date function) leaves the cell empty, as it would read without us; a formula never
 * makes a workbook fail.
 *
 * Bounded: a formula longer than `maxFormulaLength` is not parsed, a range of more than
 * `maxRangeCells` cells is not summed, and a workbook's evaluations stop after
 * `maxEvaluations` cells (a chain of formulas each summing the one before costs each once:
 * results are remembered). A cycle gives no result.
 */
import type ExcelJS from 'exceljs';

const maxFormulaLength = 2000;
const maxRangeCells = 100_000;
const maxEvaluations = 200_000;
/** Formulas waiting on formulas, and parentheses in parentheses, deeper than this give no result. */
const maxDepth = 200;

type Value = number | string | boolean | undefined;
/** Why a formula has no result here; the cell reads as empty. */
class Unsupported extends Error {}

/** Sets a result on every formula cell of the visible sheets that has none. */
export function fillMissingFormulaResults(workbook: ExcelJS.Workbook): void {
  const budget = { left: maxEvaluations };
  for (const sheet of workbook.worksheets) {
    if (sheet.state !== 'visible') continue;
    const evaluator = new SheetEvaluator(sheet, budget);
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.type !== 6 /* ValueType.Formula */ || hasResult(cell.value)) return;
        let result: Value;
        try {
          result = evaluator.cellValue(cell.address);
        } catch (error) {
          if (error instanceof Unsupported) return;
          throw error;
        }
        if (result === undefined) return;
        cell.value = { formula: cell.formula, result } as ExcelJS.CellFormulaValue;
      }),
    );
  }
}

function hasResult(value: ExcelJS.CellValue): boolean {
  const result = (value as { result?: unknown } | null)?.result;
  return result !== undefined && result !== null;
}

class SheetEvaluator {
  readonly #memo = new Map<string, Value | typeof pending | typeof failed>();
  #depth = 0;

  constructor(
    readonly sheet: ExcelJS.Worksheet,
    readonly budget: { left: number },
  ) {}

  /** The value of a cell as a formula sees it: a formula's result, worked out if need be. */
  /**
   * The value of a cell as a formula sees it: a formula's result, worked out if need be.
   * Throws `Unsupported` when a formula it rests on has no result here (another sheet, a
   * cycle): such a cell is not an empty one, which would count as 0.
   */
  cellValue(address: string): Value {
    const known = this.#memo.get(address);
    if (known === pending || known === failed) throw new Unsupported('no result');
    if (this.#memo.has(address)) return known;
    const { row, column } = cellParts(address);
    const cell = this.sheet.findCell(row, column);
    if (!cell) return undefined;
    const value = cell.value;
    if (cell.type !== 6) return plainValue(value);
    if (hasResult(value)) return plainValue((value as { result: ExcelJS.CellValue }).result);
    if (this.budget.left-- <= 0 || this.#depth >= maxDepth) throw new Unsupported('too deep');
    this.#memo.set(address, pending);
    this.#depth++;
    try {
      const formula = cell.formula;
      if (!formula || formula.length > maxFormulaLength) throw new Unsupported('too long');
      let result = this.evaluate(new FormulaParser(formula).parse());
      if (typeof result === 'number') {
        if (!Number.isFinite(result)) throw new Unsupported('#NUM!');
        result = tidy(result);
      }
      this.#memo.set(address, result);
      return result;
    } catch (error) {
      this.#memo.set(address, failed);
      throw error;
    } finally {
      this.#depth--;
    }
  }

  evaluate(node: Node): Value {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'cell':
        return this.cellValue(node.address);
      case 'range':
        throw new Unsupported('a range outside a function');
      case 'unary': {
        const value = number(this.evaluate(node.operand));
        return node.operator === '-' ? -value : node.operator === '%' ? value / 100 : value;
      }
      case 'binary':
        return binary(node.operator, this.evaluate(node.left), this.evaluate(node.right));
      case 'call':
        return this.call(node.name, node.args);
    }
  }

  call(name: string, args: Node[]): Value {
    if (name === 'IF') {
      if (args.length < 2 || args.length > 3) throw new Unsupported('IF');
      const condition = this.evaluate(args[0]!);
      const truthy = typeof condition === 'string' ? condition !== '' : Boolean(condition);
      return truthy ? this.evaluate(args[1]!) : args[2] ? this.evaluate(args[2]) : false;
    }
    if (name === 'ROUND') {
      if (args.length !== 2) throw new Unsupported('ROUND');
      const digits = Math.trunc(number(this.evaluate(args[1]!)));
      const factor = 10 ** digits;
      const value = number(this.evaluate(args[0]!));
      // Away from zero on a half, as Excel rounds, with the float's noise taken off first.
      return (
        (Math.sign(value) * Math.round(Number((Math.abs(value) * factor).toPrecision(15)))) / factor
      );
    }
    if (name === 'ABS') {
      if (args.length !== 1) throw new Unsupported('ABS');
      return Math.abs(number(this.evaluate(args[0]!)));
    }
    const numbers = args.flatMap((arg) => this.numbersOf(arg));
    switch (name) {
      case 'SUM':
        return numbers.reduce((sum, value) => sum + value, 0);
      case 'AVERAGE':
        if (numbers.length === 0) throw new Unsupported('AVERAGE of nothing');
        return numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
      case 'MIN':
        return numbers.length === 0 ? 0 : Math.min(...numbers);
      case 'MAX':
        return numbers.length === 0 ? 0 : Math.max(...numbers);
      case 'COUNT':
        return numbers.length;
      default:
        throw new Unsupported(name);
    }
  }

  /** The numbers an argument gives a function: a range's numeric cells, or a value as a number. */
  numbersOf(node: Node): number[] {
    if (node.kind !== 'range') return [number(this.evaluate(node))];
    const [left, top, right, bottom] = node.bounds;
    if ((right - left + 1) * (bottom - top + 1) > maxRangeCells) throw new Unsupported('range');
    const found: number[] = [];
    for (let row = top; row <= bottom; row++)
      for (let column = left; column <= right; column++) {
        // In a range, as in Excel, text and empty cells are skipped, not counted as 0.
        const value = this.cellValue(`${columnName(column)}${row}`);
        if (typeof value === 'number') found.push(value);
      }
    return found;
  }
}

const pending = Symbol('pending');
const failed = Symbol('failed');

/** The float's noise taken off, as Excel shows 15 significant digits (0.1+0.2 is 0.3). */
function tidy(value: number): number {
  return Number(value.toPrecision(15));
}

function plainValue(value: ExcelJS.CellValue): Value {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return value;
  if (typeof value === 'object' && 'richText' in value)
    return value.richText.map((part) => part.text).join('');
  throw new Unsupported('a value of another kind');
}

function number(value: Value): number {
  if (value === undefined) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  const parsed = Number(value.trim());
  if (value.trim() === '' || Number.isNaN(parsed)) throw new Unsupported('#VALUE!');
  return parsed;
}

function binary(operator: string, left: Value, right: Value): Value {
  switch (operator) {
    case '+':
      return number(left) + number(right);
    case '-':
      return number(left) - number(right);
    case '*':
      return number(left) * number(right);
    case '/':
      if (number(right) === 0) throw new Unsupported('#DIV/0!');
      return number(left) / number(right);
    case '^':
      return number(left) ** number(right);
    case '&':
      return `${text(left)}${text(right)}`;
  }
  const order = compare(left, right);
  switch (operator) {
    case '=':
      return order === 0;
    case '<>':
      return order !== 0;
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '>=':
      return order >= 0;
  }
  throw new Unsupported(operator);
}

function text(value: Value): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

function compare(left: Value, right: Value): number {
  if (typeof left === 'string' || typeof right === 'string') {
    const [a, b] = [text(left).toLowerCase(), text(right).toLowerCase()];
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return Math.sign(number(left) - number(right));
}

function columnName(column: number): string {
  let name = '';
  for (let left = column; left > 0; left = Math.floor((left - 1) / 26))
    name = String.fromCharCode(65 + ((left - 1) % 26)) + name;
  return name;
}

function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce(
    (sum, letter) => sum * 26 + letter.charCodeAt(0) - 64,
    0,
  );
}

// ---------------------------------------------------------------------------------------
// Parsing

type Node =
  | { kind: 'literal'; value: Value }
  | { kind: 'cell'; address: string }
  | { kind: 'range'; bounds: [left: number, top: number, right: number, bottom: number] }
  | { kind: 'unary'; operator: string; operand: Node }
  | { kind: 'binary'; operator: string; left: Node; right: Node }
  | { kind: 'call'; name: string; args: Node[] };

const token =
  /\s*(?:(?<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|"(?<string>(?:[^"]|"")*)"|(?<range>\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+)|(?<cell>\$?[A-Z]{1,3}\$?\d+)(?![\w(!])|(?<name>[A-Za-z_][\w.]*)(?=\s*\()|(?<boolean>TRUE|FALSE)\b|(?<operator><>|<=|>=|[-+*/^&=<>%(),;]))/y;

/** Levels of binary operators, loosest first, as Excel binds them. */
const levels = [['=', '<>', '<', '>', '<=', '>='], ['&'], ['+', '-'], ['*', '/'], ['^']];

class FormulaParser {
  readonly #tokens: { type: string; text: string }[] = [];
  #at = 0;

  constructor(formula: string) {
    const source = formula.replace(/^=/, '');
    let depth = 0;
    for (const char of source) {
      depth += char === '(' ? 1 : char === ')' ? -1 : 0;
      if (depth > maxDepth) throw new Unsupported('too deep');
    }
    token.lastIndex = 0;
    while (token.lastIndex < source.length) {
      const start = token.lastIndex;
      const match = token.exec(source);
      if (!match?.groups || token.lastIndex === start) {
        if (source.slice(start).trim() === '') break;
        throw new Unsupported(`cannot read ${source.slice(start, start + 10)}`);
      }
      const [type, text] = Object.entries(match.groups).find(([, value]) => value !== undefined)!;
      this.#tokens.push({ type, text });
    }
  }

  parse(): Node {
    const node = this.binary(0);
    if (this.#at !== this.#tokens.length) throw new Unsupported('trailing tokens');
    return node;
  }

  binary(level: number): Node {
    if (level === levels.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const next = this.#tokens[this.#at];
      if (next?.type !== 'operator' || !levels[level]!.includes(next.text)) return left;
      this.#at++;
      left = { kind: 'binary', operator: next.text, left, right: this.binary(level + 1) };
    }
  }

  unary(): Node {
    const next = this.#tokens[this.#at];
    if (next?.type === 'operator' && (next.text === '-' || next.text === '+')) {
      this.#at++;
      return { kind: 'unary', operator: next.text, operand: this.unary() };
    }
    let node = this.primary();
    while (this.#tokens[this.#at]?.text === '%') {
      this.#at++;
      node = { kind: 'unary', operator: '%', operand: node };
    }
    return node;
  }

  primary(): Node {
    const next = this.#tokens[this.#at++];
    if (!next) throw new Unsupported('end of formula');
    switch (next.type) {
      case 'number':
        return { kind: 'literal', value: Number(next.text) };
      case 'string':
        return { kind: 'literal', value: next.text.replace(/""/g, '"') };
      case 'boolean':
        return { kind: 'literal', value: next.text === 'TRUE' };
      case 'cell':
        return { kind: 'cell', address: next.text.replace(/\$/g, '') };
      case 'range': {
        const [from, to] = next.text.replace(/\$/g, '').split(':') as [string, string];
        const [a, b] = [cellParts(from), cellParts(to)];
        return {
          kind: 'range',
          bounds: [
            Math.min(a.column, b.column),
            Math.min(a.row, b.row),
            Math.max(a.column, b.column),
            Math.max(a.row, b.row),
          ],
        };
      }
      case 'name':
        return this.call(next.text.toUpperCase());
    }
    if (next.text === '(') {
      const inner = this.binary(0);
      if (this.#tokens[this.#at++]?.text !== ')') throw new Unsupported('unclosed parenthesis');
      return inner;
    }
    throw new Unsupported(`unexpected ${next.text}`);
  }

  call(name: string): Node {
    this.#at++; // the opening parenthesis, which the name's pattern looked ahead for
    const args: Node[] = [];
    if (this.#tokens[this.#at]?.text === ')') {
      this.#at++;
      return { kind: 'call', name, args };
    }
    for (;;) {
      args.push(this.binary(0));
      const separator = this.#tokens[this.#at++]?.text;
      if (separator === ')') return { kind: 'call', name, args };
      if (separator !== ',' && separator !== ';') throw new Unsupported('arguments');
    }
  }
}

function cellParts(address: string): { column: number; row: number } {
  const [, letters, digits] = /^([A-Z]+)(\d+)$/.exec(address)!;
  return { column: columnNumber(letters!), row: Number(digits) };
}
