/**
 * Where a bracket closes in a module's code, for the build plugins that cut a call out of a
 * bundle or a source (without-descriptions.ts, without-preload-helper.ts): past strings,
 * template literals and their expressions, comments and inner brackets. Enough for the code
 * those plugins read (ours and Vite's output); not a JavaScript parser.
 */

/** Where the template literal whose text starts at `from` ends (its closing backtick). */
function templateEnd(code: string, from: number): number {
  let at = from;
  while (at < code.length) {
    const char = code[at];
    if (char === '\\') at += 2;
    else if (char === '`') return at;
    else if (char === '$' && code[at + 1] === '{') at = closingAt(code, at + 2) + 1;
    else at += 1;
  }
  throw new Error('A template literal does not end.');
}

/** Where `what` next is from `from`, or the end of the code. */
const endOf = (code: string, what: string, from: number) => {
  const at = code.indexOf(what, from);
  return at < 0 ? code.length : at;
};

/**
 * Where the code from `from`, inside brackets, meets the one that closes them (or, with
 * `orComma`, a comma between them), past strings, templates, comments and inner brackets.
 */
export function closingAt(code: string, from: number, orComma = false): number {
  let depth = 0;
  let at = from;
  while (at < code.length) {
    const char = code[at]!;
    if (char === "'" || char === '"') {
      at += 1;
      while (at < code.length && code[at] !== char) at += code[at] === '\\' ? 2 : 1;
      at += 1;
    } else if (char === '`') at = templateEnd(code, at + 1) + 1;
    else if (code.startsWith('//', at)) at = endOf(code, '\n', at);
    else if (code.startsWith('/*', at)) at = endOf(code, '*/', at + 2) + 2;
    else if ('([{'.includes(char)) {
      depth += 1;
      at += 1;
    } else if (')]}'.includes(char) || (orComma && char === ',')) {
      if (depth === 0) return at;
      if (char !== ',') depth -= 1;
      at += 1;
    } else at += 1;
  }
  throw new Error('A template expression or a call does not end.');
}
