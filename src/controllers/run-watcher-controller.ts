/**
 * Keeps one run up to date while its host is on the page: live through the run's
 * Server-Sent Events, and by polling `GET /api/extraction_runs/{id}` whenever the stream is
 * down (a proxy that buffers or cuts streams, a laptop waking up). While it polls it keeps
 * trying the stream again, backing off, and stops polling as soon as the stream is back.
 * Once the run reaches a final status it loads the whole run once more and rests.
 *
 * The events carry only status, progress (the run's and each document's), partial results
 * and error; when the status changes the controller fetches the whole run too, for its
 * timestamps and results.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ApiError, isAbortError } from '../client/api-error.js';
import type { ExtractorClient } from '../client/client.js';
import {
  openRunEvents,
  type EventSourceFactory,
  type RunEventMessage,
  type RunEventStream,
} from '../client/run-events.js';
import type { Run } from '../contract/resources.js';
import { isFinalRunStatus } from '../contract/run-status.js';

export type RunConnection = 'idle' | 'live' | 'polling';

export interface RunWatcherOptions {
  /** Called after every change of `value`, with the run as it was before. */
  onChange?: (run: Run, previous: Run | undefined) => void;
  pollIntervalMs?: number;
  /** The first wait before opening a failed stream again; it doubles up to the maximum. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  createEventSource?: EventSourceFactory;
}

export class RunWatcherController implements ReactiveController {
  /** The run as last seen. */
  value: Run | undefined;
  /** How the run is being followed right now. */
  connection: RunConnection = 'idle';

  readonly #host: ReactiveControllerHost;
  readonly #pollIntervalMs: number;
  readonly #firstReconnectDelayMs: number;
  readonly #maxReconnectDelayMs: number;
  readonly #options: RunWatcherOptions;
  #client: ExtractorClient | undefined;
  #attached = false;
  #stream: RunEventStream | undefined;
  #lastEventId = '';
  #pollTimer: ReturnType<typeof setTimeout> | undefined;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #reconnectDelayMs: number;
  #refreshing: AbortController | undefined;

  constructor(host: ReactiveControllerHost, options: RunWatcherOptions = {}) {
    this.#host = host;
    this.#options = options;
    this.#pollIntervalMs = options.pollIntervalMs ?? 2000;
    this.#firstReconnectDelayMs = options.reconnectDelayMs ?? 1000;
    this.#maxReconnectDelayMs = options.maxReconnectDelayMs ?? 30_000;
    this.#reconnectDelayMs = this.#firstReconnectDelayMs;
    host.addController(this);
  }

  hostConnected(): void {
    this.#attached = true;
    this.#follow();
  }

  hostDisconnected(): void {
    this.#attached = false;
    this.#stopFollowing();
  }

  /** Follows `run` from now on (a different run replaces the one followed before). */
  watch(client: ExtractorClient, run: Run): void {
    const same = this.value?.id === run.id && this.#client === client;
    if (!same) {
      this.#stopFollowing();
      this.#client = client;
      this.#lastEventId = '';
      this.#reconnectDelayMs = this.#firstReconnectDelayMs;
    }
    this.#apply(run);
    if (!same || this.connection === 'idle') this.#follow();
  }

  /** Stops following and forgets the run. */
  clear(): void {
    this.#stopFollowing();
    this.#client = undefined;
    this.value = undefined;
    this.#host.requestUpdate();
  }

  #follow(): void {
    const run = this.value;
    if (!this.#attached || !this.#client || !run) return;
    if (isFinalRunStatus(run.status)) {
      this.#stopFollowing();
      return;
    }
    if (!this.#stream) this.#openStream();
  }

  #openStream(): void {
    const client = this.#client;
    const run = this.value;
    if (!client || !run) return;
    this.#stream?.close();
    this.#stream = openRunEvents(
      client.runEventsUrl(run.id, this.#lastEventId),
      {
        onOpen: () => {
          this.#reconnectDelayMs = this.#firstReconnectDelayMs;
          this.#stopPolling();
          this.#setConnection('live');
        },
        onEvent: (message) => this.#handleEvent(message),
        onError: (closed) => {
          if (!this.value || isFinalRunStatus(this.value.status)) return;
          this.#startPolling();
          // While the browser retries on its own (`closed` false) the stream object stays;
          // when it gave up, a new one is opened later, with the last event id.
          if (closed) {
            this.#stream?.close();
            this.#stream = undefined;
            this.#scheduleReconnect();
          }
        },
      },
      this.#options.createEventSource,
    );
  }

  #handleEvent(message: RunEventMessage): void {
    const current = this.value;
    if (!current || message.data.run.split('/').pop() !== encodeURIComponent(current.id)) return;
    if (message.id) this.#lastEventId = message.id;
    const { status, chunksCompleted, chunksTotal, partialResultJson, error, documents } =
      message.data;
    const statusChanged = status !== current.status;
    const fromEvent: Run = {
      ...current,
      status,
      chunksCompleted,
      chunksTotal,
      partialResultJson,
      partialData: partialResultJson ?? current.partialData,
      error,
      documents: documents ?? current.documents,
    };
    if (isFinalRunStatus(status)) {
      this.#stream?.close();
      this.#stream = undefined;
      this.#stopPolling();
      this.#setConnection('idle');
      // An event carries no final results: the end shows with the whole run, so no view ever
      // holds a completed run without its data. Only when that cannot be loaded does the
      // event alone say how the run ended.
      void this.#refresh().then((loaded) => {
        if (!loaded && this.value?.id === current.id) this.#apply(fromEvent);
        // The event can be older than the run: one that ended, was reopened (a failed
        // document read again) and is heard of from an earlier event id. Followed on then.
        else if (loaded) this.#follow();
      });
      return;
    }
    this.#apply(fromEvent);
    if (statusChanged) void this.#refresh();
  }

  #startPolling(): void {
    if (this.#pollTimer !== undefined) return;
    this.#setConnection('polling');
    const poll = async () => {
      await this.#refresh();
      if (this.#pollTimer === undefined) return;
      if (!this.value || isFinalRunStatus(this.value.status)) {
        this.#stopFollowing();
        return;
      }
      this.#pollTimer = setTimeout(poll, this.#pollIntervalMs);
    };
    this.#pollTimer = setTimeout(poll, 0);
  }

  #stopPolling(): void {
    clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
  }

  #scheduleReconnect(): void {
    clearTimeout(this.#reconnectTimer);
    const delay = this.#reconnectDelayMs;
    this.#reconnectDelayMs = Math.min(delay * 2, this.#maxReconnectDelayMs);
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#attached && this.value && !isFinalRunStatus(this.value.status)) this.#openStream();
    }, delay);
  }

  /** Loads the whole run; failures are left to the next poll or event. True when it applied it. */
  async #refresh(): Promise<boolean> {
    const client = this.#client;
    const current = this.value;
    if (!client || !current) return false;
    this.#refreshing?.abort();
    const controller = new AbortController();
    this.#refreshing = controller;
    try {
      const run = await client.getRun(current.id, controller.signal);
      const latest = this.value;
      if (controller.signal.aborted || !latest || latest.id !== run.id) return false;
      // An answer that left the service before the last event arrived must not undo it.
      const stale = run.status === latest.status && run.chunksCompleted < latest.chunksCompleted;
      this.#apply(
        stale
          ? {
              ...run,
              chunksCompleted: latest.chunksCompleted,
              partialResultJson: latest.partialResultJson,
              documents: latest.documents,
            }
          : run,
      );
      if (isFinalRunStatus(run.status)) this.#stopFollowing();
      return true;
    } catch (error) {
      if (
        !isAbortError(error) &&
        !controller.signal.aborted &&
        error instanceof ApiError &&
        (error.status === 401 || error.status === 404)
      )
        this.#stopFollowing();
      return false;
    } finally {
      if (this.#refreshing === controller) this.#refreshing = undefined;
    }
  }

  #stopFollowing(): void {
    this.#stream?.close();
    this.#stream = undefined;
    this.#stopPolling();
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    this.#refreshing?.abort();
    this.#refreshing = undefined;
    this.#setConnection('idle');
  }

  #apply(run: Run): void {
    const previous = this.value;
    this.value = run;
    this.#host.requestUpdate();
    this.#options.onChange?.(run, previous);
  }

  #setConnection(connection: RunConnection): void {
    if (this.connection === connection) return;
    this.connection = connection;
    this.#host.requestUpdate();
  }
}
