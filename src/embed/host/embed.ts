/**
 * `/sdk/embed.js`: the script a partner's page loads to put the iFrame in a container. A
 * classic script with no dependencies (≤ 3 KB gzipped, checked by the build), exposing
 * `window.ExtractorEmbed`:
 *
 *   const frame = ExtractorEmbed.mount(document.querySelector('#upload'), {
 *     url: session.embeddedUrl,            // from POST /api/embed_sessions, on your server
 *     theme: { 'color-accent': '#0a7d5a' },
 *     colorScheme: 'auto',                 // 'light' (the default), 'dark' or 'auto'
 *     locale: 'de',                        // over the session's locale
 *     strings: { 'upload.title': '…' },    // over the session's strings
 *     onEvent: (name, payload) => console.log(name, payload),
 *     onError: ({ code, message }) => console.warn(code, message),
 *   });
 *   frame.on('session-expiring', async () => frame.refreshSession(await mintToken()));
 *
 * It gives the frame an instance id of its own (the `instance` address parameter), sizes
 * the frame from its resize messages, and takes a message only from its own frame's window
 * at the frame's origin with that instance id. Commands go to the frame's origin only,
 * and wait until the frame is ready.
 *
 * A frame that never says it is ready (within `readyTimeoutMs`) is looked into: the session
 * is asked about itself from this page, which tells a refused origin (the API answers no
 * CORS to it, while the service itself answers), an ended session (401s are readable from
 * anywhere) and a service out of reach apart. The reason goes to `onError` and, in plain
 * words, into the container in place of the browser's broken-frame page.
 */
import {
  colorSchemeParameter,
  isColorScheme,
  type ColorScheme,
} from '../../contract/color-scheme.js';
import {
  frameInstanceParameter,
  frameLocaleParameter,
  frameMessagePrefix,
  frameProtocolVersion,
  type FrameCommandName,
  type FrameCommandPayloads,
  type FrameEventName,
  type FrameEventPayloads,
} from '../../contract/frame-messages.js';

type Step = FrameCommandPayloads['go-to-step']['step'];
type EventCallback<Name extends FrameEventName> = (payload: FrameEventPayloads[Name]) => void;

export interface MountOptions {
  /** The session's `embeddedUrl`, with its `?session=…`. */
  url: string;
  /** Called for every event from the frame, with its name and payload. */
  onEvent?: (name: FrameEventName, payload: FrameEventPayloads[FrameEventName]) => void;
  /** `--extractor-*` tokens (with or without the prefix) and values, set once the frame is ready. */
  theme?: Record<string, string>;
  /** The frame's accessible name. */
  title?: string;
  /**
   * `light` (the default), `dark`, or `auto` (the person's system setting): match your
   * page, so the frame is not a dark box on a light page.
   */
  colorScheme?: ColorScheme;
  /**
   * The interface's language, a BCP 47 tag (`de`, `ar`); before the session's and the
   * browser's. Unsupported languages fall through to those, then English.
   */
  locale?: string;
  /** Your texts for built-in messages by id, over the session's `strings`. */
  strings?: Record<string, string>;
  /** Called once when the frame cannot show the interface, with the reason. */
  onError?: (error: EmbedError) => void;
  /**
   * How long the frame has to say it is ready before it is looked into (default 15 s). A
   * refused frame or an ended session is told as soon as the frame has loaded.
   */
  readyTimeoutMs?: number;
}

/**
 * Why the frame shows nothing: `origin-not-allowed` (this page's origin is not in the
 * session's `allowedOrigins`, so the browser refused the frame), `session-ended` (expired,
 * revoked or unknown), `unreachable` (the service did not answer, or this page's CSP kept
 * the check from it) or `timeout` (all looks well, yet the interface did not start).
 */
export interface EmbedError {
  code: 'origin-not-allowed' | 'session-ended' | 'unreachable' | 'timeout';
  message: string;
}

export interface EmbeddedFrame {
  readonly iframe: HTMLIFrameElement;
  readonly instanceId: string;
  /** Calls `callback` with the payload of each `name` event; returns a function that stops it. */
  on<Name extends FrameEventName>(name: Name, callback: EventCallback<Name>): () => void;
  /** Replaces the theme set before; the session's theme stays beneath it. */
  setTheme(theme: Record<string, string>): void;
  goToStep(step: Step): void;
  /** Hands the frame a new session token for the same extractor and bucket. */
  refreshSession(token: string): void;
  /** Removes the frame and stops listening. */
  destroy(): void;
}

const tokenPrefix = '--extractor-';

function newInstanceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function mount(container: Element, options: MountOptions): EmbeddedFrame {
  const instanceId = newInstanceId();
  const src = new URL(options.url, document.baseURI);
  src.searchParams.set(frameInstanceParameter, instanceId);
  if (isColorScheme(options.colorScheme))
    src.searchParams.set(colorSchemeParameter, options.colorScheme);
  if (options.locale) src.searchParams.set(frameLocaleParameter, options.locale);
  const frameOrigin = src.origin;

  const iframe = document.createElement('iframe');
  iframe.src = src.href;
  iframe.title = options.title ?? 'Document upload';
  // Through the CSSOM: a partner's CSP without 'unsafe-inline' allows it.
  iframe.style.display = 'block';
  iframe.style.width = '100%';
  iframe.style.border = '0';

  const callbacks = new Map<string, Set<(payload: never) => void>>();
  let ready = false;
  let waiting: [FrameCommandName, unknown][] = [];
  let notice: HTMLElement | undefined;

  const fail = (error: EmbedError) => {
    // Ready after all, destroyed while the service was asked, or told already: nothing to say.
    if (ready || !iframe.isConnected || notice) return;
    clearTimeout(readyTimer);
    notice = document.createElement('p');
    notice.setAttribute('role', 'alert');
    notice.textContent = error.message;
    notice.style.padding = '1rem';
    notice.style.border = '1px solid currentColor';
    notice.style.borderRadius = '.5rem';
    // The frame stays for a slow start (`timeout`); a refused or ended one shows nothing.
    if (error.code !== 'timeout') iframe.style.display = 'none';
    container.prepend(notice);
    options.onError?.(error);
  };
  const readyTimer = setTimeout(
    () => void diagnose(src).then(fail),
    options.readyTimeoutMs ?? 15_000,
  );
  // A frame the browser refused (this origin not allowed) or a session that has ended is
  // known once the frame has loaded: said then, not after the browser's broken frame has
  // shown for the whole wait. A frame that is merely slow waits for the timer.
  iframe.addEventListener(
    'load',
    () =>
      void diagnose(src).then((error) => {
        if (error.code === 'origin-not-allowed' || error.code === 'session-ended') fail(error);
      }),
    { once: true },
  );

  const send = <Name extends FrameCommandName>(name: Name, payload: FrameCommandPayloads[Name]) => {
    if (!ready) {
      waiting.push([name, payload]);
      return;
    }
    iframe.contentWindow?.postMessage(
      { type: frameMessagePrefix + name, version: frameProtocolVersion, instanceId, payload },
      frameOrigin,
    );
  };

  const handleMessage = (event: MessageEvent) => {
    const data = event.data as {
      type?: unknown;
      version?: unknown;
      instanceId?: unknown;
      payload?: unknown;
    };
    if (
      event.source !== iframe.contentWindow ||
      event.origin !== frameOrigin ||
      typeof data !== 'object' ||
      data === null ||
      data.version !== frameProtocolVersion ||
      data.instanceId !== instanceId ||
      typeof data.type !== 'string' ||
      !data.type.startsWith(frameMessagePrefix)
    )
      return;
    const name = data.type.slice(frameMessagePrefix.length) as FrameEventName;
    const payload = data.payload as FrameEventPayloads[FrameEventName];
    if (name === 'resize') {
      const { height } = payload as FrameEventPayloads['resize'];
      if (typeof height === 'number' && height >= 0 && height < 1e6)
        iframe.style.height = `${height}px`;
    }
    if (name === 'ready' && !ready) {
      ready = true;
      clearTimeout(readyTimer);
      notice?.remove();
      iframe.style.display = 'block';
      const queued = waiting;
      waiting = [];
      for (const [command, commandPayload] of queued) send(command, commandPayload as never);
    }
    options.onEvent?.(name, payload);
    callbacks.get(name)?.forEach((callback) => callback(payload as never));
  };
  window.addEventListener('message', handleMessage);

  const setTheme = (theme: Record<string, string>) => {
    const tokens: Record<string, string> = {};
    for (const [name, value] of Object.entries(theme))
      tokens[name.startsWith(tokenPrefix) ? name.slice(tokenPrefix.length) : name] = value;
    send('set-theme', { theme: tokens });
  };
  if (options.theme) setTheme(options.theme);
  if (options.strings) send('set-strings', { strings: options.strings });
  container.append(iframe);

  return {
    iframe,
    instanceId,
    on(name, callback) {
      const set = callbacks.get(name) ?? new Set();
      callbacks.set(name, set);
      set.add(callback);
      return () => set.delete(callback);
    },
    setTheme,
    goToStep: (step) => send('go-to-step', { step }),
    refreshSession: (token) => send('refresh-session', { token }),
    destroy() {
      clearTimeout(readyTimer);
      notice?.remove();
      window.removeEventListener('message', handleMessage);
      callbacks.clear();
      iframe.remove();
    },
  };
}

/** Why a frame that did not get ready shows nothing, asked from this page (see the top). */
async function diagnose(src: URL): Promise<EmbedError> {
  const service = src.origin;
  try {
    const answer = await fetch(`${service}/api/embed_sessions/current`, {
      headers: { Authorization: `Bearer ${src.searchParams.get('session') ?? ''}` },
    });
    if (answer.status === 401)
      return {
        code: 'session-ended',
        message: 'This upload link has expired or was revoked. Reload the page to get a new one.',
      };
    return {
      code: 'timeout',
      message: 'The document upload is taking longer than usual to start.',
    };
  } catch {
    // No CORS for this origin, or no answer at all: an opaque request tells them apart.
  }
  try {
    await fetch(`${service}/healthz`, { mode: 'no-cors' });
    return {
      code: 'origin-not-allowed',
      message: `The document upload cannot be shown on ${location.origin}: the session does not allow this page's origin (add it to allowedOrigins).`,
    };
  } catch {
    return {
      code: 'unreachable',
      message: `The document upload could not be loaded: ${service} did not answer.`,
    };
  }
}
