import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminRequest, createExtractor } from '../client/testing/fixtures.js';
import type { FrameEventMessage } from '../contract/frame-messages.js';
import type { EmbedSession } from '../contract/resources.js';
import type { ExtractorApp } from '../elements/app/app.js';
import { FrameBridge, isFromHost, readCommand, targetOrigins } from './bridge.js';
import { defineAllExtractorElements } from './define.js';

const partner = 'https://partner.example';
const cleanups: (() => void)[] = [];

afterEach(() => {
  cleanups.splice(0).forEach((cleanup) => cleanup());
  sessionStorage.clear();
});

/**
 * A window that stands in for the partner's page: a same-origin about:blank frame whose
 * postMessage records what the bridge sends and the target origin it names.
 */
function standInWindow(): {
  window: Window;
  posted: { message: FrameEventMessage; origin: string }[];
} {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  cleanups.push(() => frame.remove());
  const posted: { message: FrameEventMessage; origin: string }[] = [];
  const window = frame.contentWindow!;
  window.postMessage = ((message: FrameEventMessage, origin: string) =>
    posted.push({ message, origin })) as Window['postMessage'];
  return { window, posted };
}

function command(type: string, payload: unknown, instanceId: string | null = 'frame-1') {
  return { type: `extractor:${type}`, version: 1, instanceId, payload };
}

describe('the checks on a message', () => {
  it('takes a command only from the host window at an allowed origin', () => {
    const host = standInWindow().window;
    const sibling = standInWindow().window;
    expect(isFromHost({ source: host, origin: partner }, host, [partner])).toBe(true);
    expect(isFromHost({ source: host, origin: 'https://evil.example' }, host, [partner])).toBe(
      false,
    );
    expect(isFromHost({ source: sibling, origin: partner }, host, [partner])).toBe(false);
    expect(isFromHost({ source: null, origin: partner }, host, [partner])).toBe(false);
    expect(isFromHost({ source: host, origin: partner }, host, [])).toBe(false);
  });

  it('reads only versioned commands of our namespace for this instance', () => {
    const goToStep = command('go-to-step', { step: 'bucket' });
    expect(readCommand(goToStep, 'frame-1')).toBe(goToStep);
    expect(readCommand(command('go-to-step', { step: 'bucket' }, null), null)).toBeDefined();
    expect(readCommand(goToStep, 'frame-2')).toBeUndefined();
    expect(readCommand({ ...goToStep, version: 2 }, 'frame-1')).toBeUndefined();
    expect(readCommand({ ...goToStep, type: 'go-to-step' }, 'frame-1')).toBeUndefined();
    expect(readCommand(command('ready', {}), 'frame-1')).toBeUndefined();
    expect(readCommand(command('set-theme', 'red'), 'frame-1')).toBeUndefined();
    expect(readCommand('extractor:go-to-step', 'frame-1')).toBeUndefined();
    expect(readCommand(null, 'frame-1')).toBeUndefined();
  });

  it('posts to the parent’s origin when known and allowed, else to each allowed one, never "*"', () => {
    expect(targetOrigins([partner, 'https://b.example'], partner)).toEqual([partner]);
    expect(targetOrigins([partner], 'https://evil.example')).toEqual([]);
    expect(targetOrigins([partner, 'https://b.example'], undefined)).toEqual([
      partner,
      'https://b.example',
    ]);
    expect(targetOrigins([], undefined)).toEqual([]);
  });
});

describe('FrameBridge', () => {
  async function bridged(options: { ttlSeconds?: number; allowedOrigins?: string[] } = {}) {
    await defineAllExtractorElements();
    const extractor = await createExtractor();
    const session = await adminRequest<EmbedSession>('POST', '/api/embed_sessions', {
      savedExtractor: `/api/extractors/${extractor.id}`,
      allowedOrigins: options.allowedOrigins ?? [partner],
      ...(options.ttlSeconds ? { ttlSeconds: options.ttlSeconds } : {}),
    });
    const host = standInWindow();
    const app = document.createElement('extractor-app') as ExtractorApp;
    app.setAttribute('mode', 'frame');
    app.setAttribute('session', session.token);
    const bridge = new FrameBridge({
      app,
      token: session.token,
      instanceId: 'frame-1',
      host: host.window,
      baseUrl: window.location.origin,
    });
    bridge.connect();
    document.body.append(app);
    cleanups.push(() => {
      bridge.disconnect();
      app.remove();
    });
    const names = () => host.posted.map((post) => post.message.type);
    await vi.waitFor(() => expect(names()).toContain('extractor:ready'), { timeout: 10_000 });
    const fromHost = (data: unknown, source: Window = host.window, origin = partner) =>
      window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
    return { app, session, extractor, host, names, fromHost };
  }

  it('says it is ready, and how tall it is, to the allowed origin only, with its instance id', async () => {
    const { host, session } = await bridged();
    const ready = host.posted.find((post) => post.message.type === 'extractor:ready')!;
    expect(ready.message).toEqual({
      type: 'extractor:ready',
      version: 1,
      instanceId: 'frame-1',
      payload: {
        step: 'introduction',
        savedExtractor: session.savedExtractor,
        bucket: session.bucket,
        expiresAt: session.expiresAt,
      },
    });
    const resize = host.posted.find((post) => post.message.type === 'extractor:resize')!;
    expect((resize.message.payload as { height: number }).height).toBe(
      Math.ceil(document.documentElement.getBoundingClientRect().height),
    );
    expect(new Set(host.posted.map((post) => post.origin))).toEqual(new Set([partner]));
  });

  it('obeys the host, and ignores the same commands from another window, origin or instance', async () => {
    const { app, host, fromHost } = await bridged();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    cleanups.push(() => warn.mockRestore());
    const sibling = standInWindow().window;
    const goToBucket = command('go-to-step', { step: 'bucket' });
    fromHost(goToBucket, sibling);
    fromHost(goToBucket, host.window, 'https://evil.example');
    fromHost(command('go-to-step', { step: 'bucket' }, 'frame-2'));
    fromHost(command('go-to-step', { step: 'nowhere' }));
    fromHost(command('set-theme', { theme: { 'color-accent': 'rgb(1, 2, 3)' } }), sibling);
    fromHost(command('set-theme', { theme: { 'color-link': 'red' } }));
    fromHost(command('set-theme', { theme: { 'color-accent': 'url(https://evil.example/)' } }));
    await app.updateComplete;
    expect(app.step).toBe('introduction');
    expect(app.style.getPropertyValue('--extractor-color-accent')).toBe('');
    expect(warn.mock.calls.map(([text]) => String(text))).toEqual([
      expect.stringMatching(/set-theme was ignored/),
      expect.stringMatching(/set-theme was ignored/),
    ]);

    fromHost(goToBucket);
    await vi.waitFor(() => expect(app.step).toBe('bucket'));
    fromHost(command('set-theme', { theme: { 'color-accent': 'rgb(1, 2, 3)' } }));
    expect(app.style.getPropertyValue('--extractor-color-accent')).toBe('rgb(1, 2, 3)');
    const stepChanged = host.posted.find((post) => post.message.type === 'extractor:step-changed');
    expect(stepChanged?.message.payload).toEqual({ step: 'bucket', previous: 'introduction' });
  });

  it('hands the host’s strings to the element, and ignores strings a session could not hold', async () => {
    const { app, fromHost } = await bridged();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    cleanups.push(() => warn.mockRestore());
    const strings = () => app.strings;
    fromHost(command('set-strings', { strings: { 'upload.title': 'line\nbreak' } }));
    fromHost(command('set-strings', { strings: { 'bad id!': 'x' } }));
    expect(strings()).toBeUndefined();
    expect(warn.mock.calls.map(([text]) => String(text))).toEqual([
      expect.stringMatching(/set-strings was ignored/),
      expect.stringMatching(/set-strings was ignored/),
    ]);
    fromHost(command('set-strings', { strings: { 'upload.title': 'Ihre Rechnungen' } }));
    expect(strings()).toEqual({ 'upload.title': 'Ihre Rechnungen' });
  });

  it('warns a minute before the session ends and takes a fresh token for the same bucket only', async () => {
    const { app, session, extractor, names, fromHost } = await bridged({ ttlSeconds: 60 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    cleanups.push(() => warn.mockRestore());
    await vi.waitFor(() => expect(names()).toContain('extractor:session-expiring'));
    fromHost(command('go-to-step', { step: 'bucket' }));
    await vi.waitFor(() => expect(app.step).toBe('bucket'));

    const elsewhere = await adminRequest<EmbedSession>('POST', '/api/embed_sessions', {
      savedExtractor: `/api/extractors/${extractor.id}`,
      allowedOrigins: [partner],
    });
    fromHost(command('refresh-session', { token: elsewhere.token }));
    const fresh = await adminRequest<EmbedSession>('POST', '/api/embed_sessions', {
      savedExtractor: `/api/extractors/${extractor.id}`,
      bucket: session.bucket,
      allowedOrigins: [partner],
    });
    const loaded = new Promise((resolve) =>
      app.addEventListener('extractor-session-loaded', resolve, { once: true }),
    );
    fromHost(command('refresh-session', { token: fresh.token }));
    await loaded;
    expect(app.session).toBe(fresh.token);
    expect(app.step).toBe('bucket');
    expect(names().filter((name) => name === 'extractor:ready')).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/refresh-session was ignored: the token is for another/),
    );
  });
});
