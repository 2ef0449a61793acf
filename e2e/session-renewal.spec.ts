/**
 * The full page before its session ends (issue 14): the person is warned, continues, and
 * nothing is lost. The session is minted short (90 s), so the warning (two minutes ahead)
 * shows at once.
 */
import { expect, test } from '@playwright/test';
import {
  beginAndReachResults,
  draftOf,
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
  // Kept on the service as a draft, apart from the record, which the schema still accepts.
  const [run] = await runsOfBucket(session.bucket);
  expect(draftOf(run).total).toBe('about 40');
  expect(typeof recordOf(run).total).toBe('number');
});

test('a session that ends while the page is open says so in plain words, and that the work is saved', async ({
  page,
}) => {
  // The shortest session there is (60 s) runs out for real while the person works: the page
  // and the service both see it end, as a person would.
  test.setTimeout(120_000);
  const extractor = await createExtractor();
  const session = await createSession(extractor, { ttlSeconds: 60, maxLifetimeSeconds: 60 });
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);
  const total = page.getByLabel('Total', { exact: true });
  await total.fill('41.5');
  await total.blur();
  await expect(page.getByText('All changes saved.')).toBeVisible();

  const ended = page.getByRole('alert').filter({ hasText: 'Your session has ended' });
  await expect(ended).toBeVisible({ timeout: 70_000 });
  await expect(ended).toContainText('Everything you entered up to now is saved');
  // Not the link the person came by, which is dead now: whoever sent it can mint another.
  await expect(ended).toContainText('ask whoever sent you this link for a new one');
  await expect(ended).not.toContainText('link you were given');
  await expect(ended.getByRole('button')).toHaveCount(0);
  await expect(ended).toBeFocused();

  // What the person does next meets the service's 401, told in the same plain words.
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText(/Your session has ended, so this could not be done\./)).toBeVisible();
  await expect(
    page.getByText(/What you entered before is saved: ask for a new link/),
  ).toBeVisible();
  await expect(page.getByText(/access token/i)).toHaveCount(0);
  // The edit made before the end is kept, and nothing was submitted.
  const [run] = await runsOfBucket(session.bucket);
  expect(recordOf(run).total).toBe(41.5);
  expect(run!.submittedAt).toBeNull();
});

test('a page woken after its session ended says so, and to ask for a new link', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { ttlSeconds: 600 });
  await page.clock.install();
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  // The lid closed before the warning and opened after the end: both are due at once.
  await page.clock.fastForward('11:00');
  const ended = page.getByRole('alert').filter({ hasText: 'Your session has ended' });
  await expect(ended).toBeVisible();
  await expect(ended).toContainText('ask whoever sent you this link for a new one');
  await expect(page.getByText(/Your session ends at/)).toHaveCount(0);
});
