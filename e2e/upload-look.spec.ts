/**
 * The upload as the best uploaders show it (issue 26, item 8): files held over the drop zone
 * change its look before they are let go, and a file on its way has a bar that
 * fills with the share sent.
 */
import { writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectUploaded, startFromIntroduction } from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

test('files held over the drop zone show where they will go', async ({ page }) => {
  const session = await createSession(await createExtractor());
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  const zone = page.locator('extractor-app [part~="drop-zone"]');
  const held = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['%PDF-1.4'], 'invoice.pdf', { type: 'application/pdf' }));
    return transfer;
  });
  await zone.dispatchEvent('dragenter', { dataTransfer: held });
  await expect(zone).toHaveCSS('border-top-style', 'solid');
  // Taken away again: the zone is as it was.
  await zone.dispatchEvent('dragleave', { dataTransfer: held });
  await expect(zone).toContainText('Drop files here, or');
  await expect(zone).toHaveCSS('border-top-style', 'dashed');
});

test('a file on its way has a bar filled as far as it is sent', async ({ page }, testInfo) => {
  const path = testInfo.outputPath('notes.txt');
  await writeFile(path, 'Invoice 2024-0042, total 41.50 EUR\n'.repeat(120_000));
  const session = await createSession(await createExtractor());
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  // A slow line up, so the file is seen half sent.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: 10 * 1024 * 1024,
    uploadThroughput: 512 * 1024,
  });
  await page.locator('input[type="file"]').setInputFiles(path);
  const bar = page.locator('extractor-app [part~="progress"][role="progressbar"]');
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(20);
  const [track, fill, sent] = await bar.evaluate((element) => [
    element.getBoundingClientRect().width,
    element.querySelector('.progress-fill')!.getBoundingClientRect().width,
    Number(element.getAttribute('aria-valuenow')),
  ]);
  // The fill's width is the share sent (within the transition's step behind it).
  expect(fill).toBeGreaterThan(0);
  expect(fill / track).toBeLessThanOrEqual(sent / 100 + 0.01);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expectUploaded(page, 'notes.txt');
});
