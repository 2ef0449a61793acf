/**
 * Who may frame the embed page and who may command it. The session's allowed origins are
 * the only ones that may frame it (its CSP's frame-ancestors); the full page may be framed
 * by nobody. Inside a frame, commands count only from the parent window at an allowed
 * origin: a sibling frame, from a third origin or even from the partner's own, is ignored.
 */
import { expect, test } from '@playwright/test';
import { labelDefaults } from '../../src/contract/labels.js';
import { expectView } from '../support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import { createExtractor, createSession } from '../support/service.js';
import { buttonBackground, embedFrame, eventNames, hostPage, recorded } from './support-frame.js';

let partner: PartnerSite;
let stranger: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
  stranger = await startPartnerSite({ host: '127.0.0.3' });
});

test.afterAll(async () => {
  await partner.close();
  await stranger.close();
});

test('an origin the session does not allow cannot frame the embed page', async ({ page }) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  const refused = page.waitForEvent('console', (message) =>
    /frame-ancestors/i.test(message.text()),
  );
  await page.goto(hostPage(stranger, '/not-allowed', { url: session.embeddedUrl }));
  await refused;
  // The frame holds the browser's error page, never our document or app.
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
  await expect.poll(() => frame.url()).not.toContain('/embed/');
  await expect(
    page
      .frameLocator('#slot iframe')
      .getByRole('heading', { name: labelDefaults.introductionViewHeading }),
  ).toHaveCount(0);
  expect((await recorded(page)).messages.filter((message) => message.fromEmbed)).toEqual([]);
});

test('nobody may frame the full page, not even an origin the session allows', async ({ page }) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  const refused = page.waitForEvent('console', (message) =>
    /frame-ancestors|Refused to display/i.test(message.text()),
  );
  await page.goto(
    partner.page(
      '/full-page',
      `<!doctype html><title>Full page</title><iframe src="${session.fullPageUrl}" title="Full"></iframe>`,
    ),
  );
  await refused;
  await expect(
    page
      .frameLocator('iframe[title="Full"]')
      .getByRole('heading', { name: labelDefaults.introductionViewHeading }),
  ).toHaveCount(0);
});

test('commands from a sibling frame are ignored; the parent’s are obeyed', async ({ page }) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  const siblingPage = '<!doctype html><title>Sibling</title><p>sibling</p>';
  const thirdOrigin = stranger.page('/sibling', siblingPage);
  const sameOrigin = partner.page('/sibling', siblingPage);
  await page.goto(
    hostPage(partner, '/siblings', {
      url: session.embeddedUrl,
      extra: `<iframe id="third" src="${thirdOrigin}" title="Third-party widget"></iframe>
        <iframe id="own" src="${sameOrigin}" title="Partner widget"></iframe>`,
    }),
  );
  const app = page.frameLocator('#slot iframe');
  await expect.poll(() => eventNames(page)).toContain('ready');
  const frame = await embedFrame(page);
  const nextButton = labelDefaults.introductionViewNextButtonLabel;
  const colourBefore = await buttonBackground(frame, nextButton);
  // Count what reaches the embed frame, to know the siblings' messages have arrived.
  await frame.evaluate(() => {
    const seen = ((window as unknown as { seen: string[] }).seen = [] as string[]);
    window.addEventListener('message', (event) =>
      seen.push(String((event.data as { type?: string })?.type)),
    );
  });

  const { instanceId } = await recorded(page);
  for (const url of [thirdOrigin, sameOrigin]) {
    const sibling = page.frames().find((candidate) => candidate.url() === url)!;
    await sibling.evaluate((id) => {
      // A sibling can reach every frame of the parent, the embed frame among them, and try.
      const targets = Array.from(
        { length: window.parent.frames.length },
        (_, index) => window.parent.frames[index]!,
      );
      const send = (type: string, payload: unknown) => {
        for (const target of targets.filter((candidate) => candidate !== window))
          target.postMessage(
            { type: `extractor:${type}`, version: 1, instanceId: id, payload },
            '*',
          );
      };
      send('set-theme', { theme: { 'color-accent': 'rgb(200, 0, 100)' } });
      send('go-to-step', { step: 'bucket' });
    }, instanceId);
  }
  await expect
    .poll(() => frame.evaluate(() => (window as unknown as { seen: string[] }).seen.length))
    .toBe(4);
  await expectView(app, 'introduction');
  expect(await buttonBackground(frame, nextButton)).toBe(colourBefore);
  expect(await eventNames(page)).not.toContain('step-changed');

  // The same commands from the parent are obeyed.
  await page.evaluate(() => {
    const { embedded } = window as unknown as {
      embedded: { setTheme(theme: object): void; goToStep(step: string): void };
    };
    embedded.setTheme({ '--extractor-color-accent': 'rgb(200, 0, 100)' });
    embedded.goToStep('bucket');
  });
  await expectView(app, 'bucket');
  await expect.poll(() => eventNames(page)).toContain('step-changed');
});
