import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../project-root.js';
import { withoutDescriptions } from './without-descriptions.js';

describe('withoutDescriptions', () => {
  it('drops each z.describe and z.meta, with its .check when it was the only one, and nothing else', () => {
    const source = [
      'const a = z.string().check(z.describe("What (a) is."));',
      "const b = z.number().check(z.minimum(0), z.describe('At least ' + `${min}`));",
      "const c = z.int().check(\n  z.describe(text('c') + ', never (d)'),\n  z.maximum(9),\n);",
      'const d = z.object({ e: z.boolean().check(z.describe(eDescription)), f: z.string() });',
      "const g = 'z.describe is a name in a string';",
      "const h = z.string().check(z.meta({ format: 'date-time' }));",
      "const i = h.check(z.describe('When.'));",
    ].join('\n');
    expect(withoutDescriptions(source)).toBe(
      [
        'const a = z.string();',
        'const b = z.number().check(z.minimum(0));',
        'const c = z.int().check(\n  z.maximum(9),\n);',
        'const d = z.object({ e: z.boolean(), f: z.string() });',
        "const g = 'z.describe is a name in a string';",
        'const h = z.string();',
        'const i = h;',
      ].join('\n'),
    );
  });

  it('leaves no description in the contract the browser bundles', () => {
    for (const file of ['resources.ts', 'check-schemas.ts', 'review.ts', 'session-language.ts']) {
      const code = readFileSync(join(projectRoot, 'src/contract', file), 'utf8');
      expect(code, file).toContain('z.describe(');
      expect(withoutDescriptions(code), file).not.toContain('z.describe(');
    }
  });
});
