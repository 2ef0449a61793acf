/**
 * The engine's floors, from the ground up: the limits and the shared types; the readers
 * (`formats/`) and OCR (`ocr/`); reading and counting (`documents.ts`, `pages.ts`); and the
 * processes that run them (`isolation/`). A floor imports only from the floors below it, so
 * no import goes round in a circle, type-only imports included (they are how a change to one
 * file ripples into another, even when they vanish at run time).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const engine = import.meta.dirname;

/** The engine's source files (tests aside), by their path from the engine folder. */
function sources(): string[] {
  return readdirSync(engine, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
    .map((path) => path.split('\\').join('/'))
    .sort();
}

/** What each engine file imports from the engine, static, dynamic and type-only alike. */
function importsWithinEngine(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of sources()) {
    const source = readFileSync(join(engine, path), 'utf8');
    const { importedFiles } = ts.preProcessFile(source, true, true);
    const imported = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(engine, resolve(dirname(join(engine, path)), name)))
      .map((name) => name.split('\\').join('/').replace(/\.js$/, '.ts'))
      .filter((name) => !name.startsWith('..'));
    graph.set(path, imported);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'visiting');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'visiting') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("the engine's floors", () => {
  const graph = importsWithinEngine();

  it('finds the files it judges', () => {
    expect(graph.get('formats/pdf.ts')).toContain('limits.ts');
    expect(graph.get('isolation/document-worker.ts')).toContain('documents.ts');
  });

  it('have no import cycle, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keep the readers below reading, counting and the processes that run them', () => {
    const above = /^(isolation\/|documents\.ts$|pages\.ts$|index\.ts$)/;
    const climbing = [...graph]
      .filter(([file]) => file.startsWith('formats/') || file.startsWith('ocr/'))
      .flatMap(([file, imported]) =>
        imported.filter((name) => above.test(name)).map((name) => `${file} -> ${name}`),
      );
    expect(climbing).toEqual([]);
  });

  it('keep the limits on the ground floor', () => {
    expect(graph.get('limits.ts')?.filter((name) => name !== 'types.ts')).toEqual([]);
  });
});
