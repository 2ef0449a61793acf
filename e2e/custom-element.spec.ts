/**
 * The custom element on a partner's plain HTML page on another origin: one module script
 * from the service's /sdk/extractor.mjs, one <extractor-app> with the service's address and
 * an embed session, and the person goes through the journey inside the partner's page. The
 * API answers that page because the session lists its origin (CORS is per session).
 */
import { expect, test, type Page } from '@playwright/test';
import {
  beginAndReachResults,
  editField,
  expectSubmittedOnServer,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from './support/partner-server.js';
import { createExtractor, createSession, serviceUrl } from './support/service.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

/** A partner's page with the element and a script that records the element's events. */
function partnerPage(path: string, token: string): string {
  const service = serviceUrl();
  return partner.page(
    path,
    `<!doctype html>
    <html lang="en">
      <meta charset="utf-8">
      <title>ACME partner portal</title>
      <script type="module" src="${service}/sdk/extractor.mjs"></script>
      <script>
        window.seen = [];
        for (const type of ['extractor-step-changed', 'extractor-run-completed', 'extractor-results-submitted'])
          document.addEventListener(type, (event) => window.seen.push({ type, detail: event.detail }));
      </script>
      <main>
        <h1>ACME partner portal</h1>
        <extractor-app base-url="${service}" session="${token}"></extractor-app>
      </main>
    </html>`,
  );
}

function seenEvents(page: Page): Promise<{ type: string; detail: Record<string, unknown> }[]> {
  return page.evaluate(() => (window as unknown as { seen: never[] }).seen);
}

test('a person goes through the journey in the custom element on a partner’s page', async ({
  page,
}) => {
  const thanks = partner.page('/thanks', '<!doctype html><title>Thanks</title>');
  const extractor = await createExtractor({ redirectUrl: thanks });
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  const host = partnerPage('/invoices', session.token);

  await page.goto(host);
  await startFromIntroduction(page);
  await uploadFixture(page, 'FlipkartInvoice.pdf');
  await beginAndReachResults(page);
  await editField(page, 'Currency', 'XTS');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText('Submitted. Thank you.')).toBeVisible();
  await expectSubmittedOnServer(session.bucket, 'currency', 'XTS');

  // On someone else's page the element tells the page, which decides what comes next.
  expect(page.url()).toBe(host);
  const events = await seenEvents(page);
  const steps = events.filter((event) => event.type === 'extractor-step-changed');
  expect(steps.map((event) => event.detail.step)).toEqual(['bucket', 'extraction', 'results']);
  expect(events.filter((event) => event.type === 'extractor-run-completed')).toHaveLength(1);
  expect(events.at(-1)!.type).toBe('extractor-results-submitted');
  const submitted = events.at(-1)!.detail as { submission: { redirectUrl: string | null } };
  expect(submitted.submission.redirectUrl).toBe(thanks);
});

test('the custom element says so in plain words when its session does not allow the page', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, {
    allowedOrigins: ['https://someone-else.example'],
  });
  await page.goto(partnerPage('/not-allowed', session.token));
  await expect(page.getByRole('heading', { name: 'We could not open this page' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(/connection|reach/i);
  await expect(page.getByRole('heading', { name: 'Extract data from your documents' })).toHaveCount(
    0,
  );
});

test('the custom element refuses a personal access token and never sends it', async ({ page }) => {
  const sentTo: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${serviceUrl()}/api/`)) sentTo.push(request.url());
  });
  await page.goto(partnerPage('/personal-token', 'xpat_not-for-browsers-0123456789abcdef'));
  await expect(page.getByRole('heading', { name: 'We could not open this page' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(
    'Personal access tokens must stay on your server',
  );
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(sentTo).toEqual([]);
});
