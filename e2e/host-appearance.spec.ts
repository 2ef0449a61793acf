/**
 * The element and the iFrame on a partner's light page, seen by a person whose system is
 * dark (Playwright's `colorScheme: 'dark'`): with default settings both are light and
 * transparent over the page, not a dark box, and axe finds nothing wrong; the same with a
 * theme that sets light colours, even when the partner asks the frame to follow the system.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { labelDefaults } from '../src/contract/labels.js';
import { hostPage } from './embed/support-frame.js';
import { expectNoViolations } from './support/axe.js';
import { startPartnerSite, type PartnerSite } from './support/partner-server.js';
import { createExtractor, createSession, serviceUrl } from './support/service.js';

test.use({ colorScheme: 'dark' });

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

const lightTheme = {
  'color-background': '#ffffff',
  'color-surface': '#ffffff',
  'color-surface-subtle': '#f4f5f7',
  'color-border': '#c9ced6',
  'color-accent': '#0a7d5a',
};

/** A partner's light page (it declares no colour scheme) with the custom element on it. */
function elementPage(path: string, token: string, attributes = ''): string {
  const service = serviceUrl();
  return partner.page(
    path,
    `<!doctype html>
    <html lang="en">
      <meta charset="utf-8">
      <title>ACME partner portal</title>
      <style>body { margin: 0; padding: 1rem; background: #fff; color: #111; font-family: Georgia, serif; }</style>
      <script type="module" src="${service}/sdk/extractor.mjs"></script>
      <main>
        <h1>ACME partner portal</h1>
        <extractor-app base-url="${service}" session="${token}" ${attributes}></extractor-app>
      </main>
    </html>`,
  );
}

/** The share of a screenshot's pixels that are near white. */
async function whiteShare(locator: Locator): Promise<number> {
  const image = await loadImage(await locator.screenshot({ animations: 'disabled' }));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  let white = 0;
  for (let index = 0; index < data.length; index += 4)
    if (data[index]! > 240 && data[index + 1]! > 240 && data[index + 2]! > 240) white++;
  return white / (data.length / 4);
}

async function sessionFor(theme?: Record<string, string>) {
  const extractor = await createExtractor();
  return createSession(extractor, {
    allowedOrigins: [partner.origin],
    ...(theme ? { theme } : {}),
  });
}

/** The introduction is on screen, its text colours checked against the theme and scheme. */
async function expectIntroduction(page: Page | ReturnType<Page['frameLocator']>) {
  await expect(
    page.getByRole('heading', { name: labelDefaults.introductionViewHeading }),
  ).toBeVisible();
  await page
    .locator('extractor-app')
    .evaluate(
      (element: HTMLElement & { updateComplete: Promise<boolean> }) => element.updateComplete,
    );
}

test('the element on a light page under a dark system: light, in the page’s font, no violations', async ({
  page,
}) => {
  const session = await sessionFor();
  await page.goto(elementPage('/element', session.token));
  await expectIntroduction(page);
  const heading = page.locator('extractor-app [part~="heading"]').first();
  const style = await heading.evaluate((element) => {
    const computed = getComputedStyle(element);
    return { color: computed.color, font: computed.fontFamily };
  });
  expect(style).toEqual({ color: 'rgb(27, 34, 48)', font: 'Georgia, serif' });
  expect(await whiteShare(page.locator('extractor-app'))).toBeGreaterThan(0.7);
  await expectNoViolations(page, 'element, default settings');
});

test('the iFrame on a light page under a dark system: transparent and light, no violations', async ({
  page,
}) => {
  const session = await sessionFor();
  await page.goto(hostPage(partner, '/frame', { url: session.embeddedUrl }));
  const frame = page.frameLocator('#slot iframe');
  await expectIntroduction(frame);
  expect(await whiteShare(page.locator('#slot iframe'))).toBeGreaterThan(0.7);
  await expectNoViolations(page, 'iFrame, default settings');
});

test('a theme with light colours stays readable, also when the frame follows the dark system', async ({
  page,
}) => {
  const session = await sessionFor(lightTheme);
  await page.goto(elementPage('/element-themed', session.token));
  await expectIntroduction(page);
  await expectNoViolations(page, 'element, light theme');

  await page.goto(elementPage('/element-themed-auto', session.token, 'color-scheme="auto"'));
  await expectIntroduction(page);
  await expectNoViolations(page, 'element, light theme, following the dark system');

  await page.goto(hostPage(partner, '/frame-themed', { url: session.embeddedUrl }));
  await expectIntroduction(page.frameLocator('#slot iframe'));
  await expectNoViolations(page, 'iFrame, light theme');

  await page.goto(
    hostPage(partner, '/frame-themed-auto', { url: session.embeddedUrl, colorScheme: 'auto' }),
  );
  await expectIntroduction(page.frameLocator('#slot iframe'));
  await expectNoViolations(page, 'iFrame, light theme, following the dark system');
});

test('embed.js passes colorScheme to the frame, which follows it', async ({ page }) => {
  const session = await sessionFor();
  for (const [scheme, used] of [
    ['dark', 'dark'],
    ['auto', 'light dark'],
  ] as const) {
    const path = `/frame-${scheme}`;
    await page.goto(hostPage(partner, path, { url: session.embeddedUrl, colorScheme: scheme }));
    const frame = page.frameLocator('#slot iframe');
    await expectIntroduction(frame);
    const inside = await frame
      .locator('extractor-app')
      .evaluate((app) => [
        getComputedStyle(document.documentElement).colorScheme,
        getComputedStyle(app).colorScheme,
      ]);
    expect(inside, scheme).toEqual([used, used]);
    const headingColor = await frame
      .locator('extractor-app [part~="heading"]')
      .first()
      .evaluate((element) => getComputedStyle(element).color);
    // Under a dark system both dark and auto draw light text on dark.
    expect(headingColor, scheme).toBe('rgb(230, 233, 239)');
  }
});

test('the session’s colorScheme reaches the frame and the element; the host’s own choice comes first', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, {
    allowedOrigins: [partner.origin],
    colorScheme: 'dark',
  });
  await page.goto(hostPage(partner, '/frame-session-dark', { url: session.embeddedUrl }));
  const frame = page.frameLocator('#slot iframe');
  await expectIntroduction(frame);
  await expect
    .poll(() =>
      frame
        .locator('extractor-app')
        .evaluate((app) => [
          getComputedStyle(document.documentElement).colorScheme,
          getComputedStyle(app).colorScheme,
        ]),
    )
    .toEqual(['dark', 'dark']);

  const element = await createSession(extractor, {
    allowedOrigins: [partner.origin],
    colorScheme: 'dark',
  });
  await page.goto(elementPage('/element-session-dark', element.token));
  await expectIntroduction(page);
  expect(
    await page.locator('extractor-app').evaluate((app) => getComputedStyle(app).colorScheme),
  ).toBe('dark');
  const pinned = await createSession(extractor, {
    allowedOrigins: [partner.origin],
    colorScheme: 'dark',
  });
  await page.goto(elementPage('/element-pinned-light', pinned.token, 'color-scheme="light"'));
  await expectIntroduction(page);
  expect(
    await page.locator('extractor-app').evaluate((app) => getComputedStyle(app).colorScheme),
  ).toBe('light');
});
