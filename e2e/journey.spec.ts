/**
 * The whole journey on the hosted full page, with a real invoice: introduction, upload,
 * Begin, the run's progress, the results, an edit, the three downloads, Submit, and on to
 * the extractor's redirectUrl on the partner's site. The service is asked afterwards what
 * it holds.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  beginAndReachResults,
  downloadAndCheckEachFormat,
  editField,
  expectSubmittedOnServer,
  fixturePath,
  startFromIntroduction,
  uploadFixture,
} from './support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from './support/partner-server.js';
import { createExtractor, createSession } from './support/service.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite();
});

test.afterAll(async () => {
  await partner.close();
});

test('the full page shows the extractor’s introduction from its labels', async ({ page }) => {
  const extractor = await createExtractor({
    labels: { introductionViewHeading: 'Send us your invoice', pageTitle: 'Invoices for ACME' },
  });
  const session = await createSession(extractor);
  await page.goto(session.fullPageUrl);
  await expect(page.getByRole('heading', { name: 'Send us your invoice' })).toBeVisible();
  await expect(page).toHaveTitle('Invoices for ACME');
});

test('a person extracts an invoice on the full page, edits, downloads and submits it', async ({
  page,
}) => {
  const thanks = partner.page(
    '/thanks',
    '<!doctype html><title>Thanks</title><h1>Thank you, ACME received your invoice</h1>',
  );
  const extractor = await createExtractor({ redirectUrl: thanks });
  const session = await createSession(extractor);

  await page.goto(session.fullPageUrl);
  // The session leaves the address bar at once, so it is not bookmarked or shared.
  await expect(page).not.toHaveURL(/session=/);
  await startFromIntroduction(page);
  await uploadFixture(page, 'AmazonWebServices.pdf');
  await beginAndReachResults(page);

  // The run read the invoice number printed on the invoice.
  const [expected] = JSON.parse(await readFile(fixturePath('AmazonWebServices.json'), 'utf8')) as {
    invoice_number: string;
  }[];
  await expect(page.getByLabel('Invoice number', { exact: true })).toHaveValue(
    expected!.invoice_number,
  );
  await editField(page, 'Invoice number', 'ACME-2024-0042');
  await downloadAndCheckEachFormat(page, page, 'invoice_number', 'ACME-2024-0042');

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.waitForURL(thanks);
  await expect(
    page.getByRole('heading', { name: 'Thank you, ACME received your invoice' }),
  ).toBeVisible();
  await expectSubmittedOnServer(session.bucket, 'invoice_number', 'ACME-2024-0042');
});
