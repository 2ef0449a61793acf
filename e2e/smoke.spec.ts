import { expect, test } from '@playwright/test';
import { createExtractor, createSession } from './support/service.js';

test('the full page shows the extractor’s introduction from its labels', async ({ page }) => {
  const extractor = await createExtractor({ labels: { introductionViewHeading: 'Send us your invoice', pageTitle: 'Invoices for ACME' } });
  const session = await createSession(extractor);
  await page.goto(session.fullPageUrl);
  await expect(page.getByRole('heading', { name: 'Send us your invoice' })).toBeVisible();
  await expect(page).toHaveTitle('Invoices for ACME');
});
