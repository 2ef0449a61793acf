/**
 * A person whose browser speaks German sees the interface in German and types amounts as
 * German writes them, and the results take them: "1.234,56" is one thousand two hundred and thirty-four euros and
 * fifty-six cents, saved as 1234.56, and shown back with a decimal comma.
 */
import { expect, test } from '@playwright/test';
import { completedRunWith, recordOf, runsOfBucket } from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

test.use({ locale: 'de-DE' });

test('amounts are typed as the person’s locale writes them', async ({ page }) => {
  const session = await createSession(await createExtractor());
  await completedRunWith(session, 'Orlen.txt', { invoice_number: 'DE-1', total: 10.5 });
  await page.goto(session.fullPageUrl);
  await expect(page.getByRole('heading', { name: 'Daten prüfen' })).toBeVisible();
  const total = page.getByLabel('Total', { exact: true });
  await expect(total).toHaveValue('10,5');

  await total.fill('1.234,56');
  await expect(total).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByText('Alle Änderungen gespeichert.')).toBeVisible();
  await expect
    .poll(async () => {
      const [run] = await runsOfBucket(session.bucket);
      return recordOf(run).total;
    })
    .toBe(1234.56);

  await total.fill('zwölf');
  await expect(total).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText('Bitte geben Sie eine Zahl ein, zum Beispiel 1.234,56.'),
  ).toBeVisible();
});
