/**
 * Uploads that go wrong, and the way back: a connection that drops during an upload (the
 * network is the one thing simulated here, by aborting the first request), a file the
 * service itself refuses, and files the interface refuses before sending anything.
 */
import { open } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import {
  expectUploaded,
  fixturePath,
  runsOfBucket,
  startFromIntroduction,
} from './support/journey-steps.js';
import { api, createExtractor, createSession } from './support/service.js';

const filesRoute = '**/api/buckets/*/files';

async function openBucketView(page: Page): Promise<{ bucket: string }> {
  const session = await createSession(await createExtractor());
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  return session;
}

/** Counts the upload requests the page sends. */
function countUploads(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/buckets\/[^/]+\/files$/.test(request.url())) count++;
  });
  return () => count;
}

async function bucketFileNames(bucketIri: string): Promise<string[]> {
  const files = await api<{ name: string }[]>(`${bucketIri}/files`);
  return files.map((file) => file.name);
}

test('an upload that loses its connection says so, and Try again uploads it', async ({ page }) => {
  const session = await openBucketView(page);
  let aborted = 0;
  await page.route(
    filesRoute,
    async (route) => {
      aborted++;
      await route.abort('connectionreset');
    },
    { times: 1 },
  );

  await page.locator('input[type="file"]').setInputFiles(fixturePath('saeco.pdf'));
  const item = page.getByRole('listitem').filter({ hasText: 'saeco.pdf' });
  await expect(item).toContainText(
    'We could not reach the service. Check your connection and try again.',
  );
  // A screen reader hears it as well.
  await expect(page.locator('extractor-bucket-view [aria-live]')).toHaveText(
    'saeco.pdf could not be uploaded. We could not reach the service. Check your connection and try again.',
  );
  expect(aborted).toBe(1);
  expect(await bucketFileNames(session.bucket)).toEqual([]);
  // Begin waits for a file that is really there.
  await page.getByRole('button', { name: 'Begin extraction' }).click();
  await expect(page.getByRole('alert')).toHaveText('Add at least one file first.');

  await page.getByRole('button', { name: 'Try saeco.pdf again' }).click();
  await expectUploaded(page, 'saeco.pdf');
  await expect(page.getByRole('button', { name: 'Try saeco.pdf again' })).toHaveCount(0);
  expect(await bucketFileNames(session.bucket)).toEqual(['saeco.pdf']);
  expect(await runsOfBucket(session.bucket)).toEqual([]);
});

test('a file the service cannot read is refused with its reason and can be dismissed', async ({
  page,
}) => {
  const session = await openBucketView(page);
  await page.locator('input[type="file"]').setInputFiles({
    name: 'scan.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from([0x00, 0x9f, 0x92, 0x96, 0xff, 0xfe, 0x00, 0x01, 0x02, 0x03]),
  });
  const item = page.getByRole('listitem').filter({ hasText: 'scan.pdf' });
  await expect(item).toContainText('scan.pdf is not a PDF');
  await expect(item).toContainText('Nothing was kept.');
  // Sending the same file again would be refused again: no Try again, only Dismiss.
  await expect(item.getByRole('button', { name: 'Try scan.pdf again' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Dismiss scan.pdf' }).click();
  await expect(item).toHaveCount(0);
  expect(await bucketFileNames(session.bucket)).toEqual([]);

  await page.locator('input[type="file"]').setInputFiles(fixturePath('Orlen.txt'));
  await expectUploaded(page, 'Orlen.txt');
});

test('a file too large or of the wrong kind is refused in plain words before any upload', async ({
  page,
}, testInfo) => {
  const uploads = countUploads(page);
  const session = await openBucketView(page);

  // A sparse file just over the 50 MB a file may have: nothing to write, nothing to send.
  const large = testInfo.outputPath('too-large.pdf');
  const handle = await open(large, 'w');
  await handle.truncate(50 * 1024 * 1024 + 1);
  await handle.close();
  await page.locator('input[type="file"]').setInputFiles(large);
  await expect(page.getByRole('listitem').filter({ hasText: 'too-large.pdf' })).toContainText(
    '“too-large.pdf” is larger than the 50\u00a0MB a file can be.',
  );

  await page.locator('input[type="file"]').setInputFiles({
    name: 'setup.exe',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('MZ not a document'),
  });
  await expect(page.getByRole('listitem').filter({ hasText: 'setup.exe' })).toContainText(
    '“setup.exe” is not a kind of file we can read. Use PDF, images (PNG, JPEG, WebP, TIFF), Word, Excel, CSV, Markdown, HTML or plain text.',
  );
  // Refused files cannot be retried, only dismissed; nothing went to the service.
  await expect(page.getByRole('button', { name: /^Try .* again$/ })).toHaveCount(0);
  expect(uploads()).toBe(0);
  expect(await bucketFileNames(session.bucket)).toEqual([]);
});
