/**
 * The events of the iFrame reach the partner's page through embed.js, each a message of our
 * namespace and version, from the service's origin and the frame's window, with the frame's
 * instance id; the partner's page records every message event it gets.
 */
import { expect, test } from '@playwright/test';
import {
  beginAndReachResults,
  editField,
  expectSubmittedOnServer,
  startFromIntroduction,
  uploadFixture,
} from '../support/journey-steps.js';
import { startPartnerSite, type PartnerSite } from '../support/partner-server.js';
import { createExtractor, createSession } from '../support/service.js';
import { standInModels } from '../../src/server/testing/stand-in-provider.js';
import { eventNames, hostPage, recorded, type Recorded } from './support-frame.js';

let partner: PartnerSite;

test.beforeAll(async () => {
  partner = await startPartnerSite({ host: '127.0.0.2' });
});

test.afterAll(async () => {
  await partner.close();
});

/** Every message from the embed frame is ours, from the service's origin, for this frame. */
function expectWellAddressed(log: Recorded, embeddedUrl: string): void {
  const fromEmbed = log.messages.filter((message) => message.fromEmbed);
  expect(fromEmbed.length).toBeGreaterThan(0);
  expect(log.instanceId).toMatch(/^[0-9a-f]{24}$/);
  for (const message of fromEmbed) {
    expect(message.origin).toBe(new URL(embeddedUrl).origin);
    expect(message.data).toMatchObject({ version: 1, instanceId: log.instanceId });
    expect(message.data.type).toMatch(/^extractor:[a-z-]+$/);
  }
  // embed.js handed on exactly the messages of its frame, in order.
  expect(log.events.map((event) => `extractor:${event.name}`)).toEqual(
    fromEmbed.map((message) => message.data.type),
  );
}

test('the journey’s events reach the partner with the right origin and instance id', async ({
  page,
}) => {
  const extractor = await createExtractor({
    strategy: 'llm',
    model: standInModels.slow,
    chunkSize: 200,
  });
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(hostPage(partner, '/events', { url: session.embeddedUrl }));
  const app = page.frameLocator('#slot iframe');

  await expect.poll(() => eventNames(page)).toContain('ready');
  const ready = (await recorded(page)).events.find((event) => event.name === 'ready')!;
  expect(ready.payload).toMatchObject({
    step: 'introduction',
    bucket: session.bucket,
    savedExtractor: `/api/extractors/${extractor}`,
  });

  await startFromIntroduction(app);
  await uploadFixture(app, 'Orlen.txt');
  await beginAndReachResults(app);
  // The stand-in model finds nothing, and the schema wants every value: fill them in.
  await app.getByLabel('Date', { exact: true }).fill('2024-05-01');
  await app.getByLabel('Total', { exact: true }).fill('12.5');
  await app.getByLabel('Currency', { exact: true }).fill('EUR');
  await editField(app, 'Invoice number', 'FRAME-12');
  await app.getByRole('button', { name: 'Submit', exact: true }).click();
  await expectSubmittedOnServer(session.bucket, 'invoice_number', 'FRAME-12');
  await expect.poll(() => eventNames(page)).toContain('results-submitted');

  const log = await recorded(page);
  expectWellAddressed(log, session.embeddedUrl);
  const names = log.events.map((event) => event.name);
  for (const name of [
    'ready',
    'resize',
    'step-changed',
    'files-uploaded',
    'run-started',
    'run-progress',
    'run-completed',
    'results-changed',
    'results-submitted',
  ] as const)
    expect(names, name).toContain(name);
  const payloadOf = (name: string) => log.events.find((event) => event.name === name)!.payload;
  expect(payloadOf('step-changed')).toEqual({ step: 'bucket', previous: 'introduction' });
  expect(payloadOf('files-uploaded')).toMatchObject({ files: [{ name: 'Orlen.txt' }] });
  expect(payloadOf('run-completed')).toMatchObject({ run: { status: 'completed' } });
  expect(payloadOf('results-changed')).toMatchObject({
    data: { documents: [{ name: 'Orlen.txt', data: { invoice_number: 'FRAME-12' } }] },
  });
  expect(payloadOf('results-submitted')).toMatchObject({ submission: { redirectUrl: null } });
  // Progress comes in order, between the start and the end of the run.
  const progress = log.events
    .filter((event) => event.name === 'run-progress')
    .map((event) => (event.payload as { run: { chunksCompleted: number } }).run.chunksCompleted);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
  expect(names.indexOf('run-started')).toBeLessThan(names.indexOf('run-progress'));
  expect(names.lastIndexOf('run-progress')).toBeLessThan(names.indexOf('run-completed'));
});

test('a failed run reaches the partner as run-failed', async ({ page }) => {
  const extractor = await createExtractor({ strategy: 'llm', model: standInModels.refusing });
  const session = await createSession(extractor, { allowedOrigins: [partner.origin] });
  await page.goto(hostPage(partner, '/failing', { url: session.embeddedUrl }));
  const app = page.frameLocator('#slot iframe');
  await startFromIntroduction(app);
  await uploadFixture(app, 'Orlen.txt');
  await app.getByRole('button', { name: 'Begin extraction' }).click();
  await expect.poll(() => eventNames(page), { timeout: 30_000 }).toContain('run-failed');
  const log = await recorded(page);
  expectWellAddressed(log, session.embeddedUrl);
  expect(log.events.find((event) => event.name === 'run-failed')!.payload).toMatchObject({
    run: { status: 'failed' },
  });
});
