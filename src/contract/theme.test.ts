import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { themeSchema, themeTokens } from './theme.js';

const elementsDir = fileURLToPath(new URL('../elements', import.meta.url));

function styleSources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return styleSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
      ? [readFileSync(path, 'utf8')]
      : [];
  });
}

describe('themeSchema', () => {
  it('accepts the known tokens with plain CSS values', () => {
    const theme = {
      'color-accent': '#0a7d5a',
      'color-on-accent': 'rgb(255 255 255)',
      radius: '0',
      'font-family': "Georgia, 'Times New Roman', serif",
      spacing: 'calc(1rem + 2px)',
      'color-surface': 'light-dark(white, #111)',
    };
    expect(themeSchema.safeParse(theme)).toEqual({ success: true, data: theme });
    expect(themeSchema.safeParse({}).success).toBe(true);
  });

  it('refuses names the elements do not read, prefixed names and private ones', () => {
    for (const name of [
      'color-link',
      '--extractor-color-accent',
      '_extractor-accent',
      'COLOR-ACCENT',
    ])
      expect(themeSchema.safeParse({ [name]: 'red' }).success, name).toBe(false);
  });

  it('refuses values that could end the declaration, open a rule or load something', () => {
    for (const value of [
      'red; background: blue',
      'red}body{color:red',
      '<script>',
      'url(https://evil.example/x.png)',
      'URL (x)',
      'image-set("x.png" 1x)',
      '-webkit-image-set("x.png" 1x)',
      'src("x")',
      'expression(alert(1))',
      '@import "x"',
      'u\\72l(x)',
      'x'.repeat(201),
    ])
      expect(themeSchema.safeParse({ 'color-accent': value }).success, value).toBe(false);
  });

  it('knows exactly the public tokens the elements’ styles read', () => {
    const used = new Set<string>();
    for (const source of styleSources(elementsDir))
      for (const match of source.matchAll(/(?<![\w-])--extractor-([a-z0-9-]+)/g))
        used.add(match[1]!);
    expect([...used].sort()).toEqual([...themeTokens].sort());
  });
});
