/**
 * axe-core on each of the four views, in light and in dark, in the states that change what
 * is on screen: a file uploaded and one refused, a run reading, paused, cancelled and one
 * that failed, the results with a value the schema does not accept. No violations, of any
 * impact. The full page is opened with `color-scheme=auto`, so it follows the emulated system scheme
 * (without it, it is light: see host-appearance.spec.ts).
 */
import { expect, test } from '@playwright/test';
import { expectNoViolations } from './support/axe.js';
import {
  beginAndReachResults,
  expectUploaded,
  expectView,
  fixturePath,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { api, createExtractor, createSession, invoiceSchema } from './support/service.js';

const schemes = ['light', 'dark'] as const;

/** The session's full page, following the system's scheme. */
const followingSystem = (url: string) => `${url}&color-scheme=auto`;

for (const scheme of schemes) {
  test.describe(`in ${scheme}`, () => {
    test.beforeEach(async ({ page }) => {
      // Each test analyses several states, and one analysis takes seconds on a busy machine.
      test.slow();
      await page.emulateMedia({ colorScheme: scheme });
    });

    test.afterEach(async ({ page }) => {
      // The scheme really applied: light text on dark in dark, dark text on light in light.
      const lightness = await page
        .locator('extractor-app [part~="heading"]')
        .first()
        .evaluate((heading) => {
          const [r, g, b] = getComputedStyle(heading)
            .color.match(/[\d.]+/g)!
            .map(Number);
          return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
        });
      if (scheme === 'dark') expect(lightness).toBeGreaterThan(0.6);
      else expect(lightness).toBeLessThan(0.4);
    });

    test('the introduction, bucket, extraction and results views have no violations', async ({
      page,
    }) => {
      // A schema with a constraint, so the results can show a validation message.
      const strict = {
        ...invoiceSchema,
        properties: {
          ...invoiceSchema.properties,
          currency: {
            type: 'string',
            title: 'Currency',
            pattern: '^[A-Z]{3}$',
            description: 'Three capital letters, such as EUR.',
          },
        },
      };
      const { id } = await api<{ id: string }>('/api/saved_extractors', {
        body: {
          label: 'Strict invoice',
          jsonSchema: JSON.stringify(strict),
          strategy: 'local',
          model: 'local',
          allowDownload: true,
          redirectUrl: '',
        },
      });
      const session = await createSession(id);
      await page.goto(followingSystem(session.fullPageUrl));
      await expectView(page, 'introduction');
      await expectNoViolations(page, 'introduction');

      await startFromIntroduction(page);
      await expectNoViolations(page, 'bucket, empty');
      await uploadFixture(page, 'AmazonWebServices.pdf');
      await page.locator('input[type="file"]').setInputFiles({
        name: 'notes.exe',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('not a document'),
      });
      await expect(page.getByRole('listitem').filter({ hasText: 'notes.exe' })).toContainText(
        'is not a kind of file we can read',
      );
      await expectNoViolations(page, 'bucket, with an uploaded and a refused file');

      await beginAndReachResults(page);
      await expectNoViolations(page, 'results');
      const currency = page.getByLabel('Currency', { exact: true });
      await currency.fill('euro');
      await expect(currency).toHaveAttribute('aria-invalid', 'true');
      await page.getByRole('button', { name: /add.*row/i }).click();
      await expect(page.getByRole('grid').getByRole('textbox').first()).toBeFocused();
      await expectNoViolations(page, 'results, with an invalid value and a table row');

      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await expectView(page, 'extraction');
      await expect(page.getByRole('group', { name: 'Done' })).toBeVisible();
      await expectNoViolations(page, 'extraction, done');
    });

    test('the extraction view has no violations while reading, paused and cancelled', async ({
      page,
    }) => {
      const slow = await createSession(
        await createExtractor({ strategy: 'llm', model: 'stand-in-stalled', chunkSize: 200 }),
      );
      await page.goto(followingSystem(slow.fullPageUrl));
      await startFromIntroduction(page);
      await uploadFixture(page, 'coolblue2.pdf');
      await page.getByRole('button', { name: 'Begin extraction' }).click();
      await expectView(page, 'extraction');
      await expect(page.getByRole('group', { name: 'Reading' })).toBeVisible();
      await expectNoViolations(page, 'extraction, reading');
      await page.getByRole('button', { name: 'Pause' }).click();
      await expect(page.getByRole('group', { name: 'Paused' })).toBeVisible();
      await expectNoViolations(page, 'extraction, paused');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('group', { name: 'Cancelled' })).toBeVisible();
      await expectNoViolations(page, 'extraction, cancelled');
    });

    test('the extraction view has no violations when the run failed', async ({ page }) => {
      const refusing = await createSession(
        await createExtractor({ strategy: 'llm', model: 'stand-in-refusing' }),
      );
      await page.goto(followingSystem(refusing.fullPageUrl));
      await startFromIntroduction(page);
      await page.locator('input[type="file"]').setInputFiles(fixturePath('Orlen.txt'));
      await expectUploaded(page, 'Orlen.txt');
      await page.getByRole('button', { name: 'Begin extraction' }).click();
      await expect(page.getByText('We could not read your document.')).toBeVisible();
      await expectNoViolations(page, 'extraction, failed');
    });
  });
}
