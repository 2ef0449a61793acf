/**
 * The journey inside an iFrame on a partner's page, served from another address than the
 * service (127.0.0.2): the session allows the partner's origin to frame the embed page.
 * Embedded, Submit does not take the person anywhere: the partner's page stays, and the
 * service holds the submitted results.
 */
import { expect, test } from '@playwright/test';
import {
  beginAndReachResults,
  downloadAndCheckEachFormat,
  editField,
  expectSubmittedOnServer,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from './support/partner-server.js';
import { createExtractor, createSession } from './support/service.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

test('a person goes through the whole journey in an iFrame on a partner’s page', async ({
  page,
}) => {
  // A redirectUrl that must not be followed: embedded, the host page decides what comes next.
  const elsewhere = partner.page('/elsewhere', '<!doctype html><title>Elsewhere</title>');
  const extractor = await createExtractor({ redirectUrl: elsewhere });
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  const host = partner.page(
    '/invoices',
    `<!doctype html>
    <html lang="en">
      <title>ACME partner portal</title>
      <h1>ACME partner portal</h1>
      <iframe src="${session.embeddedUrl}" title="Send your invoice" style="width: 100%; height: 1100px; border: 0"></iframe>
    </html>`,
  );
  expect(new URL(host).origin).not.toBe(new URL(session.embeddedUrl).origin);

  await page.goto(host);
  const app = page.frameLocator('iframe[title="Send your invoice"]');
  await startFromIntroduction(app);
  await uploadFixture(app, 'AmazonWebServices.pdf');
  await beginAndReachResults(app);
  await editField(app, 'Invoice number', 'PARTNER-77');
  await downloadAndCheckEachFormat(page, app, 'invoice_number', 'PARTNER-77');

  await app.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(app.getByText('Submitted. Thank you.')).toBeVisible();
  await expectSubmittedOnServer(session.bucket, 'invoice_number', 'PARTNER-77');
  // Neither the partner's page nor the frame went to the redirectUrl.
  expect(page.url()).toBe(host);
  await expect(page.getByRole('heading', { name: 'ACME partner portal' })).toBeVisible();
  expect(page.frames().map((frame) => frame.url())).not.toContain(elsewhere);
});

test('the embed page cannot be framed by an origin its session does not allow', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, {
    allowedOrigins: ['https://someone-else.example'],
  });
  const host = partner.page(
    '/not-allowed',
    `<!doctype html><title>Not allowed</title><iframe src="${session.embeddedUrl}" title="Embed"></iframe>`,
  );
  const refused = page.waitForEvent('console', (message) =>
    /frame-ancestors|Refused to frame/i.test(message.text()),
  );
  await page.goto(host);
  await refused;
  await expect(
    page.frameLocator('iframe[title="Embed"]').getByRole('heading', {
      name: 'Extract data from your documents',
    }),
  ).toHaveCount(0);
});
