/**
 * The iFrame bridge: how the hosted embed page (`/embed/{id}`) talks with the partner's
 * page that frames it, over `window.postMessage` (the protocol is in
 * src/contract/frame-messages.ts).
 *
 * Who may listen and who may command is the session's to say. The bridge asks the service
 * about its token (`GET /api/embed_sessions/current`) and then:
 *
 *   - posts only to the session's allowed origins, never to "*" (the parent's origin when
 *     the browser tells it, `location.ancestorOrigins`; otherwise each allowed origin,
 *     and the browser delivers to the one the parent has, if any); with none allowed, or
 *     before it knows, it posts nothing;
 *   - takes a command only when it comes from the parent window and from an allowed
 *     origin, and only when it names this frame's instance.
 *
 * The frame's height follows its content, never the other way round: the embed layout
 * (hosted-page.css) lets nothing inside size itself from the frame, so a resize cannot
 * feed another.
 */
import { ExtractorClient, sessionTokenPrefix } from '../client/client.js';
import {
  frameCommandNames,
  frameMessagePrefix,
  frameProtocolVersion,
  type FrameCommandMessage,
  type FrameCommandName,
  type FrameCommandPayloads,
  type FrameEventMessage,
  type FrameEventName,
  type FrameEventPayloads,
} from '../contract/frame-messages.js';
import type { CurrentSession, Theme } from '../contract/resources.js';
import { stringOverridesSchema } from '../contract/session-language.js';
import { themeSchema } from '../contract/theme.js';
import type { ExtractorApp } from '../elements/app/app.js';
import { isStep } from '../elements/internal/steps.js';
import type { ZodMiniType } from 'zod/mini';

/** The window that frames the page, as far as the bridge needs it. */
export type HostWindow = Pick<Window, 'postMessage'> & MessageEventSource;

export interface FrameBridgeOptions {
  app: ExtractorApp;
  /** The session token the page was opened with. */
  token: string;
  /** The frame's `instance` address parameter; null when it has none. */
  instanceId: string | null;
  /** The parent window. */
  host: HostWindow;
  /** The service's origin: the page's own. */
  baseUrl: string;
  /** The parent's origin when the browser tells it (`location.ancestorOrigins[0]`). */
  parentOrigin?: string | undefined;
}

const sessionTokenPattern = new RegExp(`^${sessionTokenPrefix}[A-Za-z0-9_-]{16,200}$`);

/** Whether a message event comes from the host: the parent window, at an allowed origin. */
export function isFromHost(
  event: Pick<MessageEvent, 'source' | 'origin'>,
  host: MessageEventSource,
  allowedOrigins: readonly string[],
): boolean {
  return event.source === host && allowedOrigins.includes(event.origin);
}

/** A command of our protocol addressed to this instance, or undefined for anything else. */
export function readCommand(
  data: unknown,
  instanceId: string | null,
): FrameCommandMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as Partial<Record<keyof FrameCommandMessage, unknown>>;
  if (message.version !== frameProtocolVersion || (message.instanceId ?? null) !== instanceId)
    return undefined;
  if (typeof message.type !== 'string' || !message.type.startsWith(frameMessagePrefix))
    return undefined;
  const name = message.type.slice(frameMessagePrefix.length);
  if (!(frameCommandNames as readonly string[]).includes(name)) return undefined;
  if (typeof message.payload !== 'object' || message.payload === null) return undefined;
  return data as FrameCommandMessage;
}

/**
 * Where to post: the parent's origin when it is known (and allowed: the page's
 * frame-ancestors already refuse any other parent), else every allowed origin.
 */
export function targetOrigins(
  allowedOrigins: readonly string[],
  parentOrigin: string | undefined,
): string[] {
  if (parentOrigin === undefined) return [...allowedOrigins];
  return allowedOrigins.includes(parentOrigin) ? [parentOrigin] : [];
}

/**
 * What a host's command carries, when `schema` takes it; otherwise undefined, and the
 * partner's developer is told in the console why `command` was ignored.
 */
function checkedOrWarned<T>(
  command: string,
  schema: ZodMiniType<T>,
  value: unknown,
): T | undefined {
  const checked = schema.safeParse(value);
  if (checked.success) return checked.data;
  console.warn(
    `extractor:${command} was ignored:`,
    checked.error.issues.map((issue) => issue.message).join('; '),
  );
  return undefined;
}

export class FrameBridge {
  readonly #options: FrameBridgeOptions;
  readonly #listening = new AbortController();
  #token: string;
  #session: CurrentSession | undefined;
  #parentOrigin: string | undefined;
  /** The theme of the last set-theme; the session's theme lies beneath it. */
  #hostTheme: Theme = {};
  #appLoaded = false;
  #ready = false;
  /** Events that happened before the session said where they may go. */
  #waiting: FrameEventMessage[] = [];
  #height: number | undefined;
  #postedHeight: number | undefined;
  #resizeObserver: ResizeObserver | undefined;

  constructor(options: FrameBridgeOptions) {
    this.#options = options;
    this.#token = options.token;
    this.#parentOrigin = options.parentOrigin;
  }

  /** Starts listening to the app and the host, and learns the session. */
  connect(): void {
    const { app } = this.#options;
    const signal = this.#listening.signal;
    window.addEventListener('message', (event) => this.#handleMessage(event), { signal });
    const on = <K extends keyof HTMLElementEventMap>(
      type: K,
      listener: (event: HTMLElementEventMap[K]) => void,
    ) => app.addEventListener(type, listener, { signal });
    on('extractor-session-loaded', () => this.#handleSessionLoaded());
    on('extractor-session-refresh-requested', ({ detail }) =>
      this.#post('session-expiring', { expiresAt: detail.expiresAt }),
    );
    on('extractor-session-expired', ({ detail }) =>
      this.#post('session-expired', { expiresAt: detail.expiresAt }),
    );
    on('extractor-step-changed', ({ detail }) =>
      this.#post('step-changed', { step: detail.step, previous: detail.previous }),
    );
    on('extractor-files-uploaded', ({ detail }) =>
      this.#post('files-uploaded', { files: detail.files }),
    );
    on('extractor-run-started', ({ detail }) => this.#post('run-started', { run: detail.run }));
    on('extractor-run-progressed', ({ detail }) => this.#post('run-progress', { run: detail.run }));
    on('extractor-run-completed', ({ detail }) => this.#post('run-completed', { run: detail.run }));
    on('extractor-run-failed', ({ detail }) => this.#post('run-failed', { run: detail.run }));
    on('extractor-results-changed', ({ detail }) =>
      this.#post('results-changed', { run: detail.run, data: detail.data }),
    );
    on('extractor-results-submitted', ({ detail }) =>
      this.#post('results-submitted', { run: detail.run, submission: detail.submission }),
    );

    // The root element's box, not scrollHeight: a document's scrollHeight is never less
    // than the frame, so a frame sized from it could grow but never shrink.
    this.#resizeObserver = new ResizeObserver(() => this.#measure());
    this.#resizeObserver.observe(document.documentElement);
    this.#resizeObserver.observe(app);

    // The bridge may come after the app has loaded its session (it is loaded on its own).
    if (app.step !== undefined) this.#appLoaded = true;

    void this.#learnSession(this.#token).then((session) => {
      if (session) this.#adopt(this.#token, session);
    });
  }

  disconnect(): void {
    this.#listening.abort();
    this.#resizeObserver?.disconnect();
  }

  #handleMessage(event: MessageEvent): void {
    const session = this.#session;
    if (!session || !isFromHost(event, this.#options.host, session.allowedOrigins)) return;
    const command = readCommand(event.data, this.#options.instanceId);
    if (!command) return;
    // The host's own answer names its origin for certain: post there from now on.
    this.#parentOrigin = event.origin;
    const name = command.type.slice(frameMessagePrefix.length) as FrameCommandName;
    switch (name) {
      case 'set-theme':
        this.#setTheme(command.payload as FrameCommandPayloads['set-theme']);
        break;
      case 'go-to-step': {
        const { step } = command.payload as FrameCommandPayloads['go-to-step'];
        if (isStep(step)) void this.#options.app.goToStep(step);
        break;
      }
      case 'refresh-session':
        void this.#refreshSession(command.payload as FrameCommandPayloads['refresh-session']);
        break;
      case 'set-strings':
        this.#setStrings(command.payload as FrameCommandPayloads['set-strings']);
        break;
    }
  }

  #handleSessionLoaded(): void {
    this.#appLoaded = true;
    // The app applies the session's theme whenever it loads a session; the host's goes on top.
    if (Object.keys(this.#hostTheme).length > 0) this.#applyTheme();
    this.#announceReady();
  }

  #setTheme({ theme }: FrameCommandPayloads['set-theme']): void {
    const checked = checkedOrWarned('set-theme', themeSchema, theme);
    if (!checked) return;
    this.#hostTheme = checked;
    this.#applyTheme();
  }

  #setStrings({ strings }: FrameCommandPayloads['set-strings']): void {
    // The same limits as a session's strings: the host is a partner's page.
    const checked = checkedOrWarned('set-strings', stringOverridesSchema, strings);
    // The element's `strings` lie over the session's.
    if (checked) this.#options.app.strings = checked;
  }

  #applyTheme(): void {
    this.#options.app.setTheme({ ...this.#session?.theme, ...this.#hostTheme });
  }

  /**
   * Swaps the session token without a reload. The new token must be a session of the same
   * extractor and bucket, or the person would find themselves in another flow.
   */
  async #refreshSession({ token }: FrameCommandPayloads['refresh-session']): Promise<void> {
    if (typeof token !== 'string' || !sessionTokenPattern.test(token) || token === this.#token)
      return;
    const current = this.#session;
    const session = await this.#learnSession(token);
    if (!current || !session) return;
    if (session.bucket !== current.bucket || session.savedExtractor !== current.savedExtractor) {
      console.warn(
        'extractor:refresh-session was ignored: the token is for another extractor or bucket.',
      );
      return;
    }
    this.#adopt(token, session);
    this.#options.app.session = token;
  }

  async #learnSession(token: string): Promise<CurrentSession | undefined> {
    try {
      const client = new ExtractorClient({ baseUrl: this.#options.baseUrl, token });
      return await client.getCurrentSession();
    } catch {
      // The app tells the person what went wrong; without a session the frame stays silent.
      return undefined;
    }
  }

  #adopt(token: string, session: CurrentSession): void {
    this.#token = token;
    this.#session = session;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const message of waiting) this.#send(message);
    this.#postHeight();
    this.#announceReady();
  }

  #announceReady(): void {
    const session = this.#session;
    const step = this.#options.app.step;
    if (this.#ready || !this.#appLoaded || !session || !step) return;
    this.#ready = true;
    this.#post('ready', {
      step,
      savedExtractor: session.savedExtractor,
      bucket: session.bucket,
      expiresAt: session.expiresAt,
    });
  }

  #measure(): void {
    this.#height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    this.#postHeight();
  }

  #postHeight(): void {
    const height = this.#height;
    // Only a change is news: the same height again would make the host do nothing twice.
    if (height === undefined || height === this.#postedHeight || !this.#session) return;
    this.#postedHeight = height;
    this.#post('resize', { height });
  }

  #post<Name extends FrameEventName>(name: Name, payload: FrameEventPayloads[Name]): void {
    const message = {
      type: `${frameMessagePrefix}${name}`,
      version: frameProtocolVersion,
      instanceId: this.#options.instanceId,
      payload,
    } as FrameEventMessage;
    if (this.#session) this.#send(message);
    else this.#waiting.push(message);
  }

  #send(message: FrameEventMessage): void {
    for (const origin of targetOrigins(this.#session?.allowedOrigins ?? [], this.#parentOrigin))
      this.#options.host.postMessage(message, origin);
  }
}
