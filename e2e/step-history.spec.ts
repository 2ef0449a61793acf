/**
 * The full page's steps have names, and the browser's Back and Forward move between them on
 * the page (issue 26, item 9): the person never leaves the flow by going back, and what they
 * typed is still there when they come forward again.
 */
import { expect, test } from '@playwright/test';
import {
  beginAndReachResults,
  expectView,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

test('Back and Forward move between the named steps of the full page and keep a draft', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const extractor = await createExtractor();
  const session = await createSession(extractor);
  await page.goto(session.fullPageUrl);
  const steps = page.locator('extractor-app [part~="steps"]');
  await expect(steps).toContainText('Step 1 of 4');
  await expect(steps.locator('li')).toHaveText(['Start', 'Upload', 'Extraction', 'Review']);
  await expect(steps.locator('li.current')).toHaveText('Start');
  await startFromIntroduction(page);
  await expect(steps.locator('li.current')).toHaveText('Upload');
  // Read to screen readers with the count: the bar itself is hidden from them.
  await expect(steps.locator('.step-count')).toHaveText('Step 2 of 4: Upload');
  const address = page.url();

  await page.goBack();
  await expectView(page, 'introduction');
  expect(page.url()).toBe(address);
  await page.goForward();
  await expectView(page, 'bucket');

  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);
  await expect(steps.locator('li.current')).toHaveText('Review');
  const total = page.getByLabel('Total', { exact: true });
  await total.fill('about 40');
  await total.blur();
  await expect(page.getByText(/All changes saved as your draft\./)).toBeVisible();

  await page.goBack();
  await expectView(page, 'extraction');
  await page.goBack();
  await expectView(page, 'bucket');
  expect(page.url()).toBe(address);
  await page.goForward();
  await expectView(page, 'extraction');
  await page.goForward();
  await expectView(page, 'results');
  await expect(total).toHaveValue('about 40');
});

test('on a phone the step bar names the current step beside the count', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const extractor = await createExtractor();
  const session = await createSession(extractor, { locale: 'fr' });
  await page.goto(session.fullPageUrl);
  const steps = page.locator('extractor-app [part~="steps"]');
  await expect(steps.locator('li.current')).toHaveText('Début');
  // The bar is too narrow for four names here: the current one shows beside the count.
  await expect(steps.locator('.step-current')).toBeVisible();
  await expect(steps.locator('.step-count')).toContainText(': Début');
});
