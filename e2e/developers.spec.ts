/**
 * /developers in a real browser: its copy buttons copy each code block's text, from the
 * script file its Content-Security-Policy allows, with no violation of that policy.
 */
import { expect, test } from '@playwright/test';
import { serviceUrl } from './support/service.js';

test('each code block has a copy button that copies its text, with no CSP violation', async ({
  page,
  context,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: serviceUrl(),
  });
  const response = await page.goto(`${serviceUrl()}/developers`);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  // The page reports violations to itself too: count them, whatever the console says.
  await page.evaluate(() => {
    const page = window as unknown as { violations: string[] };
    page.violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      page.violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });

  const blocks = page.locator('pre');
  const buttons = page.getByRole('button', { name: 'Copy' });
  expect(await blocks.count()).toBeGreaterThan(10);
  await expect(buttons).toHaveCount(await blocks.count());

  const quickStart = page.locator('#quick-start');
  const block = quickStart.locator('pre').nth(1);
  const button = quickStart.locator('button.copy').nth(1);
  await button.click();
  await expect(button).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await block.textContent());
  expect(copied).toContain('npm run --silent token -- create --name "quick start"');
  // The address the page is served from (no PUBLIC_BASE_URL here), not the default one.
  expect(copied).toContain(`export EXTRACTOR=${serviceUrl()}\n`);
  await expect(page.locator('pre', { hasText: 'localhost:8787' })).toHaveCount(0);

  // Another block copies its own text.
  const webhooks = page.locator('#verifying-webhooks');
  await webhooks.getByRole('button', { name: 'Copy' }).first().click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    "import { Webhook } from 'standardwebhooks';",
  );

  expect(
    await page.evaluate(() => (window as unknown as { violations: string[] }).violations),
  ).toEqual([]);
  expect(problems).toEqual([]);
});

test('on a phone, no copy button covers its block’s first line and the page keeps its width', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${serviceUrl()}/developers`);
  await expect(page.getByRole('button', { name: 'Copy' }).first()).toBeVisible();
  const covered = await page.evaluate(() =>
    [...document.querySelectorAll('.code')].flatMap((wrapper) => {
      const button = wrapper.querySelector('.copy')!.getBoundingClientRect();
      const block = wrapper.querySelector('pre')!;
      // Where the block's text begins: a first line that scrolls passes under the button.
      const textTop =
        block.getBoundingClientRect().top + parseFloat(getComputedStyle(block).paddingTop);
      return button.bottom > textTop ? [block.textContent!.split('\n')[0]] : [];
    }),
  );
  expect(covered).toEqual([]);
  // Wide code and tables scroll in their own boxes; the page does not scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
  const tablesOutside = await page.evaluate(
    () =>
      [...document.querySelectorAll('table')].filter((table) => !table.closest('.scroll')).length,
  );
  expect(tablesOutside).toBe(0);
});
