import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  adminRequest,
  completedRun,
  createExtractor,
  mintSession,
  textFile,
  workingRun,
} from '../../client/testing/fixtures.js';
import type { EmbedSession } from '../../contract/resources.js';
import { defineAllExtractorElements } from '../../embed/define.js';
import type { ExtractorEventName } from '../events.js';
import { $ } from '../testing/mount.js';
import type { ExtractorApp } from './app.js';

const apps: ExtractorApp[] = [];

afterEach(() => {
  apps.splice(0).forEach((app) => app.remove());
  sessionStorage.clear();
});

async function mountApp(
  attributes: Record<string, string>,
): Promise<{ app: ExtractorApp; events: CustomEvent[] }> {
  await defineAllExtractorElements();
  const app = document.createElement('extractor-app');
  const events: CustomEvent[] = [];
  const types: ExtractorEventName[] = [
    'extractor-session-loaded',
    'extractor-step-changed',
    'extractor-files-uploaded',
    'extractor-run-started',
    'extractor-run-completed',
    'extractor-results-changed',
    'extractor-results-submitted',
  ];
  for (const type of types)
    app.addEventListener(type, (event) => events.push(event as CustomEvent));
  for (const [name, value] of Object.entries(attributes)) app.setAttribute(name, value);
  document.body.append(app);
  apps.push(app);
  return { app, events };
}

/** The view on screen, once the app has loaded. */
async function currentView(
  app: ExtractorApp,
): Promise<HTMLElement & { updateComplete: Promise<unknown> }> {
  return vi.waitFor(
    () => $<HTMLElement & { updateComplete: Promise<unknown> }>(app, '[part~="view"]'),
    { timeout: 10_000 },
  );
}

async function heading(app: ExtractorApp): Promise<string | undefined> {
  const view = await currentView(app);
  await view.updateComplete;
  return view.shadowRoot?.querySelector('[part~="heading"]')?.textContent?.trim();
}

/** The element that has focus, looking through shadow roots. */
function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

describe('<extractor-app>', () => {
  it('refuses a personal access token with a plain message, before any request', async () => {
    const { app } = await mountApp({ session: 'xpat_do-not-put-me-in-a-page' });
    await vi.waitFor(() =>
      expect($(app, '[part~="status"]').textContent).toMatch(/personal access token/),
    );
    expect($(app, '[part~="status"]').textContent).toMatch(/must stay on your server/);
  });

  it('says so when the session is missing, or no longer valid', async () => {
    const missing = await mountApp({});
    await vi.waitFor(() =>
      expect($(missing.app, '[part~="status"]').textContent).toMatch(/needs an embed session/),
    );
    const expired = await mountApp({ session: 'xses_not-a-real-session' });
    await vi.waitFor(() =>
      expect($(expired.app, '[part~="status"]').textContent).toMatch(
        /session has ended or is not valid/,
      ),
    );
  });

  it('takes a person through the whole flow, with focus on each new heading', async () => {
    const extractor = await createExtractor({
      introductionViewHeading: 'Hello',
      bucketViewHeading: 'Your files',
      resultsViewHeading: 'Your data',
    });
    const session = await mintSession(extractor);
    const { app, events } = await mountApp({ session: session.token });
    expect(await heading(app)).toBe('Hello');
    expect(events.map((event) => event.type)).toEqual(['extractor-session-loaded']);
    expect($(app, '[part~="steps"]').textContent).toContain('Step 1 of 4');

    await userEvent.click(
      (await currentView(app)).shadowRoot!.querySelector<HTMLElement>('[part~="next-button"]')!,
    );
    await vi.waitFor(async () => expect(await heading(app)).toBe('Your files'));
    await vi.waitFor(() => expect(deepActiveElement()?.textContent?.trim()).toBe('Your files'));
    expect(app.step).toBe('bucket');

    const bucketView = await currentView(app);
    await userEvent.upload(
      bucketView.shadowRoot!.querySelector<HTMLInputElement>('input[type="file"]')!,
      [textFile()],
    );
    await vi.waitFor(() =>
      expect(bucketView.shadowRoot!.querySelectorAll('.file-icon.done')).toHaveLength(1),
    );
    await userEvent.click(
      bucketView.shadowRoot!.querySelector<HTMLElement>('[part~="begin-button"]')!,
    );
    await vi.waitFor(() => expect(app.step).toBe('extraction'));
    await vi.waitFor(
      () => expect(events.some((event) => event.type === 'extractor-run-completed')).toBe(true),
      { timeout: 15_000 },
    );

    const extractionView = await currentView(app);
    await vi.waitFor(() =>
      expect(extractionView.shadowRoot!.querySelector('[part~="continue-button"]')).not.toBeNull(),
    );
    await userEvent.click(
      extractionView.shadowRoot!.querySelector<HTMLElement>('[part~="continue-button"]')!,
    );
    await vi.waitFor(async () => expect(await heading(app)).toBe('Your data'));
    await vi.waitFor(() => expect(deepActiveElement()?.textContent?.trim()).toBe('Your data'));
    expect(
      events
        .filter((event) => event.type === 'extractor-step-changed')
        .map((event) => event.detail.step),
    ).toEqual(['bucket', 'extraction', 'results']);
    expect(events.map((event) => event.type)).toContain('extractor-files-uploaded');
    expect(events.map((event) => event.type)).toContain('extractor-run-started');
  });

  it('comes back where the person was after a reload, from the service’s state', async () => {
    const done = await completedRun();
    const session: EmbedSession = await mintSession(done.extractor, { bucket: done.run.bucket });
    const first = await mountApp({ session: session.token });
    expect(await heading(first.app)).toBe('Review your data');
    first.app.remove();

    const working = await workingRun();
    const running = await mountApp({ session: working.session.token });
    await vi.waitFor(() => expect(running.app.step).toBe('extraction'));
    running.app.remove();

    // A person who went back to the files sees the files again after a reload.
    const again = await mountApp({ session: session.token });
    await vi.waitFor(() => expect(again.app.step).toBe('results'));
    await again.app.goToStep('bucket');
    again.app.remove();
    const reloaded = await mountApp({ session: session.token });
    await vi.waitFor(() => expect(reloaded.app.step).toBe('bucket'));
    expect(reloaded.events[0]?.detail.step).toBe('bucket');
  });

  it('follows a run live and tells the page when it completes', async () => {
    const working = await workingRun();
    const { app, events } = await mountApp({ session: working.session.token });
    await vi.waitFor(() => expect(app.step).toBe('extraction'));
    const view = await currentView(app);
    await vi.waitFor(
      () => expect(view.shadowRoot!.querySelector('.badge')?.textContent?.trim()).toBe('Done'),
      { timeout: 20_000 },
    );
    expect(events.map((event) => event.type)).toContain('extractor-run-completed');
  });

  it('takes a new token for its session without starting over', async () => {
    const done = await completedRun();
    const first = await mintSession(done.extractor, { bucket: done.run.bucket });
    const { app } = await mountApp({ session: first.token });
    await vi.waitFor(() => expect(app.step).toBe('results'));
    const view = await currentView(app);
    const second = await mintSession(done.extractor, { bucket: done.run.bucket });
    app.session = second.token;
    await app.updateComplete;
    expect($(app, '[part~="view"]')).toBe(view);
    const loaded = new Promise((resolve) =>
      app.addEventListener('extractor-session-loaded', resolve, { once: true }),
    );
    await loaded;
    expect($(app, '[part~="view"]')).toBe(view);
    expect(app.step).toBe('results');
  });

  it('applies the session’s theme to its custom properties', async () => {
    const extractor = await createExtractor();
    const session = await adminRequest<EmbedSession>('POST', '/api/embed_sessions', {
      savedExtractor: `/api/extractors/${extractor.id}`,
      theme: { 'color-accent': 'rgb(10, 120, 60)', radius: '0px' },
    });
    const { app } = await mountApp({ session: session.token });
    const view = await currentView(app);
    await view.updateComplete;
    const button = view.shadowRoot!.querySelector<HTMLElement>('[part~="next-button"]')!;
    expect(getComputedStyle(button).backgroundColor).toBe('rgb(10, 120, 60)');
    expect(getComputedStyle(button).borderTopLeftRadius).toBe('0px');
  });

  it('submits on the element without leaving the page, and tells the host', async () => {
    const done = await completedRun({ redirectUrl: 'https://partner.example/thanks' });
    const session = await mintSession(done.extractor, { bucket: done.run.bucket });
    const { app, events } = await mountApp({ session: session.token });
    const view = await currentView(app);
    await vi.waitFor(() =>
      expect(view.shadowRoot!.querySelector('[part~="submit-button"]')).not.toBeNull(),
    );
    await userEvent.click(view.shadowRoot!.querySelector<HTMLElement>('[part~="submit-button"]')!);
    await vi.waitFor(() =>
      expect(events.map((event) => event.type)).toContain('extractor-results-submitted'),
    );
    const submitted = events.find((event) => event.type === 'extractor-results-submitted')!;
    expect(submitted.detail.submission.redirectUrl).toBe('https://partner.example/thanks');
    expect(window.location.href).not.toContain('partner.example');
    await vi.waitFor(() =>
      expect(view.shadowRoot!.querySelector('.message.success')).not.toBeNull(),
    );
  });
  it('asks its host for a fresh session a minute before it ends, and goes on where the person is', async () => {
    const extractor = await createExtractor();
    // 61 s: the request is due a second after the session loads.
    const session = await mintSession(extractor, { ttlSeconds: 61 });
    const { app } = await mountApp({ session: session.token });
    const requested = await new Promise<CustomEvent<{ expiresAt: string }>>((resolve) =>
      app.addEventListener('extractor-session-refresh-requested', resolve, { once: true }),
    );
    expect(requested.detail.expiresAt).toBe(session.expiresAt);
    expect(requested.bubbles && requested.composed).toBe(true);
    await app.goToStep('bucket');

    const fresh = await mintSession(extractor, { bucket: session.bucket });
    const reloaded = new Promise((resolve) =>
      app.addEventListener('extractor-session-loaded', resolve, { once: true }),
    );
    app.session = fresh.token;
    await reloaded;
    expect(app.step).toBe('bucket');
    expect(await heading(app)).toBeTruthy();
  });
});
