/**
 * The whole journey with the keyboard alone: Tab to move, Enter and Space to press, the
 * file picker opened from the keyboard. On each new step, focus is on the new view's
 * heading, so a screen reader announces where the person is and Tab goes on from there.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  expectSubmittedOnServer,
  expectUploaded,
  fixturePath,
  headings,
} from './support/journey-steps.js';
import { startPartnerSite } from './support/partner-server.js';
import { createExtractor, createSession } from './support/service.js';

/** Presses Tab until `target` has focus; fails when it never gets it. */
async function tabTo(page: Page, target: Locator, limit = 30): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === element;
  });
}

async function expectHeadingFocused(page: Page, view: keyof typeof headings): Promise<void> {
  const heading = page.getByRole('heading', { name: headings[view], exact: true });
  await expect
    .poll(() => hasFocus(heading), { message: `focus on “${headings[view]}”` })
    .toBe(true);
}

test('a person goes through the whole journey with the keyboard alone', async ({ page }) => {
  const partner = await startPartnerSite();
  try {
    const thanks = partner.page('/thanks', '<!doctype html><title>Thanks</title><h1>Received</h1>');
    const session = await createSession(await createExtractor({ redirectUrl: thanks }));
    await page.goto(session.fullPageUrl);

    await tabTo(page, page.getByRole('button', { name: 'Get started' }));
    await page.keyboard.press('Enter');
    await expectHeadingFocused(page, 'bucket');

    await tabTo(page, page.getByRole('button', { name: 'Choose files' }));
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.keyboard.press('Enter'),
    ]);
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles(fixturePath('AmazonWebServices.pdf'));
    await expectUploaded(page, 'AmazonWebServices.pdf');

    await tabTo(page, page.getByRole('button', { name: 'Begin extraction' }));
    await page.keyboard.press('Space');
    await expectHeadingFocused(page, 'extraction');
    await expect(page.getByRole('group', { name: 'Done' })).toBeVisible({ timeout: 45_000 });

    await tabTo(page, page.getByRole('button', { name: 'Continue', exact: true }));
    await page.keyboard.press('Space');
    await expectHeadingFocused(page, 'results');

    const invoiceNumber = page.getByLabel('Invoice number', { exact: true });
    await tabTo(page, invoiceNumber);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('KEY-0001');
    await page.keyboard.press('Tab');
    await expect(invoiceNumber).toHaveValue('KEY-0001');
    await expect(page.getByText('All changes saved.')).toBeVisible();

    await tabTo(page, page.getByRole('button', { name: 'Submit', exact: true }));
    await page.keyboard.press('Enter');
    await page.waitForURL(thanks);
    await expectSubmittedOnServer(session.bucket, 'invoice_number', 'KEY-0001');
  } finally {
    await partner.close();
  }
});

test('Back goes to the previous step from the keyboard, with focus on its heading', async ({
  page,
}) => {
  const session = await createSession(await createExtractor());
  await page.goto(session.fullPageUrl);
  await tabTo(page, page.getByRole('button', { name: 'Get started' }));
  await page.keyboard.press('Space');
  await expectHeadingFocused(page, 'bucket');
  await tabTo(page, page.getByRole('button', { name: 'Back' }));
  await page.keyboard.press('Enter');
  await expectHeadingFocused(page, 'introduction');
});
