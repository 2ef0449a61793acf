/**
 * How page work waits for the page workers: shared fairly between the sessions that ask,
 * and done only while someone still waits for it.
 *
 * - `FairQueue` takes turns between askers instead of serving one line in order of arrival
 *   (one session asking for every page of its files would otherwise hold up another's
 *   first page behind all of them): each free worker goes to the asker with waiting work
 *   that was served least recently, so a newcomer goes next and a greedy asker gets one
 *   turn in as many as there are askers. Work whose asker left while it waited is dropped
 *   at once, without a turn.
 * - `SharedWork` lets several askers wait for the same piece of work (two people on the
 *   same page): it is started once, and given up (its signal aborted) only when the last
 *   of them has left.
 */

interface WaitingWork {
  start(): void;
  /** Leaves the line without starting: its asker left. */
  drop(): void;
}

interface Asker {
  waiting: WaitingWork[];
  /** Its work under way: while it has any, its turn is remembered. */
  running: number;
  /** The turn at which it was served last; 0 when not since it began asking. */
  servedAt: number;
}

export class FairQueue {
  readonly #slots: number;
  #running = 0;
  #turn = 0;
  /** Askers with work waiting or under way, in order of arrival (which breaks ties). */
  readonly #askers = new Map<string, Asker>();

  constructor(slots: number) {
    this.#slots = Math.max(1, slots);
  }

  /** Pieces of work waiting for a turn. */
  get waiting(): number {
    let count = 0;
    for (const asker of this.#askers.values()) count += asker.waiting.length;
    return count;
  }

  /** Pieces of work under way. */
  get running(): number {
    return this.#running;
  }

  /**
   * Runs `work` once the asker `name` has its turn and a slot is free. A `signal` that aborts while
   * the work waits takes it out of the line (it never starts, and the answer is the
   * signal's reason); once it has started, the work sees the same signal.
   */
  run<T>(name: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    let asker = this.#askers.get(name);
    if (!asker) this.#askers.set(name, (asker = { waiting: [], running: 0, servedAt: 0 }));
    const known = asker;
    return new Promise<T>((resolve, reject) => {
      const entry: WaitingWork = {
        start: () => {
          signal.removeEventListener('abort', entry.drop);
          this.#running++;
          known.running++;
          // A work that throws before its first await frees its slot all the same.
          new Promise<T>((settle) => settle(work(signal))).then(resolve, reject).finally(() => {
            this.#running--;
            known.running--;
            this.#forgetIdle(name, known);
            this.#startWaiting();
          });
        },
        drop: () => {
          known.waiting.splice(known.waiting.indexOf(entry), 1);
          this.#forgetIdle(name, known);
          reject(signal.reason as Error);
        },
      };
      signal.addEventListener('abort', entry.drop, { once: true });
      known.waiting.push(entry);
      this.#startWaiting();
    });
  }

  #startWaiting(): void {
    while (this.#running < this.#slots) {
      const next = this.#nextInTurn();
      if (!next) return;
      next.start();
    }
  }

  /** The first waiting work of the asker served least recently (the earliest on a tie). */
  #nextInTurn(): WaitingWork | undefined {
    let chosen: Asker | undefined;
    for (const asker of this.#askers.values())
      if (asker.waiting.length > 0 && (!chosen || asker.servedAt < chosen.servedAt)) chosen = asker;
    if (!chosen) return undefined;
    chosen.servedAt = ++this.#turn;
    return chosen.waiting.shift();
  }

  #forgetIdle(name: string, asker: Asker): void {
    if (asker.waiting.length === 0 && asker.running === 0 && this.#askers.get(name) === asker)
      this.#askers.delete(name);
  }
}

interface Shared<T> {
  askers: number;
  controller: AbortController;
  done: Promise<T>;
}

export class SharedWork<T> {
  readonly #under = new Map<string, Shared<T>>();

  /**
   * The answer of the work known as `key`, started with `start` unless it is under way
   * already. When `signal` aborts, this asker's answer is the signal's reason at once; the
   * work's own signal aborts when every asker has left.
   */
  join(key: string, signal: AbortSignal, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    let shared = this.#under.get(key);
    if (!shared) {
      const controller = new AbortController();
      const started: Shared<T> = { askers: 0, controller, done: start(controller.signal) };
      void started.done.finally(() => this.#forget(key, started)).catch(() => undefined);
      this.#under.set(key, (shared = started));
    }
    const joined = shared;
    joined.askers++;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        reject(signal.reason as Error);
        if (--joined.askers > 0) return;
        // Given up: whoever asks next starts it afresh rather than join its ending.
        this.#forget(key, joined);
        joined.controller.abort(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      joined.done.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  }

  #forget(key: string, shared: Shared<T>): void {
    if (this.#under.get(key) === shared) this.#under.delete(key);
  }
}
