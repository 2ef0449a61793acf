/**
 * What embed.js tells a partner's page when its frame cannot show the interface: a page on
 * an origin the session does not allow, or a session that has ended, gets a plain reason
 * through `onError` and in its container, instead of the browser's broken-frame page. A
 * frame that loads says nothing of the kind, and takes the page's `locale` and `strings`.
 */
import { expect, test, type Page } from '@playwright/test';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import { api, createExtractor, createSession } from '../support/service.js';
import { embedFrame, eventNames, hostPage } from './support-frame.js';

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

const recordedErrors = (page: Page) =>
  page.evaluate(() => (window as unknown as { recordedErrors: unknown[] }).recordedErrors);

test('a page on an origin the session does not allow is told so, in plain words', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(
    hostPage(stranger, '/refused', { url: session.embeddedUrl, readyTimeoutMs: 1500 }),
  );
  const notice = page.locator('#slot').getByRole('alert');
  await expect(notice).toContainText(`cannot be shown on ${stranger.origin}`);
  await expect(notice).toContainText('allowedOrigins');
  // The browser's broken-frame page is not left on show.
  await expect(page.locator('#slot iframe')).toBeHidden();
  expect(await recordedErrors(page)).toEqual([
    { code: 'origin-not-allowed', message: await notice.textContent() },
  ]);
});

test('a refused frame and an ended session are explained once the frame loads, not after the wait', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  // A wait no test sits through: the explanation cannot come from its end.
  await page.goto(
    hostPage(stranger, '/refused-at-once', { url: session.embeddedUrl, readyTimeoutMs: 600_000 }),
  );
  const notice = page.locator('#slot').getByRole('alert');
  await expect(notice).toContainText(`cannot be shown on ${stranger.origin}`);
  await expect(page.locator('#slot iframe')).toBeHidden();
  expect(await recordedErrors(page)).toHaveLength(1);

  const ended = await createSession(extractor, { allowedOrigins: [partner.origin] });
  const { id } = await api<{ id: string }>('/api/embed_sessions/current', { token: ended.token });
  await api(`/api/embed_sessions/${id}`, { method: 'DELETE' });
  await page.goto(
    hostPage(partner, '/ended-at-once', { url: ended.embeddedUrl, readyTimeoutMs: 600_000 }),
  );
  await expect(page.locator('#slot').getByRole('alert')).toContainText('expired or was revoked');
  expect(await recordedErrors(page)).toEqual([
    { code: 'session-ended', message: expect.stringContaining('expired') as unknown },
  ]);
});

test('a page whose session has ended is told so', async ({ page }) => {
  const extractor = await createExtractor();
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  const { id } = await api<{ id: string }>('/api/embed_sessions/current', {
    token: session.token,
  });
  await api(`/api/embed_sessions/${id}`, { method: 'DELETE' });
  await page.goto(hostPage(partner, '/ended', { url: session.embeddedUrl, readyTimeoutMs: 1500 }));
  await expect(page.locator('#slot').getByRole('alert')).toContainText('expired or was revoked');
  await expect(page.locator('#slot iframe')).toBeHidden();
  expect(await recordedErrors(page)).toEqual([
    { code: 'session-ended', message: expect.stringContaining('expired') as unknown },
  ]);
});

test('a frame that loads reports no error, and takes the locale and strings of the page', async ({
  page,
}) => {
  const extractor = await createExtractor();
  // The session names French; the page's own choice, German, comes first.
  const session = await createSession(extractor, {
    allowedOrigins: [partner.origin],
    locale: 'fr',
  });
  const strings = { 'upload.title': 'Ihre Rechnungen' };
  await page.goto(hostPage(partner, '/loads', { url: session.embeddedUrl, locale: 'de', strings }));
  await expect.poll(() => eventNames(page)).toContain('ready');
  const frame = await embedFrame(page);
  const app = frame.locator('extractor-app');
  await expect(app).toHaveAttribute('locale', 'de');
  await expect
    .poll(() => app.evaluate((element) => (element as { strings?: unknown }).strings))
    .toEqual(strings);
  await expect(page.locator('#slot').getByRole('alert')).toHaveCount(0);
  expect(await recordedErrors(page)).toEqual([]);
});
