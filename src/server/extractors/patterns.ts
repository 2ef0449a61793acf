/**
 * The `pattern`s of target schemas, as the service runs them: on RE2 (the re2js port), which
 * matches in time linear in the text, never on the backtracking RegExp of the service's own
 * thread. With RegExp, a common e-mail pattern over a 34-character value held every other
 * request for 4 s, twice as long with each more character.
 *
 * A pattern is the ECMA-262 (`u` mode) regular expression JSON Schema asks for, and must also
 * be one RE2 runs; what only backtracking can do (backreferences, lookahead) is refused when
 * the extractor is saved. This module is the server's: the interface never loads it.
 */
import { RE2JS } from 're2js';
import {
  encodePointerToken,
  isPlainObject,
  type TargetSchema,
} from '../../contract/json-schema.js';
import type { PatternTest } from '../../contract/schema-validation.js';

/**
 * The largest compiled pattern, in RE2 instructions. Linear time is time per character
 * times the program's size when RE2 falls back from its DFA; real patterns (an IBAN, an
 * e-mail address, a postcode) are 10 to 100.
 */
export const maxPatternProgramSize = 1000;

// In `u` mode a backslash before 1-9 or k is a backreference (`\1`, `\k<name>`), and only
// that. re2js's translation would turn `\8`, `\9` and `\k<name>` into plain text, so they
// are found here first.
const backreference = /^\\(?:[1-9]|k<)/u;

// ECMA-262's white space and line terminators, which its `\s` matches; RE2's `\s` is ASCII
// only, and extracted text is full of no-break spaces.
const whiteSpace =
  '\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';

/**
 * A pattern in RE2's syntax, meaning what it means to RegExp: `\s`, `\S` and `.` as ECMA-262
 * defines them (RE2's `.` only stops at `\n`), then re2js's translation of the rest (named
 * groups, `\u` escapes). A `\S` inside a class stays RE2's, which a class cannot subtract.
 */
function re2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      index++;
      if (next === 's') out += inClass ? whiteSpace : `[${whiteSpace}]`;
      else if (next === 'S' && !inClass) out += `[^${whiteSpace}]`;
      else out += char + next;
    } else if (char === '.' && !inClass) out += '[^\\n\\r\\x{2028}\\x{2029}]';
    else {
      if (char === '[') inClass = true;
      else if (char === ']') inClass = false;
      out += char;
    }
  }
  return RE2JS.translateRegExp(out);
}

function compile(pattern: string): RE2JS {
  // Lookbehinds are linear in re2js when asked for; lookahead is not offered at all.
  return RE2JS.compile(re2Syntax(pattern), RE2JS.LOOKBEHINDS);
}

/** Why the service cannot run a pattern (valid for RegExp) in linear time; undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  if (hasBackreference(pattern))
    return 'uses a backreference (\\1, \\k<name>), which only a backtracking engine can match';
  let compiled: RE2JS;
  try {
    compiled = compile(pattern);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return `is not one RE2, the linear-time engine the service runs patterns on, accepts: ${reason}`;
  }
  if (compiled.programSize() > maxPatternProgramSize)
    return `compiles to ${compiled.programSize()} RE2 instructions; the limit is ${maxPatternProgramSize}`;
  return undefined;
}

/** Whether a backslash that escapes nothing else stands before 1-9 or `k<`. */
function hasBackreference(pattern: string): boolean {
  for (let index = 0; index < pattern.length; index++) {
    if (pattern[index] !== '\\') continue;
    if (backreference.test(pattern.slice(index, index + 3))) return true;
    index++; // the escaped character, which may be a backslash itself
  }
  return false;
}

/** Every `pattern` of a schema, with the JSON pointer of the schema that holds it. */
export function patternsOf(schema: TargetSchema): { pointer: string; pattern: string }[] {
  const found: { pointer: string; pattern: string }[] = [];
  const pending: { schema: unknown; pointer: string }[] = [{ schema, pointer: '' }];
  while (pending.length > 0) {
    const { schema: current, pointer } = pending.pop()!;
    if (!isPlainObject(current)) continue;
    if (typeof current.pattern === 'string') found.push({ pointer, pattern: current.pattern });
    const children = (group: string) =>
      isPlainObject(current[group])
        ? Object.entries(current[group]).map(([name, child]) => ({
            schema: child,
            pointer: `${pointer}/${group}/${encodePointerToken(name)}`,
          }))
        : [];
    pending.push(
      ...children('properties'),
      ...children('$defs'),
      ...children('definitions'),
      { schema: current.items, pointer: `${pointer}/items` },
      { schema: current.additionalProperties, pointer: `${pointer}/additionalProperties` },
    );
  }
  return found.reverse();
}

/**
 * The longest text matched against a pattern, in UTF-16 code units; a longer one does not
 * match. Patterns describe codes, numbers and addresses, and even a linear engine spends
 * time in proportion to what it reads: in the worst case (a pattern that defeats RE2's DFA)
 * some microseconds a character.
 */
export const maxPatternTextLength = 1000;

/**
 * Compiled patterns by their text. A schema has a few; the bound keeps a service that has
 * seen many extractors from holding them all.
 */
const compiled = new Map<string, RE2JS>();
const maxCompiled = 500;

/** The service's PatternTest: RE2, linear in the text. Throws for a pattern RE2 cannot run. */
export const testPatternLinearly: PatternTest = (pattern, text) => {
  if (text.length > maxPatternTextLength) return false;
  let program = compiled.get(pattern);
  if (!program) {
    if (hasBackreference(pattern)) throw new Error('A backreference cannot be matched by RE2.');
    program = compile(pattern);
    if (program.programSize() > maxPatternProgramSize)
      throw new Error(`The pattern compiles to more than ${maxPatternProgramSize} instructions.`);
    if (compiled.size >= maxCompiled) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, program);
  }
  return program.test(text);
};
