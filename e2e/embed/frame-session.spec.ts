/**
 * A session about to end: the frame warns the partner's page a minute ahead, the page
 * answers with a token its server minted for the same bucket, and the person goes on in
 * the same frame, without a reload, after the old token has stopped working.
 */
import { expect, test } from '@playwright/test';
import {
  expectUploaded,
  expectView,
  startFromIntroduction,
  uploadFixture,
} from '../support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import {
  api,
  createExtractor,
  createSession,
  serviceUrl,
  type Session,
} from '../support/service.js';
import { embedFrame, eventNames, hostPage, recorded } from './support-frame.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

test('the partner refreshes an expiring session and the flow goes on without a reload', async ({
  page,
}) => {
  const extractor = await createExtractor();
  // The shortest session there is (70 s): the warning comes ten seconds in.
  const first = await createSession(extractor, {
    allowedOrigins: [partner.origin],
    ttlSeconds: 70,
  });
  const firstId = (await api<{ id: string }>('/api/embed_sessions/current', { token: first.token }))
    .id;
  let fresh: Session | undefined;
  // The partner's server: a new session for the same extractor and bucket.
  await page.exposeFunction('mintSessionToken', async () => {
    fresh = await createSession(extractor, {
      bucket: first.bucket,
      allowedOrigins: [partner.origin],
    });
    return fresh.token;
  });
  await page.goto(
    hostPage(partner, '/refresh', {
      url: first.embeddedUrl,
      script: `embedded.on('session-expiring', async () => {
        embedded.refreshSession(await window.mintSessionToken());
      });`,
    }),
  );
  const app = page.frameLocator('#slot iframe');
  await startFromIntroduction(app);
  const frame = await embedFrame(page);
  await frame.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await expect.poll(() => eventNames(page), { timeout: 30_000 }).toContain('session-expiring');
  const warning = (await recorded(page)).events.find((event) => event.name === 'session-expiring')!;
  const expiresAt = (
    await api<{ expiresAt: string }>('/api/embed_sessions/current', { token: first.token })
  ).expiresAt;
  expect(warning.payload).toEqual({ expiresAt });

  // The app has taken the new token.
  await expect
    .poll(() => frame.evaluate(() => document.querySelector('extractor-app')!.session))
    .toBe(fresh?.token);
  // The old token ends (revoked here rather than waited out: the service answers 401 alike).
  await api(`/api/embed_sessions/${firstId}`, { method: 'DELETE' });
  const old = await fetch(`${serviceUrl()}/api/embed_sessions/current`, {
    headers: { Authorization: `Bearer ${first.token}` },
  });
  expect(old.status).toBe(401);

  await expectView(app, 'bucket');
  await uploadFixture(app, 'Orlen.txt');
  expect(
    await frame.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
  const bucket = await api<{ artifacts: string }>(first.bucket);
  expect(bucket.artifacts).toContain('Orlen.txt');
  await expectUploaded(app, 'Orlen.txt');
  expect((await eventNames(page)).filter((name) => name === 'ready')).toHaveLength(1);
});

test('a session that ended unanswered tells the partner, whose new session goes on without a reload', async ({
  page,
}) => {
  const extractor = await createExtractor();
  const first = await createSession(extractor, {
    allowedOrigins: [partner.origin],
    ttlSeconds: 600,
  });
  const { id: firstId, expiresAt } = await api<{ id: string; expiresAt: string }>(
    '/api/embed_sessions/current',
    { token: first.token },
  );
  let fresh: Session | undefined;
  await page.exposeFunction('mintSessionToken', async () => {
    fresh = await createSession(extractor, {
      bucket: first.bucket,
      allowedOrigins: [partner.origin],
    });
    return fresh.token;
  });
  // The partner answers only the end, not the warning: a laptop that slept through it.
  await page.clock.install();
  await page.goto(
    hostPage(partner, '/expired', {
      url: first.embeddedUrl,
      script: `embedded.on('session-expired', async () => {
        embedded.refreshSession(await window.mintSessionToken());
      });`,
    }),
  );
  const app = page.frameLocator('#slot iframe');
  await startFromIntroduction(app);
  const frame = await embedFrame(page);
  await frame.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  // The lid opens eleven minutes later; the service ends the old token as time would.
  await api(`/api/embed_sessions/${firstId}`, { method: 'DELETE' });
  await page.clock.fastForward('11:00');
  await expect.poll(() => eventNames(page)).toContain('session-expired');
  const ended = (await recorded(page)).events.find((event) => event.name === 'session-expired')!;
  expect(ended.payload).toEqual({ expiresAt });

  await expect
    .poll(() => frame.evaluate(() => document.querySelector('extractor-app')!.session))
    .toBe(fresh?.token);
  await expectView(app, 'bucket');
  await uploadFixture(app, 'Orlen.txt');
  await expectUploaded(app, 'Orlen.txt');
  const bucket = await api<{ artifacts: string }>(first.bucket);
  expect(bucket.artifacts).toContain('Orlen.txt');
  expect(
    await frame.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
  expect((await eventNames(page)).filter((name) => name === 'ready')).toHaveLength(1);
});
