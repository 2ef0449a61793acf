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
import type { ExtractorEventName } from '../internal/events.js';
import { $ } from '../testing/mount.js';
import type { ExtractorApp } from './app.js';
import { ExtractorClient } from '../../client/client.js';

/**
 * A step is known once the app has heard from the real service (the session, the bucket,
 * its runs): on a loaded machine that takes longer than waitFor's default second.
 */
const serviceAnswered = { timeout: 10_000 };

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

/** The first view's heading and primary button, once the session has loaded. */
async function themed(
  theme: Record<string, string> | undefined,
  attributes = {},
  sessionInput: Record<string, unknown> = {},
) {
  const extractor = await createExtractor();
  const session = await adminRequest<EmbedSession>('POST', '/api/embed_sessions', {
    savedExtractor: `/api/extractors/${extractor.id}`,
    ...(theme ? { theme } : {}),
    ...sessionInput,
  });
  const { app } = await mountApp({ session: session.token, ...attributes });
  const view = await currentView(app);
  await view.updateComplete;
  await app.updateComplete;
  const inside = (selector: string) => view.shadowRoot!.querySelector<HTMLElement>(selector)!;
  return { app, heading: inside('[part~="heading"]'), button: inside('[part~="next-button"]') };
}

/** A computed colour as [r, g, b]. */
const rgb = (color: string) =>
  color
    .match(/[\d.]+/g)!
    .slice(0, 3)
    .map(Number);
const luminance = (color: string) =>
  rgb(color)
    .map((value) => value / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, index) => sum + v * [0.2126, 0.7152, 0.0722][index]!, 0);
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

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
    // Fired once the first view shows with its colours checked (a chunk loaded apart).
    await vi.waitFor(() =>
      expect(events.map((event) => event.type)).toEqual(['extractor-session-loaded']),
    );
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
    await vi.waitFor(() => expect(app.step).toBe('extraction'), serviceAnswered);
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
    await vi.waitFor(() => expect(running.app.step).toBe('extraction'), serviceAnswered);
    running.app.remove();

    // A person who went back to the files sees the files again after a reload.
    const again = await mountApp({ session: session.token });
    await vi.waitFor(() => expect(again.app.step).toBe('results'), serviceAnswered);
    await again.app.goToStep('bucket');
    again.app.remove();
    const reloaded = await mountApp({ session: session.token });
    await vi.waitFor(() => expect(reloaded.app.step).toBe('bucket'), serviceAnswered);
    expect(reloaded.events[0]?.detail.step).toBe('bucket');
  });

  it('follows a run live and tells the page when it completes', async () => {
    const working = await workingRun();
    const { app, events } = await mountApp({ session: working.session.token });
    await vi.waitFor(() => expect(app.step).toBe('extraction'), serviceAnswered);
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
    await vi.waitFor(() => expect(app.step).toBe('results'), serviceAnswered);
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
});

describe('<extractor-app> themes and colour schemes', () => {
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

  it('is light unless its color-scheme says dark or auto', async () => {
    const light = await themed(undefined);
    expect(getComputedStyle(light.app).colorScheme).toBe('light');
    expect(luminance(getComputedStyle(light.heading).color)).toBeLessThan(0.1);
    for (const [scheme, used] of [
      ['dark', 'dark'],
      ['auto', 'light dark'],
      ['nonsense', 'light'],
    ]) {
      light.app.setAttribute('color-scheme', scheme!);
      await light.app.updateComplete;
      expect(getComputedStyle(light.app).colorScheme, scheme).toBe(used);
    }
    light.app.setAttribute('color-scheme', 'dark');
    await light.app.updateComplete;
    expect(luminance(getComputedStyle(light.heading).color)).toBeGreaterThan(0.6);
  });

  it('draws the session’s colour scheme unless its own attribute says otherwise', async () => {
    const loaded = new Promise<CustomEvent>((resolve) =>
      document.addEventListener(
        'extractor-session-loaded',
        (event) => resolve(event as CustomEvent),
        {
          once: true,
        },
      ),
    );
    const dark = await themed(undefined, {}, { colorScheme: 'dark' });
    expect(getComputedStyle(dark.app).colorScheme).toBe('dark');
    expect(luminance(getComputedStyle(dark.heading).color)).toBeGreaterThan(0.6);
    expect((await loaded).detail.colorScheme).toBe('dark');
    // The host page's choice comes first.
    const pinned = await themed(undefined, { 'color-scheme': 'light' }, { colorScheme: 'dark' });
    expect(getComputedStyle(pinned.app).colorScheme).toBe('light');
    const auto = await themed(undefined, {}, { colorScheme: 'auto' });
    expect(getComputedStyle(auto.app).colorScheme).toBe('light dark');
  });

  it('measures its colours again when the page around it changes its own', async () => {
    // A see-through theme: the text is read against whatever the page paints.
    const clear = { 'color-background': 'transparent', 'color-surface': 'transparent' };
    document.body.style.backgroundColor = 'rgb(255, 255, 255)';
    try {
      const { heading } = await themed(clear, { 'color-scheme': 'dark' });
      // On the white page the dark scheme's pale text is darkened to be read...
      const onWhite = () => contrast(getComputedStyle(heading).color, 'rgb(255, 255, 255)');
      const onBlack = () => contrast(getComputedStyle(heading).color, 'rgb(17, 17, 17)');
      expect(onWhite()).toBeGreaterThanOrEqual(4.5);
      // ...and is pale again once the page turns dark.
      document.body.style.backgroundColor = 'rgb(17, 17, 17)';
      await expect.poll(onBlack).toBeGreaterThanOrEqual(4.5);
      document.body.style.backgroundColor = 'rgb(255, 255, 255)';
      await expect.poll(onWhite).toBeGreaterThanOrEqual(4.5);
    } finally {
      document.body.style.backgroundColor = '';
    }
  });

  it('takes the page’s font unless a theme sets one, and keeps containers from turning into ellipses', async () => {
    document.body.style.fontFamily = 'Georgia, serif';
    try {
      const plain = await themed(undefined);
      expect(getComputedStyle(plain.heading).fontFamily).toBe('Georgia, serif');
      expect(getComputedStyle(plain.button).fontFamily).toBe('Georgia, serif');
      const pills = await themed({ 'font-family': 'monospace', radius: '999px' });
      expect(getComputedStyle(pills.heading).fontFamily).toBe('monospace');
      expect(getComputedStyle(pills.button).borderTopLeftRadius).toBe('999px');
      await pills.app.goToStep('bucket');
      const bucket = await currentView(pills.app);
      await bucket.updateComplete;
      const zone = bucket.shadowRoot!.querySelector<HTMLElement>('[part~="drop-zone"]')!;
      expect(getComputedStyle(zone).borderTopLeftRadius).toBe('16px');
    } finally {
      document.body.style.fontFamily = '';
    }
  });

  it('keeps text at 4.5:1 or more against its background whatever the theme’s colours', async () => {
    // Light surfaces and pale text, a yellow accent under white button text, a dark scheme.
    const theme = {
      'color-surface': '#ffffff',
      'color-background': '#ffffff',
      'color-text': '#b0b0b0',
      'color-accent': '#ffd60a',
    };
    const { app, heading, button } = await themed(theme, { 'color-scheme': 'dark' });
    const background = getComputedStyle(app.shadowRoot!.querySelector('.base')!).backgroundColor;
    expect(rgb(background)).toEqual([255, 255, 255]);
    expect(contrast(getComputedStyle(heading).color, background)).toBeGreaterThanOrEqual(4.5);
    const { color, backgroundColor } = getComputedStyle(button);
    expect(rgb(backgroundColor)).toEqual([255, 214, 10]);
    expect(contrast(color, backgroundColor)).toBeGreaterThanOrEqual(4.5);
    // The partner's own colours stay; only the text moved.
    expect(app.style.getPropertyValue('--extractor-color-accent')).toBe('#ffd60a');
    expect(app.style.getPropertyValue('--extractor-color-text')).not.toBe('#b0b0b0');

    // A theme that reads well is left exactly as it is.
    const fine = await themed({ 'color-text': '#1b2230', 'color-accent': 'rgb(10, 120, 60)' });
    expect(fine.app.style.getPropertyValue('--extractor-color-text')).toBe('#1b2230');
    expect(fine.app.style.getPropertyValue('--extractor-color-on-accent')).toBe('');
  });
});

describe('<extractor-app> on the host page and as sessions end', () => {
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

  it('on the full page, warns before the session ends and goes on with a renewed one where the person is', async () => {
    const extractor = await createExtractor();
    // Ends within the two minutes of warning: the notice shows as soon as the page loads.
    const session = await mintSession(extractor, { ttlSeconds: 90 });
    const { app } = await mountApp({ session: session.token, mode: 'page' });
    await currentView(app);
    await app.goToStep('bucket');
    const notice = await vi.waitFor(() => $(app, '[part~="session-notice"]'), serviceAnswered);
    expect(notice.getAttribute('role')).toBe('alert');
    expect(notice.textContent).toMatch(/Your session ends at .*Everything you entered is saved\./s);
    // No host to ask on the full page.
    const reloaded = new Promise<CustomEvent>((resolve) =>
      app.addEventListener('extractor-session-loaded', (event) => resolve(event as CustomEvent), {
        once: true,
      }),
    );
    await userEvent.click($(app, '[part~="continue-session-button"]'));
    await reloaded;
    expect(app.session).not.toBe(session.token);
    expect(app.step).toBe('bucket');
    const current = await new ExtractorClient({
      baseUrl: window.location.origin,
      token: app.session,
    }).getCurrentSession();
    expect(current.bucket).toBe(session.bucket);
    expect(Date.parse(current.expiresAt)).toBeGreaterThan(Date.parse(session.expiresAt));
  });

  it('on the full page, says when a session cannot be extended any more, and when it has ended', async () => {
    const extractor = await createExtractor();
    const session = await mintSession(extractor, { ttlSeconds: 60, maxLifetimeSeconds: 60 });
    const { app } = await mountApp({ session: session.token, mode: 'page' });
    const notice = await vi.waitFor(() => $(app, '[part~="session-notice"]'), serviceAnswered);
    expect(notice.textContent).toMatch(/It cannot be extended further/);
    expect(app.shadowRoot!.querySelector('[part~="continue-session-button"]')).toBeNull();
  });
});
