/**
 * The house's lint rules (eslint.config.js, issue 23) fail where they should: an import
 * cycle, a type-only one included, a file over 800 lines, a function over 150. Each case is
 * a few files of its own in a temporary folder inside the project (so that the project's
 * configuration applies), linted with ESLint's Node API as `npx eslint` lints them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../project-root.js';

const folder = mkdtempSync(join(projectRoot, 'src/tools/lint/.lint-case-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const eslint = new ESLint({ cwd: projectRoot });

/** The rules that fail on the files, written first, by file (relative to the folder). */
async function failures(files: Record<string, string>): Promise<Record<string, string[]>> {
  const paths = Object.entries(files).map(([name, text]) => {
    writeFileSync(join(folder, name), text);
    return join(folder, name);
  });
  const results = await eslint.lintFiles(paths);
  return Object.fromEntries(
    results.map((result) => [
      relative(folder, result.filePath),
      result.messages.map((message) => message.ruleId ?? message.message),
    ]),
  );
}

const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n');

describe('the lint', () => {
  it('fails on an import cycle of two files', async () => {
    expect(
      await failures({
        'a.ts': "import { b } from './b.js';\nexport const a = (): number => b + 1;\n",
        'b.ts': "import { a } from './a.js';\nexport const b = 1;\nexport const c = a;\n",
      }),
    ).toEqual({ 'a.ts': ['extractor/no-import-cycle'], 'b.ts': ['extractor/no-import-cycle'] });
  });

  it('fails on a cycle of type-only imports, and on a longer way round', async () => {
    expect(
      await failures({
        'c.ts': "import type { D } from './d.js';\nexport type C = { d?: D };\n",
        'd.ts': "import type { C } from './c.js';\nexport type D = { c?: C };\n",
        'e.ts': "export { f } from './f.js';\nexport const e = 1;\n",
        'f.ts': "import type { G } from './g.js';\nexport const f = (g: G): G => g;\n",
        'g.ts': "import { e } from './e.js';\nexport type G = number;\nexport const g: G = e;\n",
      }),
    ).toEqual({
      'c.ts': ['extractor/no-import-cycle'],
      'd.ts': ['extractor/no-import-cycle'],
      'e.ts': ['extractor/no-import-cycle'],
      'f.ts': ['extractor/no-import-cycle'],
      'g.ts': ['extractor/no-import-cycle'],
    });
  });

  it('passes imports that go one way', async () => {
    expect(
      await failures({
        'h.ts': "import type { I } from './i.js';\nexport const h = (i: I): I => i;\n",
        'i.ts': 'export type I = number;\n',
      }),
    ).toEqual({ 'h.ts': [], 'i.ts': [] });
  });

  it('fails on a file over 800 lines, not on one of 800', async () => {
    const constants = (count: number) =>
      lines(count, (index) => `export const value${index} = ${index};`) + '\n';
    expect(await failures({ 'long.ts': constants(801), 'full.ts': constants(800) })).toEqual({
      'long.ts': ['max-lines'],
      'full.ts': [],
    });
  });

  it('fails on a function over 150 lines, a describe() callback too, not on one of 150', async () => {
    // `count` lines in all: the signature, a declaration, the sums, the return, the brace.
    const fn = (name: string, count: number) =>
      `export function ${name}(): number {\n  let total = 0;\n${lines(count - 4, (index) => `  total += ${index};`)}\n  return total;\n}\n`;
    const describeOf = (count: number) =>
      `import { describe, it } from 'vitest';\ndescribe('x', () => {\n${lines(count - 2, () => "  it('y', () => {});")}\n});\n`;
    expect(
      await failures({
        'long-function.ts': fn('long', 151),
        'full-function.ts': fn('full', 150),
        'long-describe.test.ts': describeOf(151),
      }),
    ).toEqual({
      'long-function.ts': ['max-lines-per-function'],
      'full-function.ts': [],
      'long-describe.test.ts': ['max-lines-per-function'],
    });
  });
});
