/**
 * The custom element inside a React 19 app on a partner's site (another address,
 * 127.0.0.2): React sets `baseUrl` and `session` as properties, listens with
 * `onextractor-…` props, and shows the events it heard in its own DOM, while a person goes
 * through the whole journey and submits.
 */
import { expect, test } from '@playwright/test';
import { labelDefaults } from '../../src/contract/labels.js';
import {
  beginAndReachResults,
  runsOfBucket,
  startFromIntroduction,
  uploadFixture,
} from '../support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import { createExtractor, createSession, serviceUrl } from '../support/service.js';
import { bundlePartnerApp, partnerPageHtml } from './partner-apps.js';

let partner: PartnerSite;
let bundle: string;

test.beforeAll(async () => {
  [partner, bundle] = await Promise.all([
    startPartnerSite({ host: '127.0.0.2' }),
    bundlePartnerApp('react'),
  ]);
  partner.page('/app.js', bundle, 'text/javascript; charset=utf-8');
});

test.afterAll(async () => {
  await partner.close();
});

test('a React page drives the element through properties and hears its events to the submit', async ({
  page,
}) => {
  const extractor = await createExtractor({ name: 'React partner invoices' });
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(partner.page('/', partnerPageHtml(serviceUrl(), session.token, 'React partner')));

  const app = page.locator('extractor-app');
  const events = page.getByRole('list', { name: 'Events from the element' });
  await expect(events.getByRole('listitem').first()).toHaveText(
    'extractor-session-loaded: step introduction',
  );
  // React set properties, not attributes: the token is not written into the page's markup.
  await expect(app).not.toHaveAttribute('session');
  await expect(app).not.toHaveAttribute('baseurl');
  expect(
    await app.evaluate((element) => (element as HTMLElement & { baseUrl: string }).baseUrl),
  ).toBe(serviceUrl());

  await startFromIntroduction(page);
  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);
  await page.getByRole('button', { name: labelDefaults.resultsViewSubmitButtonLabel }).click();

  // Every event the page listened to reached React, once each, with its detail; the run's
  // completion and the step change it leads to race, so their order is not asserted.
  for (const line of [
    'extractor-step-changed: step bucket',
    'extractor-files-uploaded: 1 file',
    /^extractor-run-started: run (queued|running)$/,
    'extractor-step-changed: step extraction',
    'extractor-run-completed: run completed',
    'extractor-step-changed: step results',
    'extractor-submit-requested: run completed',
    'extractor-results-submitted: run completed',
  ])
    await expect(events.getByRole('listitem').filter({ hasText: line })).toHaveCount(1);
  const runs = await runsOfBucket(session.bucket);
  expect(runs.map((run) => ({ status: run.status, submitted: run.submittedAt !== null }))).toEqual([
    { status: 'completed', submitted: true },
  ]);
});
