/**
 * The signals between the parts of a process, and through PostgreSQL between processes,
 * that wake whoever waits for a run to change, to be queued or cancelled, or for webhook
 * deliveries to be queued.
 */
import { EventEmitter } from 'node:events';

/**
 * What one part of the service tells the others, once the change it is about has committed:
 * a run changed (its watchers look again), a run was queued (workers look for work), a run
 * was cancelled (its worker stops the chunk in flight), webhook deliveries were queued (the
 * dispatcher looks for them).
 */
export type RunSignal =
  { kind: 'changed' | 'cancelled'; runId: string } | { kind: 'queued' | 'webhooks' };

/**
 * Wakes whoever waits on a run (event streams), the worker when a run is queued or
 * cancelled, and the webhook dispatcher. Within one process signals go straight to its
 * listeners; with several processes on PostgreSQL, `connect` sends them through the
 * database to every process, this one included (signal-channel.ts), which hands them to
 * `receive`. Listeners never rely on a signal alone: streams and workers also look again
 * every little while, so a signal lost with a connection only costs time.
 */
export class RunSignals {
  readonly #emitter = new EventEmitter();
  #broadcast: ((signal: RunSignal) => void) | undefined;

  constructor() {
    // One listener per open stream; many streams may watch one run.
    this.#emitter.setMaxListeners(0);
  }

  /**
   * Sends every signal from now on through `broadcast`, which must come back to `receive`;
   * `undefined` goes back to this process alone.
   */
  connect(broadcast: ((signal: RunSignal) => void) | undefined): void {
    this.#broadcast = broadcast;
  }

  /** A signal from any process, for this process's listeners. */
  receive(signal: RunSignal): void {
    if (signal.kind === 'changed') this.#emitter.emit(`changed:${signal.runId}`);
    else if (signal.kind === 'cancelled') this.#emitter.emit('cancelled', signal.runId);
    else this.#emitter.emit(signal.kind);
  }

  /** Wakes every listener, as after signals may have been missed (a lost connection). */
  wakeAll(): void {
    // Not `cancelled`: it names a run, and a worker that missed it sees the cancel when it
    // next stores its progress.
    for (const name of this.#emitter.eventNames())
      if (name !== 'cancelled') this.#emitter.emit(name);
  }

  #send(signal: RunSignal): void {
    if (this.#broadcast) this.#broadcast(signal);
    else this.receive(signal);
  }

  runChanged(runId: string): void {
    this.#send({ kind: 'changed', runId });
  }

  runQueued(): void {
    this.#send({ kind: 'queued' });
  }

  runCancelled(runId: string): void {
    this.#send({ kind: 'cancelled', runId });
  }

  webhooksQueued(): void {
    this.#send({ kind: 'webhooks' });
  }

  /** Resolves on the next change of the run, or after `timeoutMs`, or when aborted. */
  waitForRun(runId: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    // An abort listener added after the abort would never hear of it.
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const name = `changed:${runId}`;
      const done = () => {
        clearTimeout(timer);
        this.#emitter.off(name, done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#emitter.on(name, done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  onQueued(listener: () => void): () => void {
    return this.#on('queued', listener);
  }

  onCancelled(listener: (runId: string) => void): () => void {
    return this.#on('cancelled', listener);
  }

  onWebhooksQueued(listener: () => void): () => void {
    return this.#on('webhooks', listener);
  }

  #on(name: string, listener: (runId: string) => void): () => void {
    this.#emitter.on(name, listener);
    return () => this.#emitter.off(name, listener);
  }
}
