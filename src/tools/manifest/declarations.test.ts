import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../project-root.js';
import { createDeclarations } from './declarations.js';

let directory: string;
let declarations: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'extractor-dts-'));
  declarations = createDeclarations(projectRoot);
  writeFileSync(join(directory, 'extractor.d.ts'), declarations);
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Type-checks a partner's file next to the shipped extractor.d.ts, as a partner's strict project would. */
function typecheck(source: string): string[] {
  const file = join(directory, 'consumer.ts');
  writeFileSync(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

const consumer = `
/// <reference path="./extractor.d.ts" />
import type { ExtractorApp, Run, StepChangedDetail, Step } from './extractor.js';

const app = document.createElement('extractor-app');
const typed: ExtractorApp = app;
typed.baseUrl = 'https://extractor.example';
typed.session = 'xses_example';
typed.mode = 'element';
typed.headingLevel = 3;

app.addEventListener('extractor-step-changed', (event) => {
  const detail: StepChangedDetail = event.detail;
  const step: Step = detail.step;
  console.log(step, detail.previous);
});
document.addEventListener('extractor-submit-requested', (event) => {
  event.preventDefault();
  const run: Run = event.detail.run;
  console.log(run.status === 'completed', event.detail.data);
});
app.addEventListener('extractor-results-submitted', (event) => {
  console.log(event.detail.submission.redirectUrl ?? 'no redirect');
});
app.addEventListener('extractor-run-progressed', (event) => {
  console.log(event.detail.run.chunksCompleted, event.detail.run.chunksTotal);
});

const found = document.querySelector('extractor-app');
void found?.goToStep('results');
found?.setTheme({ 'color-accent': 'rebeccapurple' });
const current: Step | undefined = found?.step;
const view = document.createElement('extractor-bucket-view');
view.maxFileSize = 1024;
console.log(current, view);
`;

describe('extractor.d.ts, the TypeScript declarations shipped with the library', () => {
  it('stands alone: it imports nothing a partner would have to install', () => {
    expect(declarations).not.toMatch(/^\s*(import|export .* from)\b|\bimport\(|node_modules/m);
  });

  it('types the tags, properties, methods and events in a strict partner project', () => {
    expect(typecheck(consumer)).toEqual([]);
  });

  it('rejects a wrong property value and a detail field that does not exist', () => {
    const errors = typecheck(`
/// <reference path="./extractor.d.ts" />
const app = document.createElement('extractor-app');
app.mode = 'sideways';
app.addEventListener('extractor-step-changed', (event) => console.log(event.detail.stepp));
document.querySelector('extractor-app')?.goToStep('checkout');
`);
    expect(errors).toHaveLength(3);
    expect(errors.join('\n')).toMatch(/"sideways"/);
    expect(errors.join('\n')).toMatch(/stepp/);
    expect(errors.join('\n')).toMatch(/"checkout"/);
  });
});
