/**
 * A file of tens of megabytes, uploaded by Chromium as a person drops it: the service reads
 * the browser's body as it arrives (from the socket behind its port), stores every byte,
 * and counts the PDF's pages from the parts that declare them.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { buildPdf } from '../src/server/engine/testing/build-documents.js';
import { expectUploaded, startFromIntroduction } from './support/journey-steps.js';
import { api, createExtractor, createSession } from './support/service.js';

test('a 40 MB PDF uploads whole from the browser, its pages counted', async ({
  page,
}, testInfo) => {
  // Two pages, nearly all of it one picture's bytes (under the 50 MB a file may have).
  const picture = { jpeg: Buffer.alloc(40 * 1024 * 1024, 0x5a), width: 1, height: 1 };
  const bytes = buildPdf([{ lines: ['Invoice 1'], image: picture }, { lines: ['Page two'] }]);
  const path = testInfo.outputPath('large-scan.pdf');
  await writeFile(path, bytes);

  const session = await createSession(await createExtractor());
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  await page.locator('input[type="file"]').setInputFiles(path);
  await expectUploaded(page, 'large-scan.pdf');

  const files = await api<{ name: string; size: number; sha256: string; pageCount: number }[]>(
    `${session.bucket}/files`,
  );
  expect(files).toEqual([
    expect.objectContaining({
      name: 'large-scan.pdf',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      pageCount: 2,
    }),
  ]);
});
