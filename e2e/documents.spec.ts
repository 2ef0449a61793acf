/**
 * One record per document (issue 11), as a person meets it on the hosted full page: three
 * invoices and a file that cannot be read go into one bucket; the extraction lists the four
 * with their own states, the run ends partly done, the results switch between the
 * documents and show each one's own values, the unreadable file is replaced and read on its
 * own (an edit of another document survives it), the downloads carry every document (the
 * CSV a row per document, `file` first), and Submit sends them all. The service is asked
 * afterwards what it holds.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { labelDefaults } from '../src/contract/labels.js';
import { parseCsv } from '../src/server/formats/csv.js';
import {
  download,
  expectUploaded,
  expectView,
  fixturePath,
  runsOfBucket,
  startFromIntroduction,
} from './support/journey-steps.js';
import { api, createExtractor, createSession } from './support/service.js';

const invoices = ['coolblue1.pdf', 'AmazonWebServices.pdf', 'saeco.pdf'] as const;
const unreadable = 'broken.pdf';
const replacement = 'coolblue2.pdf';

/** The invoice number printed on a fixture invoice, as its JSON twin records it. */
async function invoiceNumberOf(fixture: string): Promise<string> {
  const json = fixturePath(fixture.replace(/\.\w+$/, '.json'));
  const [expected] = JSON.parse(await readFile(json, 'utf8')) as { invoice_number: string }[];
  return expected!.invoice_number;
}

/** A file that passes the upload's checks (it starts as a PDF does) but cannot be read. */
async function unreadableFile(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  const path = join(directory, unreadable);
  await writeFile(path, '%PDF-1.4\nthis is not a PDF at all, only its first line is\n');
  return path;
}

function documentItem(page: Page, name: string) {
  return page.getByRole('listitem').filter({ hasText: name });
}

/**
 * A document of the extraction's list is in a state: its name, then the state's words (and
 * not "Reading" for "Read"); the line below may follow with no space between, as the
 * minified template has none between blocks.
 */
async function expectDocumentState(page: Page, name: string, state: string, timeout?: number) {
  await expect(documentItem(page, name)).toContainText(
    new RegExp(`${escape(name)}\\s*${state}(?!ing)`),
    { timeout },
  );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A tab's text: the document's name, then its state. */
function tabText(name: string, state: string): RegExp {
  return new RegExp(`^\\s*${escape(name)}\\s+${state}\\s*$`);
}

function tab(page: Page, name: string) {
  return page.getByRole('tab', { name: new RegExp(`^${escape(name)}`) });
}

test('three invoices and an unreadable file: a record each, the failed one replaced, downloads, submit', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const extractor = await createExtractor();
  const session = await createSession(extractor);
  const numbers = Object.fromEntries(
    await Promise.all(
      [...invoices, replacement].map(async (name) => [name, await invoiceNumberOf(name)]),
    ),
  ) as Record<string, string>;

  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  await page
    .locator('input[type="file"]')
    .setInputFiles([...invoices.map(fixturePath), await unreadableFile(testInfo.outputPath())]);
  for (const name of [...invoices, unreadable]) await expectUploaded(page, name);
  // The documents keep the bucket's order: the order the files arrived in.
  const bucket = await api<{ artifacts: string }>(session.bucket);
  const order = (JSON.parse(bucket.artifacts) as { name: string }[]).map((file) => file.name);
  expect([...order].sort()).toEqual([...invoices, unreadable].sort());

  // The extraction lists the four documents, each with its own state in words.
  await page.getByRole('button', { name: labelDefaults.bucketViewBeginButtonLabel }).click();
  await expectView(page, 'extraction');
  const list = page.getByRole('list').filter({ has: documentItem(page, unreadable) });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  // The run's status says plainly how it ended.
  await expect(page.getByRole('group', { name: 'Partly done' })).toContainText(
    '3 of 4 documents read; 1 could not be read.',
    { timeout: 60_000 },
  );
  for (const name of invoices) await expectDocumentState(page, name, 'Read');
  await expectDocumentState(page, unreadable, 'Could not be read');
  // Why, in the interface's words for the service's code (damaged_file).
  await expect(documentItem(page, unreadable)).toContainText(`${unreadable} may be damaged.`);
  await page
    .getByRole('button', { name: labelDefaults.extractionViewContinueButtonLabel, exact: true })
    .click();
  await expectView(page, 'results');

  // The switcher: a tab per document, in the bucket's order, each with its own values.
  const state = (name: string) => (name === unreadable ? 'Could not be read' : 'Read');
  await expect(page.getByRole('tab')).toHaveText(order.map((name) => tabText(name, state(name))));
  const invoiceNumber = page.getByLabel('Invoice number', { exact: true });
  for (const name of invoices) {
    await tab(page, name).click();
    await expect(tab(page, name)).toHaveAttribute('aria-selected', 'true');
    await expect(invoiceNumber).toHaveValue(numbers[name]!);
  }
  // The keyboard moves between the tabs too.
  const position = order.indexOf(invoices[2]);
  await tab(page, invoices[2]).focus();
  await page.keyboard.press('ArrowLeft');
  const before = order[(position + order.length - 1) % order.length]!;
  await expect(tab(page, before)).toBeFocused();
  await expect(tab(page, before)).toHaveAttribute('aria-selected', 'true');

  // A person's edit of one document…
  await tab(page, invoices[1]).click();
  await invoiceNumber.fill('AWS-EDITED-1');
  await invoiceNumber.blur();
  await expect(page.getByText('All changes saved.')).toBeVisible();
  numbers[invoices[1]] = 'AWS-EDITED-1';

  // …survives replacing the one that could not be read, reached with Previous and Next.
  const step = order.indexOf(unreadable) > order.indexOf(invoices[1]) ? 'Next' : 'Previous';
  while ((await tab(page, unreadable).getAttribute('aria-selected')) !== 'true')
    await page.getByRole('button', { name: `${step} document`, exact: true }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel).toContainText(`We could not read “${unreadable}”.`);
  await expect(panel).toContainText(`${unreadable} may be damaged.`);
  await expect(panel.getByRole('button', { name: /again|retry/i })).toHaveCount(0);
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    panel.getByRole('button', { name: `Replace file ${unreadable}` }).click(),
  ]);
  await chooser.setFiles(fixturePath(replacement));
  await expectView(page, 'extraction');
  await expectDocumentState(page, replacement, 'Read', 60_000);
  await expect(page.getByRole('group', { name: 'Done' })).toBeVisible();
  await page
    .getByRole('button', { name: labelDefaults.extractionViewContinueButtonLabel, exact: true })
    .click();
  await expectView(page, 'results');
  // The new file took the old one's place.
  const replaced = order.map((name) => (name === unreadable ? replacement : name));
  await expect(page.getByRole('tab')).toHaveText(replaced.map((name) => tabText(name, 'Read')));
  await expect(page.getByText(/could not be read/)).toHaveCount(0);
  for (const name of [replacement, invoices[1]]) {
    await tab(page, name).click();
    await expect(invoiceNumber).toHaveValue(numbers[name]!);
  }

  // The downloads carry every document; the CSV has a row per document, `file` first.
  const expected = replaced.map((name) => numbers[name]);
  const json = JSON.parse((await download(page, page, 'json')).text) as {
    documents: { name: string; status: string; data: { invoice_number: string } }[];
  };
  expect(json.documents.map((document) => document.name)).toEqual(replaced);
  expect(json.documents.map((document) => document.status)).toEqual(Array(4).fill('completed'));
  expect(json.documents.map((document) => document.data.invoice_number)).toEqual(expected);

  const [columns, ...records] = parseCsv((await download(page, page, 'csv')).text)!;
  expect(columns!.slice(0, 4)).toEqual(['file', 'name', 'status', 'error']);
  const nameColumn = columns!.indexOf('name');
  const numberColumn = columns!.indexOf('invoice_number');
  // A document with line items repeats its fields on each item's row: one group per file.
  const byFile = new Map<string, Set<string>>();
  for (const record of records) {
    const key = `${record[0]} ${record[nameColumn]}`;
    byFile.set(key, (byFile.get(key) ?? new Set()).add(record[numberColumn]!));
  }
  expect([...byFile.keys()].map((key) => key.split(' ').pop())).toEqual(replaced);
  expect([...byFile.values()].map((set) => [...set])).toEqual(expected.map((number) => [number]));

  // Submit sends them all.
  await page.getByRole('button', { name: labelDefaults.resultsViewSubmitButtonLabel }).click();
  await expect(page.getByText('Submitted. Thank you.')).toBeVisible();
  const [run] = await runsOfBucket(session.bucket);
  expect(run!.status).toBe('completed');
  expect(run!.submittedAt).not.toBeNull();
  const stored = JSON.parse(run!.data ?? '{}') as typeof json;
  expect(stored.documents.map((document) => document.data.invoice_number)).toEqual(expected);
});
