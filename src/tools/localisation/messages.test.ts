import { describe, expect, it } from 'vitest';
import type { TemplateMap } from '@lit/localize';
import { supportedLocales } from '../../locales/supported-locales.js';
import { projectRoot } from '../project-root.js';
import {
  catalogueText,
  placeholdersOf,
  scanInterfaceSource,
  type SourceMessage,
} from './messages.js';

const scan = scanInterfaceSource(projectRoot);

async function catalogueOf(locale: string): Promise<TemplateMap> {
  return ((await import(`../../locales/${locale}.ts`)) as { templates: TemplateMap }).templates;
}

/** The ids a locale must have: each message, and each plural message per category it uses. */
function expectedIds(locale: string): string[] {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const ids = new Set<string>();
  for (const message of scan.messages.values()) {
    if (!message.plural) ids.add(message.id);
    else {
      const base = message.id.slice(0, message.id.lastIndexOf('.'));
      for (const category of categories) ids.add(`${base}.${category}`);
    }
  }
  return [...ids].sort();
}

/** The English message a locale's id translates (a plural category maps to `.other`). */
function sourceOf(id: string): SourceMessage | undefined {
  const exact = scan.messages.get(id);
  if (exact) return exact;
  return scan.messages.get(`${id.slice(0, id.lastIndexOf('.'))}.other`);
}

describe('the interface source', () => {
  it('shows no text to people outside the catalogue', () => {
    expect(scan.loose.map(({ file, line, text }) => `${file}:${line} ${text}`)).toEqual([]);
    expect(scan.unreadable).toEqual([]);
    // The scan finds the messages it should: a known one from each of several files.
    for (const id of ['app.step-count', 'bucket.choose', 'run.status.paused', 'table.rows.other'])
      expect(scan.messages.has(id), id).toBe(true);
  });

  it('finds a literal that is left outside msg()', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'extractor-messages-'));
    try {
      mkdirSync(join(root, 'src/elements'), { recursive: true });
      writeFileSync(
        join(root, 'src/elements/sample.ts'),
        [
          "import { msg } from '@lit/localize';",
          "const a = html`<p>${msg('Said right', { id: 'sample.right' })}</p>`;",
          'const b = html`<button aria-label="Close the panel">Close now</button>`;',
          "const c = 'Please try again later.';",
          "const d = msg('No id here');",
        ].join('\n'),
      );
      const sample = scanInterfaceSource(root);
      expect([...sample.messages.keys()]).toEqual(['sample.right']);
      expect(sample.loose.map((loose) => loose.text)).toEqual([
        'Close the panel',
        'Close now',
        'Please try again later.',
      ]);
      expect(sample.unreadable).toHaveLength(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.each(supportedLocales.filter((locale) => locale !== 'en'))(
  'the %s catalogue',
  (locale) => {
    it('has every message, no other, each with its values', async () => {
      const catalogue = await catalogueOf(locale);
      const ids = Object.keys(catalogue).sort();
      const expected = expectedIds(locale);
      expect(
        expected.filter((id) => !ids.includes(id)),
        'missing',
      ).toEqual([]);
      expect(
        ids.filter((id) => !expected.includes(id)),
        'extra',
      ).toEqual([]);
      for (const id of ids) {
        const text = catalogueText(catalogue[id]!);
        const source = sourceOf(id)!;
        expect(text.trim(), id).not.toBe('');
        // Every value of the English message is used, and no value it does not have.
        expect(
          [...new Set(placeholdersOf(text))],
          `${id}: “${text}” takes the values of “${source.text}”`,
        ).toEqual(Array.from({ length: source.values }, (_, index) => index));
      }
    });
  },
);
