/**
 * How the run worker (./worker.ts) stores a document's progress as it goes: often enough to
 * be seen, seldom enough not to cost the square of a long run.
 */

/**
 * Progress is stored (and announced) as chunks complete, but not more often than this: a
 * run of ten thousand quick chunks would otherwise write its whole growing partial result
 * ten thousand times, which costs the square of its length.
 */
const progressIntervalMs = 200;

/**
 * Stores a run's progress after a chunk (or a page read): at once when the last store is
 * long enough ago, else a little later (while the next one works), so no step waits long to
 * be seen. Stores happen one after another, each a snapshot taken when it starts.
 */
export class ProgressWriter {
  readonly #store: () => Promise<boolean>;
  #lastStoredAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;
  #running = true;

  /** `store` writes the current progress; false when the run is no longer running. */
  constructor(store: () => Promise<boolean>) {
    this.#store = store;
  }

  /** Notes a completed step; false once a store found the run paused or cancelled. */
  async stepDone(last: boolean): Promise<boolean> {
    this.#dirty = true;
    const wait = this.#lastStoredAt + progressIntervalMs - performance.now();
    if (last || wait <= 0) await this.#write();
    else this.#timer ??= setTimeout(() => void this.#write(), wait);
    return this.#running;
  }

  /** Stores what is not stored yet, now (before the run is handed back). */
  async flush(): Promise<void> {
    await this.#write();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  /** Waits for the store under way, if any (after `stop`, none follows it). */
  settled(): Promise<void> {
    return this.#writing;
  }

  #write(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing = this.#writing.then(async () => {
      if (!this.#dirty || !this.#running) return;
      this.#dirty = false;
      this.#lastStoredAt = performance.now();
      if (!(await this.#store())) this.#running = false;
    });
    return this.#writing;
  }
}
