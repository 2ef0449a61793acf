import { expect, test } from '@playwright/test';
import { completedRunWith, expectView } from './support/journey-steps.js';
import { api, createSession, invoiceSchema } from './support/service.js';

for (const scheme of ['light', 'dark'] as const)
  for (const width of [375, 1024, 1440]) {
    test(`screen ${width} ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      const { id } = await api<{ id: string }>('/api/saved_extractors', {
        body: {
          label: 'Screens',
          jsonSchema: JSON.stringify(invoiceSchema),
          strategy: 'local',
          model: 'local',
          checks: [
            {
              left: '/total',
              op: '>=',
              right: 1000,
              message: 'Totals under 1,000 are checked by hand.',
            },
          ],
        },
      });
      const session = await createSession(id);
      await completedRunWith(session, 'AmazonWebServices.pdf');
      await page.goto(`${session.fullPageUrl}&color-scheme=auto`);
      await expectView(page, 'results');
      if (width < 800) await page.getByRole('button', { name: 'Document', exact: true }).click();
      await expect(page.locator('extractor-document-pane .picture')).toBeVisible();
      if (width >= 800) await page.getByRole('textbox', { name: 'Total', exact: true }).focus();
      else {
        await page.getByRole('button', { name: 'Fields', exact: true }).click();
        await page.getByRole('button', { name: 'Show Total in the document' }).click();
      }
      await page.waitForTimeout(800);
      await page.screenshot({
        path: `test-results/review-screens/${width}-${scheme}.png`,
        fullPage: width >= 800 ? false : true,
      });
      if (width >= 800)
        await page.screenshot({
          path: `test-results/review-screens/${width}-${scheme}-full.png`,
          fullPage: true,
        });
    });
  }
