/**
 * The full page before its session ends (issue 14): the person is warned, continues, and
 * nothing is lost. The session is minted short (90 s), so the warning (two minutes ahead)
 * shows at once.
 */
import { expect, test } from '@playwright/test';
import {
  beginAndReachResults,
  expectView,
  recordOf,
  runsOfBucket,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

test('a session about to expire is continued without losing a draft', async ({ page }) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { ttlSeconds: 90 });
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);

  const notice = page.getByRole('alert').filter({ hasText: 'Your session ends at' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Everything you entered is saved.');

  // A draft the schema does not accept yet, typed while the warning shows.
  const total = page.getByLabel('Total', { exact: true });
  await total.fill('about 40');
  await total.blur();
  await expect(page.getByText(/All changes saved as your draft\./)).toBeVisible();

  await notice.getByRole('button', { name: 'Continue working' }).click();
  // The page goes on with a new token, kept for a reload; the person stays where they are.
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(sessionStorage)
          .filter((key) => key.startsWith('extractor:session:'))
          .map((key) => sessionStorage.getItem(key)),
      ),
    )
    .not.toContain(session.token);
  await expectView(page, 'results');
  await expect(total).toHaveValue('about 40');

  await page.reload();
  await expectView(page, 'results');
  await expect(total).toHaveValue('about 40');
  await expect(total).toHaveAttribute('aria-invalid', 'true');
  const [run] = await runsOfBucket(session.bucket);
  expect(recordOf(run).total).toBe('about 40');
});
