/**
 * A theme changes what is drawn: the session's theme from the start, and the partner's
 * set-theme on top of it. Checked on the computed style and on a screenshot of the primary
 * button (the colour of its pixels).
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { expect, test, type Locator } from '@playwright/test';
import { labelDefaults } from '../../src/contract/labels.js';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import { createExtractor, createSession } from '../support/service.js';
import { buttonBackground, embedFrame, eventNames, hostPage } from './support-frame.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

/** The colour most of a screenshot's pixels have: the button's fill, around its label. */
async function dominantColour(locator: Locator): Promise<[number, number, number]> {
  const image = await loadImage(await locator.screenshot({ animations: 'disabled' }));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  const counts = new Map<string, number>();
  for (let index = 0; index < data.length; index += 4) {
    const key = `${data[index]},${data[index + 1]},${data[index + 2]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  return top.split(',').map(Number) as [number, number, number];
}

test('the session’s theme and the partner’s set-theme change what the frame draws', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, {
    allowedOrigins: [partner.origin],
    theme: { 'color-accent': 'rgb(10, 125, 90)', radius: '0px' },
  });
  await page.goto(hostPage(partner, '/theme', { url: session.embeddedUrl }));
  await expect.poll(() => eventNames(page)).toContain('ready');
  const frame = await embedFrame(page);
  const label = labelDefaults.introductionViewNextButtonLabel;
  const button = page
    .frameLocator('#slot iframe')
    .getByRole('button', { name: label, exact: true });

  expect(await buttonBackground(frame, label)).toBe('rgb(10, 125, 90)');
  expect(await dominantColour(button)).toEqual([10, 125, 90]);
  const sessionThemed = await button.screenshot({ animations: 'disabled' });

  await page.evaluate(() =>
    (window as unknown as { embedded: { setTheme(theme: object): void } }).embedded.setTheme({
      '--extractor-color-accent': 'rgb(190, 30, 110)',
    }),
  );
  await expect.poll(() => buttonBackground(frame, label)).toBe('rgb(190, 30, 110)');
  expect(await dominantColour(button)).toEqual([190, 30, 110]);
  expect((await button.screenshot({ animations: 'disabled' })).equals(sessionThemed)).toBe(false);
  // The session's other tokens stay beneath the partner's.
  expect(await button.evaluate((element) => getComputedStyle(element).borderTopLeftRadius)).toBe(
    '0px',
  );
});

test('a theme given to mount() is set once the frame is ready', async ({ page }) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(
    hostPage(partner, '/mount-theme', {
      url: session.embeddedUrl,
      theme: { 'color-accent': 'rgb(120, 60, 10)' },
    }),
  );
  const frame = await embedFrame(page);
  await expect
    .poll(() => buttonBackground(frame, labelDefaults.introductionViewNextButtonLabel))
    .toBe('rgb(120, 60, 10)');
});
