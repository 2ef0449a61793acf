/**
 * The steps of the journey a person takes through the interface, written once for every
 * place the app is shown: the hosted full page, the iFrame on a partner's page and the
 * custom element. A step works on a `Surface`, the page itself or the frame the app is in,
 * and finds things as a person does: by role and visible name (Playwright's role queries
 * go through the elements' open shadow roots).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, type Download, type FrameLocator, type Page } from '@playwright/test';
import { SaxesParser } from 'saxes';
import { labelDefaults } from '../../src/contract/labels.js';
import { parseCsv } from '../../src/server/formats/csv.js';
import { api } from './service.js';

/** Where the app is: the page itself, or the frame it is in. */
export type Surface = Page | FrameLocator;

export const headings = {
  introduction: labelDefaults.introductionViewHeading,
  bucket: labelDefaults.bucketViewHeading,
  extraction: labelDefaults.extractionViewHeading,
  results: labelDefaults.resultsViewHeading,
} as const;

export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../fixtures/invoices/${name}`, import.meta.url));
}

export async function expectView(app: Surface, view: keyof typeof headings): Promise<void> {
  await expect(app.getByRole('heading', { name: headings[view], exact: true })).toBeVisible();
}

/** From the introduction to the bucket view, with the introduction's button. */
export async function startFromIntroduction(app: Surface): Promise<void> {
  await expectView(app, 'introduction');
  await app.getByRole('button', { name: labelDefaults.introductionViewNextButtonLabel }).click();
  await expectView(app, 'bucket');
}

/** Chooses a fixture in the bucket view's file input and waits until it is uploaded. */
export async function uploadFixture(app: Surface, name: string): Promise<void> {
  await app.locator('input[type="file"]').setInputFiles(fixturePath(name));
  await expectUploaded(app, name);
}

/**
 * Waits until the file is in the bucket and listed once: while the upload's last answer is
 * on its way the list may briefly hold both the bucket's file and the upload's own row.
 */
export async function expectUploaded(app: Surface, name: string): Promise<void> {
  const item = app.getByRole('listitem').filter({ hasText: name });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Uploaded');
  await expect(item.getByRole('button', { name: `Remove ${name}` })).toBeVisible();
}

/**
 * Begin, then the extraction view: its status and progress bar show, and once the run is
 * done its Continue leads to the results.
 */
export async function beginAndReachResults(app: Surface): Promise<void> {
  await app.getByRole('button', { name: labelDefaults.bucketViewBeginButtonLabel }).click();
  await expectView(app, 'extraction');
  const progress = app.getByRole('progressbar', { name: 'Progress', exact: true });
  await expect(progress).toBeVisible();
  await expect(app.getByRole('group', { name: 'Done' })).toBeVisible({ timeout: 45_000 });
  await expect(progress).toHaveAttribute('aria-valuenow', /^[1-9]\d*$/);
  await expect(progress).toHaveAttribute(
    'aria-valuenow',
    (await progress.getAttribute('aria-valuemax')) ?? '',
  );
  await app
    .getByRole('button', { name: labelDefaults.extractionViewContinueButtonLabel, exact: true })
    .click();
  await expectView(app, 'results');
}

/** Types a new value into a labelled field and waits until the service has it. */
export async function editField(app: Surface, label: string, value: string): Promise<void> {
  const field = app.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.blur();
  await expect(app.getByText('All changes saved.')).toBeVisible();
}

export interface DownloadedFile {
  suggestedFilename: string;
  text: string;
}

/** Clicks a download button and reads the file the browser saved. */
export async function download(
  page: Page,
  app: Surface,
  format: 'json' | 'xml' | 'csv',
): Promise<DownloadedFile> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    app.getByRole('button', { name: `Download as ${format.toUpperCase()}` }).click(),
  ]);
  return { suggestedFilename: saved.suggestedFilename(), text: await readDownload(saved) };
}

async function readDownload(saved: Download): Promise<string> {
  const path = await saved.path();
  return readFile(path, 'utf8');
}

/**
 * Downloads the results in each format and checks that every file is well-formed and holds
 * the edited value of `field`.
 */
export async function downloadAndCheckEachFormat(
  page: Page,
  app: Surface,
  field: string,
  value: string,
): Promise<void> {
  const json = await download(page, app, 'json');
  expect(json.suggestedFilename).toMatch(/\.json$/);
  const results = JSON.parse(json.text) as { documents: { data: Record<string, unknown> }[] };
  expect(results.documents[0]!.data[field]).toBe(value);

  const xml = await download(page, app, 'xml');
  expect(xml.suggestedFilename).toMatch(/\.xml$/);
  expect(xmlTextOf(xml.text, ['results', 'document', 'data', field])).toEqual([value]);

  const csv = await download(page, app, 'csv');
  expect(csv.suggestedFilename).toMatch(/\.csv$/);
  const rows = parseCsv(csv.text);
  expect(rows, 'the CSV file parses').toBeDefined();
  const [columns, ...records] = rows!;
  expect(columns![0]).toBe('file');
  expect(columns).toContain(field);
  expect(records.length).toBeGreaterThan(0);
  const column = columns!.indexOf(field);
  for (const record of records) {
    expect(record).toHaveLength(columns!.length);
    expect(record[column]).toBe(value);
  }
}

/**
 * Parses an XML document (a parse error fails the test: the file must be well-formed) and
 * returns the text of every element at `path` from the root.
 */
export function xmlTextOf(xml: string, path: string[]): string[] {
  const parser = new SaxesParser({ xmlns: true });
  const open: string[] = [];
  const found: string[] = [];
  let text = '';
  parser.on('opentag', (tag) => {
    open.push(tag.local);
    text = '';
  });
  parser.on('text', (chunk) => (text += chunk));
  parser.on('closetag', () => {
    if (open.join('/') === path.join('/')) found.push(text);
    open.pop();
  });
  parser.write(xml).close();
  return found;
}

export interface RunOnServer {
  id: string;
  status: string;
  /** `{"documents": [{file, name, status, data, error}]}` as JSON text. */
  data: string | null;
  /** A person's drafts the schema does not accept yet: `{"documents": [{file, data}]}`. */
  draftResultJson: string | null;
  documents: {
    file: string;
    name: string;
    status: string;
    error: string | null;
    errorCode: string | null;
  }[];
  submittedAt: string | null;
  chunksTotal: number | null;
  chunksCompleted: number;
}

/** The record of a run's first document, with a person's edits: a one-file bucket's record. */
export function recordOf(run: RunOnServer | undefined): Record<string, unknown> {
  const results = JSON.parse(run?.data ?? '{"documents":[]}') as {
    documents: { data: Record<string, unknown> | null }[];
  };
  return results.documents[0]?.data ?? {};
}

/** A person's draft of a run's first document (`draftResultJson`), `{}` when there is none. */
export function draftOf(run: RunOnServer | undefined): Record<string, unknown> {
  const drafts = JSON.parse(run?.draftResultJson ?? '{"documents":[]}') as {
    documents: { data: Record<string, unknown> }[];
  };
  return drafts.documents[0]?.data ?? {};
}

/** The bucket's runs as the service holds them, newest last, read with the admin token. */
export async function runsOfBucket(bucketIri: string): Promise<RunOnServer[]> {
  const bucket = await api<{ runs: string[] }>(bucketIri);
  return Promise.all(bucket.runs.map((iri) => api<RunOnServer>(iri)));
}

/** The one run of a bucket, checked to be submitted with `field` set to `value`. */
export async function expectSubmittedOnServer(
  bucketIri: string,
  field: string,
  value: string,
): Promise<void> {
  await expect
    .poll(async () => {
      const runs = await runsOfBucket(bucketIri);
      return runs.map((run) => ({
        status: run.status,
        submitted: run.submittedAt !== null,
        value: recordOf(run)[field],
      }));
    })
    .toEqual([{ status: 'completed', submitted: true, value }]);
}

/**
 * A completed run in the session's bucket, brought there through the API as the page
 * would (upload, start, wait), with `data` saved as the person's edit when given. Opening
 * the session's page then lands on the results.
 */
export async function completedRunWith(
  session: { token: string; bucket: string },
  fixture: string,
  data?: unknown,
): Promise<RunOnServer> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(fixturePath(fixture))]), fixture);
  await api(`${session.bucket}/files`, { body: form, token: session.token });
  const current = await api<{ savedExtractor: string }>('/api/embed_sessions/current', {
    token: session.token,
  });
  const run = await api<RunOnServer>('/api/extraction_runs', {
    body: { bucket: session.bucket, savedExtractor: current.savedExtractor },
    token: session.token,
  });
  let latest = run;
  await expect
    .poll(
      async () => {
        latest = await api<RunOnServer>(`/api/extraction_runs/${run.id}`, { token: session.token });
        return latest.status;
      },
      { timeout: 45_000 },
    )
    .toBe('completed');
  if (data === undefined) return latest;
  return api<RunOnServer>(`/api/extraction_runs/${run.id}/results`, {
    method: 'PUT',
    body: { documents: [{ file: latest.documents[0]!.file, data }] },
    token: session.token,
  });
}
