/**
 * A partner's page that puts the iFrame in with /sdk/embed.js, as
 * docs/partners/embedding.md tells partners to, and records what reaches it: every message event at the window (its origin, whether
 * it came from the embed frame, its data), every event embed.js hands to `onEvent` and every
 * reason it hands to `onError` (`window.recordedErrors`).
 * The specs read both back with `recorded(page)`.
 */
import { expect, type Frame, type Page } from '@playwright/test';
import type { FrameEventName } from '../../src/contract/frame-messages.js';
import type { PartnerSite } from '../support/partner-server.js';
import { serviceUrl } from '../support/service.js';

export interface HostPageOptions {
  /** The session's embeddedUrl. */
  url: string;
  /** Passed to mount(). */
  theme?: Record<string, string>;
  /** Passed to mount() as `colorScheme`. */
  colorScheme?: 'light' | 'dark' | 'auto';
  /** Passed to mount(). */
  locale?: string;
  strings?: Record<string, string>;
  readyTimeoutMs?: number;
  /** More markup after the container: sibling frames and the like. */
  extra?: string;
  /** Script run after mount(), with `embedded` (what mount returned) in scope. */
  script?: string;
}

/** Serves the host page at `path` on the partner's site; returns its address. */
export function hostPage(partner: PartnerSite, path: string, options: HostPageOptions): string {
  return partner.page(
    path,
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>ACME partner portal</title>
    <style>
      body { margin: 0; font-family: sans-serif; }
      #slot { width: 720px; margin: 1rem; }
    </style>
  </head>
  <body>
    <main>
      <h1>ACME partner portal</h1>
      <div id="slot"></div>
      ${options.extra ?? ''}
    </main>
    <script src="${serviceUrl()}/sdk/embed.js"></script>
    <script>
      window.recordedMessages = [];
      window.recordedEvents = [];
      window.recordedErrors = [];
      window.addEventListener('message', (event) => {
        const frame = document.querySelector('#slot iframe');
        window.recordedMessages.push({
          origin: event.origin,
          fromEmbed: Boolean(frame) && event.source === frame.contentWindow,
          data: event.data,
        });
      });
      const embedded = ExtractorEmbed.mount(document.getElementById('slot'), {
        url: ${JSON.stringify(options.url)},
        title: 'Send your invoice',
        ${options.theme ? `theme: ${JSON.stringify(options.theme)},` : ''}
        ${options.colorScheme ? `colorScheme: ${JSON.stringify(options.colorScheme)},` : ''}
        ${options.locale ? `locale: ${JSON.stringify(options.locale)},` : ''}
        ${options.strings ? `strings: ${JSON.stringify(options.strings)},` : ''}
        ${options.readyTimeoutMs ? `readyTimeoutMs: ${options.readyTimeoutMs},` : ''}
        onEvent: (name, payload) => window.recordedEvents.push({ name, payload }),
        onError: (error) => window.recordedErrors.push(error),
      });
      window.embedded = embedded;
      ${options.script ?? ''}
    </script>
  </body>
</html>`,
  );
}

export interface RecordedMessage {
  origin: string;
  fromEmbed: boolean;
  data: { type?: string; version?: number; instanceId?: string | null; payload?: unknown };
}

export interface Recorded {
  messages: RecordedMessage[];
  events: { name: FrameEventName; payload: Record<string, unknown> }[];
  instanceId: string;
}

export function recorded(page: Page): Promise<Recorded> {
  return page.evaluate(() => {
    const host = window as unknown as {
      recordedMessages: RecordedMessage[];
      recordedEvents: Recorded['events'];
      embedded: { instanceId: string };
    };
    return {
      messages: host.recordedMessages,
      events: host.recordedEvents,
      instanceId: host.embedded.instanceId,
    };
  });
}

export async function eventNames(page: Page): Promise<FrameEventName[]> {
  return (await recorded(page)).events.map((event) => event.name);
}

/** The embed frame, as Playwright sees it (to look inside it). */
export async function embedFrame(page: Page): Promise<Frame> {
  await expect
    .poll(() => page.frames().some((frame) => frame.url().includes('/embed/')))
    .toBe(true);
  return page.frames().find((frame) => frame.url().includes('/embed/'))!;
}

export interface FrameSize {
  /** The iframe element's height on the partner's page. */
  frameHeight: number;
  /** The height the frame reported last. */
  reported: number | undefined;
  /** How many resize messages came so far. */
  resizes: number;
  /** Inside the frame: the document's scroll height, and the viewport's height and widths. */
  scrollHeight: number;
  viewportHeight: number;
  innerWidth: number;
  clientWidth: number;
}

export async function frameSize(page: Page): Promise<FrameSize> {
  const outside = await page.evaluate(() => {
    const frame = document.querySelector('#slot iframe')!;
    const events = (
      window as unknown as { recordedEvents: { name: string; payload: { height: number } }[] }
    ).recordedEvents.filter((event) => event.name === 'resize');
    return {
      frameHeight: frame.getBoundingClientRect().height,
      reported: events.at(-1)?.payload.height,
      resizes: events.length,
    };
  });
  const inside = await (
    await embedFrame(page)
  ).evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    viewportHeight: document.documentElement.clientHeight,
    innerWidth: window.innerWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  return { ...outside, ...inside };
}

/**
 * Waits until the frame has settled: it is as tall as it said, its document fits it
 * exactly (no scrollbar either way), and no resize came between two looks. Returns the size.
 */
export async function settledFrameSize(page: Page): Promise<FrameSize> {
  let last: FrameSize | undefined;
  await expect
    .poll(
      async () => {
        const size = await frameSize(page);
        const settled =
          last !== undefined &&
          size.resizes === last.resizes &&
          size.frameHeight === size.reported &&
          size.scrollHeight === size.frameHeight &&
          size.viewportHeight === size.frameHeight &&
          size.innerWidth === size.clientWidth;
        last = size;
        return settled;
      },
      { intervals: [300, 300, 500, 500, 1000], timeout: 20_000 },
    )
    .toBe(true);
  return last!;
}

/** The computed background colour of a button inside the frame, found by its name. */
export async function buttonBackground(frame: Frame, name: string): Promise<string> {
  const button = frame.getByRole('button', { name, exact: true });
  await expect(button).toBeVisible();
  return button.evaluate((element) => getComputedStyle(element).backgroundColor);
}
