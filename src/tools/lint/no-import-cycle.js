// @ts-check
/**
 * An ESLint rule: no import cycle, type-only imports included. import-x/no-cycle leaves out
 * type-only imports (they vanish at run time) and has no option to count them, but a cycle
 * of types still ties two floors of the architecture together, so that neither can be read,
 * moved or tested without the other (issue 23).
 *
 * Every relative import counts: `import`, `import type`, `export … from`, `import()` and
 * `import('./x.js').T` in a type. For each import of the file being linted, the rule follows
 * the imports onwards (read with TypeScript's preProcessFile, cached for the run) and
 * reports the import when they lead back to the file, naming the way round.
 *
 * Plain JavaScript, because eslint.config.js loads it as it is.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** @type {Map<string, string[]>} The relative imports of each file read, resolved. */
const importsOf = new Map();

/**
 * The file a relative specifier names: `./x.js` is `./x.ts` when that exists (TypeScript's
 * own rule), then the name itself, then with `.ts` or `/index.ts` added.
 * @param {string} from the importing file
 * @param {string} specifier
 * @returns {string | undefined}
 */
function resolveImport(from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/**
 * @param {string} file
 * @returns {string[]}
 */
function importsFrom(file) {
  let found = importsOf.get(file);
  if (!found) {
    const text = /\.[cm]?[jt]s$/.test(file) ? readFileSync(file, 'utf8') : '';
    found = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((imported) => resolveImport(file, imported.fileName))
      .filter((target) => target !== undefined);
    importsOf.set(file, found);
  }
  return found;
}

/**
 * The way from `start` back to `target` through the imports, if there is one.
 * @param {string} start
 * @param {string} target
 * @returns {string[] | undefined}
 */
function wayBack(start, target) {
  /** @type {Map<string, string | null>} each file reached, with the one it was reached from */
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    for (const next of importsFrom(file)) {
      if (next === target) {
        const way = [file];
        for (let at = cameFrom.get(file); at; at = cameFrom.get(at)) way.unshift(at);
        return way;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import cycle: {{way}}.' },
  },
  create(context) {
    const file = context.physicalFilename;
    // Each file is read afresh when linted: an editor's change counts at once.
    importsOf.delete(file);
    /** @param {import('estree').Node & { source?: unknown }} node */
    const check = (node) => {
      const source = /** @type {{ value?: unknown } | null | undefined} */ (node.source);
      if (!source || typeof source.value !== 'string') return;
      const target = resolveImport(file, source.value);
      if (!target) return;
      const way = target === file ? [] : wayBack(target, file);
      if (!way) return;
      const names = [file, ...way, file].map((step) => relative(context.cwd, step));
      context.report({ node, messageId: 'cycle', data: { way: names.join(' → ') } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      /** @param {any} node a TSImportType: `import('./x.js').T` */
      TSImportType(node) {
        const literal = node.argument?.literal ?? node.source;
        if (literal) check({ ...node, source: literal });
      },
    };
  },
};
