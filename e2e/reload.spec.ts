/**
 * A reload in the middle of a run: the person is back on the extraction view of the same
 * run, which goes on to complete. The run is made long on purpose: the `llm` strategy with
 * the stand-in provider's slow model (400 ms a chunk) and the smallest chunk size, so an
 * invoice is read in many chunks.
 */
import { expect, test } from '@playwright/test';
import { minChunkSize } from '../src/contract/resources.js';
import {
  expectView,
  runsOfBucket,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

test('after a reload in the middle of a run, the person is back on it and it completes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const extractor = await createExtractor({
    strategy: 'llm',
    model: 'stand-in-slow',
    chunkSize: minChunkSize,
  });
  const session = await createSession(extractor);
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  // Two invoices, some forty chunks: the run lasts long enough on a slow machine to be
  // reloaded with plenty still to do.
  await uploadFixture(page, 'coolblue1.pdf');
  await uploadFixture(page, 'coolblue2.pdf');
  await page.getByRole('button', { name: 'Begin extraction' }).click();
  await expectView(page, 'extraction');

  const progress = page.getByRole('progressbar', { name: 'Progress', exact: true });
  await expect(page.getByRole('group', { name: 'Reading' })).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuenow', /^[1-9]\d*$/);
  const doneBefore = Number(await progress.getAttribute('aria-valuenow'));
  const [runBefore] = await runsOfBucket(session.bucket);
  expect(runBefore!.status).toBe('running');
  expect(runBefore!.chunksTotal).toBeGreaterThan(doneBefore + 10);

  await page.reload();
  await expectView(page, 'extraction');
  // The same run, not a new one, still on its way: progress did not go back to zero.
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')))
    .toBeGreaterThanOrEqual(doneBefore);
  await expect(progress).toHaveAttribute('aria-valuemax', String(runBefore!.chunksTotal));
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();

  await expect(page.getByRole('group', { name: 'Done' })).toBeVisible({ timeout: 90_000 });
  await expect(progress).toHaveAttribute('aria-valuenow', String(runBefore!.chunksTotal));
  const runs = await runsOfBucket(session.bucket);
  expect(runs.map((run) => [run.id, run.status, run.chunksCompleted])).toEqual([
    [runBefore!.id, 'completed', runBefore!.chunksTotal],
  ]);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expectView(page, 'results');
});
