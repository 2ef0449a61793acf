/**
 * The iFrame sizes itself from its content through embed.js: as tall as what it shows, no
 * scrollbar, following the content from step to step, and settling (no growth loop).
 */
import { expect, test } from '@playwright/test';
import { expectView, startFromIntroduction, uploadFixture } from '../support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import { createExtractor, createSession } from '../support/service.js';
import { hostPage, settledFrameSize } from './support-frame.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

test('the frame is as tall as its content, follows it from step to step, and settles', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(hostPage(partner, '/sizing', { url: session.embeddedUrl }));
  const app = page.frameLocator('#slot iframe');

  await expectView(app, 'introduction');
  const introduction = await settledFrameSize(page);
  // Not the browser's default 150 px: the frame took its content's height.
  expect(introduction.frameHeight).toBeGreaterThan(150);

  await startFromIntroduction(app);
  const bucket = await settledFrameSize(page);
  expect(bucket.frameHeight).not.toBe(introduction.frameHeight);

  await uploadFixture(app, 'Orlen.txt');
  const withFile = await settledFrameSize(page);
  expect(withFile.frameHeight).toBeGreaterThan(bucket.frameHeight);

  // Back to the introduction: the frame shrinks again, to exactly what it was.
  await app.getByRole('button', { name: 'Back', exact: true }).click();
  await expectView(app, 'introduction');
  const again = await settledFrameSize(page);
  expect(again.frameHeight).toBe(introduction.frameHeight);

  // A growth loop would send resize after resize; four views and an upload take a handful.
  expect(again.resizes).toBeLessThan(20);
});

test('the frame follows a change of the partner page’s width, and settles again', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(hostPage(partner, '/narrowing', { url: session.embeddedUrl }));
  await expectView(page.frameLocator('#slot iframe'), 'introduction');
  const wide = await settledFrameSize(page);
  await page.evaluate(() => document.getElementById('slot')!.style.setProperty('width', '300px'));
  await expect
    .poll(async () => (await settledFrameSize(page)).frameHeight)
    .toBeGreaterThan(wide.frameHeight);
});
