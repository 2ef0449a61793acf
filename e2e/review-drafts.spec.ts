/**
 * The review a person can trust (issue 14), through the real service on the full page:
 * an edit the schema does not accept yet is kept as their draft across a reload; after
 * Submit the heading says it is done, with focus on it; the bucket shows as submitted
 * after a reload, and a second submission of the same bucket is refused.
 */
import { expect, test } from '@playwright/test';
import {
  beginAndReachResults,
  expectView,
  runsOfBucket,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { api, createExtractor, createSession, serviceUrl } from './support/service.js';

test('an invalid edit is saved as a draft and survives a reload; it holds back only Submit', async ({
  page,
}) => {
  const session = await createSession(await createExtractor());
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);

  const total = page.getByLabel('Total', { exact: true });
  await total.fill('lots');
  await total.blur();
  await expect(
    page.getByText('All changes saved as your draft. 1 value needs attention before you submit.'),
  ).toBeVisible();

  await page.reload();
  await expectView(page, 'results');
  await expect(total).toHaveValue('lots');
  await expect(total).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a number, such as 1,234.56.')).toBeVisible();

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('need your attention');
  await expect(total).toBeFocused();
  const [run] = await runsOfBucket(session.bucket);
  expect(run!.submittedAt).toBeNull();
  // The draft is kept apart; the run's records stay ones the schema accepts.
  const record = (text: string | null) =>
    (JSON.parse(text!) as { documents: { data: { total: unknown } }[] }).documents[0]!.data;
  expect(record(run!.draftResultJson).total).toBe('lots');
  expect(typeof record(run!.data).total).toBe('number');
});

test('after Submit the heading says it is done with focus on it; a reload shows it submitted, and the bucket cannot be submitted twice', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor);
  await page.goto(session.fullPageUrl);
  await startFromIntroduction(page);
  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  const done = page.getByRole('heading', { name: 'Your results have been submitted' });
  await expect(done).toBeFocused();
  await expect(done).toBeInViewport();
  await expect(page.getByRole('status').filter({ hasText: 'Submitted. Thank you.' })).toBeVisible();
  // The flow is over: nothing offers to go back and send it again.
  await expect(page.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Back', exact: true })).toHaveCount(0);

  await page.reload();
  await expect(done).toBeVisible();
  await expect(page.getByText('Submitted. Thank you.')).toBeVisible();

  // Another run over the same bucket, as Back and Run again made before: its submit is refused.
  const second = await api<{ id: string }>('/api/extraction_runs', {
    body: { bucket: session.bucket, savedExtractor: `/api/extractors/${extractor}` },
  });
  await expect
    .poll(
      async () => (await runsOfBucket(session.bucket)).find((run) => run.id === second.id)?.status,
      {
        timeout: 45_000,
      },
    )
    .toBe('completed');
  const refused = await fetch(`${serviceUrl()}/api/extraction_runs/${second.id}/submit`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${session.token}`, Accept: 'application/json' },
  });
  expect(refused.status).toBe(409);
  expect(refused.headers.get('content-type')).toBe('application/problem+json');
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/already been submitted/);
  const runs = await runsOfBucket(session.bucket);
  expect(runs.filter((run) => run.submittedAt !== null)).toHaveLength(1);
});
