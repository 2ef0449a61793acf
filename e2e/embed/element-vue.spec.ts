/**
 * The custom element inside a Vue 3 app on a partner's site (another address, 127.0.0.2):
 * Vue treats the tag as a custom element (isCustomElement), sets `baseUrl` and `session` as
 * properties, listens with `@extractor-…`, and takes the submit over by cancelling
 * `extractor-submit-requested`: the results reach the partner's page and the element
 * submits nothing.
 */
import { expect, test } from '@playwright/test';
import { labelDefaults } from '../../src/contract/labels.js';
import {
  beginAndReachResults,
  recordOf,
  runsOfBucket,
  startFromIntroduction,
  uploadFixture,
} from '../support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import { createExtractor, createSession, serviceUrl } from '../support/service.js';
import { bundlePartnerApp, partnerPageHtml } from './partner-apps.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  let bundle: string;
  [partner, bundle] = await Promise.all([
    startPartnerSite({ host: '127.0.0.2' }),
    bundlePartnerApp('vue'),
  ]);
  partner.page('/app.js', bundle, 'text/javascript; charset=utf-8');
});

test.afterAll(async () => {
  await partner.close();
});

test('a Vue page drives the element through properties, hears its events and takes the submit over', async ({
  page,
}) => {
  const extractor = await createExtractor({ name: 'Vue partner invoices' });
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(partner.page('/', partnerPageHtml(serviceUrl(), session.token, 'Vue partner')));

  const app = page.locator('extractor-app');
  const events = page.getByRole('list', { name: 'Events from the element' });
  await expect(events.getByRole('listitem').first()).toHaveText(
    'extractor-session-loaded: step introduction',
  );
  await expect(app).not.toHaveAttribute('session');
  await expect(app).not.toHaveAttribute('baseurl');

  await startFromIntroduction(page);
  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);
  await page.getByRole('button', { name: labelDefaults.resultsViewSubmitButtonLabel }).click();

  const received = page.getByRole('status').filter({ hasText: 'The partner received the results' });
  await expect(received).toBeVisible();
  for (const line of [
    'extractor-step-changed: step bucket',
    'extractor-files-uploaded: 1 file',
    /^extractor-run-started: run (queued|running)$/,
    'extractor-run-completed: run completed',
    'extractor-step-changed: step results',
    'extractor-submit-requested: run completed',
  ])
    await expect(events.getByRole('listitem').filter({ hasText: line })).toHaveCount(1);
  // Cancelled: the element neither submitted nor said it had.
  await expect(
    events.getByRole('listitem').filter({ hasText: 'extractor-results-submitted' }),
  ).toHaveCount(0);
  const runs = await runsOfBucket(session.bucket);
  expect(runs.map((run) => ({ status: run.status, submitted: run.submittedAt !== null }))).toEqual([
    { status: 'completed', submitted: false },
  ]);
  // The partner got the results the element held: the run's documents, each with its record.
  const handedOver = JSON.parse((await received.textContent())!.replace(/^[^{]*/, '')) as unknown;
  expect(handedOver).toEqual(JSON.parse(runs[0]!.data!));
  expect(handedOver).toMatchObject({
    documents: [{ name: 'AmazonWebServices.pdf', status: 'completed', data: recordOf(runs[0]) }],
  });
});
