/**
 * The hosted full page when its dark scheme comes from the session (`colorScheme: "dark"`,
 * or `"auto"` under a dark system), opened from `fullPageUrl` exactly as a partner hands it
 * out: the page turns dark only once the session is loaded, after the element first
 * measured its colours, so the element must measure again. Every step, and a reload, is
 * read light on dark, and axe finds nothing wrong.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './support/axe.js';
import { expectView, startFromIntroduction, uploadFixture } from './support/journey-steps.js';
import { createExtractor, createSession } from './support/service.js';

/** The lightness (0 black, 1 white) of the view's heading as drawn. */
async function headingLightness(page: Page): Promise<number> {
  return page
    .locator('extractor-app [part~="heading"]')
    .first()
    .evaluate((heading) => {
      const [r, g, b] = getComputedStyle(heading)
        .color.match(/[\d.]+/g)!
        .map(Number);
      return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
    });
}

async function expectReadableDark(page: Page, what: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme))
    .toContain('dark');
  await expect
    .poll(() => headingLightness(page), { message: `${what}: light text` })
    .toBeGreaterThan(0.6);
  await expectNoViolations(page, what);
}

const cases = [
  { sessionScheme: 'dark', system: 'light' },
  { sessionScheme: 'auto', system: 'dark' },
] as const;

for (const { sessionScheme, system } of cases) {
  test(`the session's "${sessionScheme}" under a ${system} system: every step readable`, async ({
    page,
  }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: system });
    const session = await createSession(await createExtractor(), {
      colorScheme: sessionScheme,
    });
    await page.goto(session.fullPageUrl);
    await expectView(page, 'introduction');
    await expectReadableDark(page, 'introduction');
    await page.reload();
    await expectView(page, 'introduction');
    await expectReadableDark(page, 'introduction, reloaded');

    await startFromIntroduction(page);
    await uploadFixture(page, 'Orlen.txt');
    await expectReadableDark(page, 'bucket');
    await page.getByRole('button', { name: 'Begin extraction' }).click();
    await expectView(page, 'extraction');
    await expect(page.getByRole('group', { name: 'Done' })).toBeVisible({ timeout: 45_000 });
    await expectReadableDark(page, 'extraction');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectView(page, 'results');
    await expectReadableDark(page, 'results');
    await page.reload();
    await expectView(page, 'results');
    await expectReadableDark(page, 'results, reloaded');
  });
}
