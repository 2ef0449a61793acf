/**
 * The document workers: child processes that read documents and run the `local` rules, so
 * that no document can take the service down or hold its event loop. Processes rather than
 * worker threads, because a thread shares its process: a native decoder's crash, or V8
 * giving up on a heap, would end the service with it. A process can be ended from outside,
 * which is how the limits that a reader cannot check for itself are kept:
 *
 * - memory: each worker runs with `--max-old-space-size` at the limit, and its resident
 *   memory (heap, decoded pixels, WebAssembly) is watched; past the limit it is killed;
 * - time: a document (or one chunk's rules) that takes longer than the limit is killed.
 *
 * A killed or crashed worker fails its task with a plain error naming the file being read
 * at the time (`DocumentLimitError`, `DocumentWorkerCrash`), and the next task gets a fresh
 * process. Workers start when first needed and end after a while idle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ExtractionError, type Chunk, type PageProgress } from '../types.js';
import { memoryLimitError, timeLimitError, type DocumentLimits } from '../limits.js';
import type { FailedTask, FromWorker, TaskResults, ToWorker, WorkerTask } from './protocol.js';

/** A worker process ended while it worked on a file, for no limit we know of. */
export class DocumentWorkerCrash extends ExtractionError {
  override name = 'DocumentWorkerCrash';
  override fileName: string;

  constructor(
    fileName: string,
    readonly how: string,
    times = 1,
  ) {
    super(
      `${fileName} stopped the document reader${times > 1 ? ` ${times} times` : ''} (it ended with ${how}); the file may be damaged`,
      'damaged_file',
    );
    this.fileName = fileName;
  }
}

export interface PoolOptions {
  /** How many documents are worked on at once (one process each). */
  size: number;
  limits: DocumentLimits;
  /** How long a worker with nothing to do stays, in ms. */
  idleMs?: number;
}

interface Member {
  child: ChildProcess;
  /** The end of what the process wrote to stderr: V8 says there why it gave up. */
  stderr: string;
  /** Why we ended it, when we did. */
  killedFor?: 'memory' | 'time' | 'abort';
  /** Resident memory in MB that ends it; set while it works. */
  watching: boolean;
  idleTimer?: NodeJS.Timeout;
  exited: Promise<void>;
}

/** How long an aborted task may take to stop on its own before its process is ended. */
const abortGraceMs = 1000;
/** How often the resident memory of working processes is looked at. */
const memoryCheckMs = 100;
/** The workers' scheduling priority (nice value): below the service's own. */
const workerNiceness = 5;

/**
 * The worker's entry: the TypeScript source under tsx (tests, `npm run bench`), or the
 * bundle's own file beside the service's (`npm start`, see src/tools/build/build-server.ts), which
 * sits in dist/server whether this code landed in the entry or in a chunk below it.
 */
function workerArguments(): string[] {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return ['--import', tsx, fileURLToPath(new URL('./document-worker.ts', here))];
  }
  for (const candidate of ['./document-worker.mjs', '../document-worker.mjs']) {
    const path = fileURLToPath(new URL(candidate, here));
    if (existsSync(path)) return [path];
  }
  throw new Error(`The document worker's bundle is missing beside ${fileURLToPath(here)}`);
}

function residentMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export class DocumentPool {
  readonly limits: DocumentLimits;
  readonly #size: number;
  readonly #idleMs: number;
  readonly #members = new Set<Member>();
  readonly #idle: Member[] = [];
  readonly #waiting: ((member: Member) => void)[] = [];
  #nextId = 1;
  #closed = false;
  #watchdog: NodeJS.Timeout | undefined;

  constructor(options: PoolOptions) {
    this.#size = Math.max(1, options.size);
    this.limits = options.limits;
    this.#idleMs = options.idleMs ?? 30_000;
  }

  /** Reads the files and cuts them into chunks; `onPage` hears of each page read. */
  async prepare(
    task: Omit<Extract<WorkerTask, { kind: 'prepare' }>, 'kind' | 'limits'>,
    signal?: AbortSignal,
    onPage?: PageProgress,
  ): Promise<Chunk[]> {
    const chunks: Chunk[] = [];
    await this.#run({ kind: 'prepare', limits: this.limits, ...task }, signal, (message) => {
      if (message.type === 'chunks') for (const chunk of message.chunks) chunks.push(chunk);
      else onPage?.(message.pagesRead, message.pagesTotal);
    });
    return chunks;
  }

  extract(
    task: Omit<Extract<WorkerTask, { kind: 'extract' }>, 'kind' | 'limits'>,
    signal?: AbortSignal,
  ): Promise<TaskResults['extract']> {
    return this.#run({ kind: 'extract', limits: this.limits, ...task }, signal);
  }

  /** How many pages the engine makes of a file. */
  async countPages(
    task: Omit<Extract<WorkerTask, { kind: 'count' }>, 'kind' | 'limits'>,
    signal?: AbortSignal,
  ): Promise<number> {
    return (await this.#run({ kind: 'count', limits: this.limits, ...task }, signal)).pageCount;
  }

  /** Draws a page of a PDF or an image into `task.output`; see RenderTask. */
  renderPage(
    task: Omit<Extract<WorkerTask, { kind: 'render' }>, 'kind' | 'limits'>,
    signal?: AbortSignal,
  ): Promise<TaskResults['render']> {
    return this.#run({ kind: 'render', limits: this.limits, ...task }, signal);
  }

  /** A page's text as a run with `task.options` reads it. */
  pageText(
    task: Omit<Extract<WorkerTask, { kind: 'text' }>, 'kind' | 'limits'>,
    signal?: AbortSignal,
  ): Promise<TaskResults['text']> {
    return this.#run({ kind: 'text', limits: this.limits, ...task }, signal);
  }

  /** The processes alive now (for tests that make sure none is left behind). */
  get pids(): number[] {
    return [...this.#members].map((member) => member.child.pid!);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#watchdog);
    const members = [...this.#members];
    for (const member of members) member.child.kill('SIGKILL');
    await Promise.all(members.map((member) => member.exited));
  }

  #run<K extends WorkerTask['kind']>(
    task: Extract<WorkerTask, { kind: K }>,
    signal: AbortSignal | undefined,
    onProgress?: (message: Extract<FromWorker, { type: 'chunks' | 'pages' }>) => void,
  ): Promise<TaskResults[K]> {
    signal?.throwIfAborted();
    return this.#acquire().then(
      (member) =>
        new Promise<TaskResults[K]>((resolve, reject) => {
          // Given up while it waited for a process (a page request whose client left).
          if (signal?.aborted) {
            this.#release(member);
            reject(signal.reason);
            return;
          }
          const id = this.#nextId++;
          const known: WorkerTask = task;
          let subject =
            known.kind === 'prepare'
              ? (known.files[0]?.name ?? 'the document')
              : known.kind === 'extract'
                ? (known.chunk.spans[0]?.fileName ?? 'the document')
                : known.file.name;
          let deadline: NodeJS.Timeout | undefined;
          let grace: NodeJS.Timeout | undefined;
          const startClock = () => {
            clearTimeout(deadline);
            deadline = setTimeout(() => this.#kill(member, 'time'), this.limits.timeMs);
          };
          const settle = (outcome: () => void) => {
            clearTimeout(deadline);
            clearTimeout(grace);
            member.child.off('message', onMessage);
            member.child.off('exit', onExit);
            signal?.removeEventListener('abort', onAbort);
            member.watching = false;
            // A worker being ended (its answer raced the kill) is not handed out again.
            if (
              !member.killedFor &&
              member.child.exitCode === null &&
              member.child.signalCode === null
            )
              this.#release(member);
            outcome();
          };
          const onMessage = (message: FromWorker) => {
            if (message.id !== id) return;
            if (message.type === 'file') {
              subject = message.name;
              startClock();
            } else if (message.type === 'chunks' || message.type === 'pages') onProgress?.(message);
            else if (message.type === 'done')
              settle(() => resolve(message.value as TaskResults[K]));
            else settle(() => reject(revive(message.error, signal, subject)));
          };
          const onExit = () => {
            settle(() => {
              if (member.killedFor === 'abort') reject(signal?.reason);
              else if (member.killedFor === 'time' && !signal?.aborted)
                reject(Object.assign(timeLimitError(subject, this.limits), { fileName: subject }));
              else if (
                member.killedFor === 'memory' ||
                /heap out of memory|Allocation failed|ERR_WORKER_OUT_OF_MEMORY/.test(member.stderr)
              )
                reject(
                  Object.assign(memoryLimitError(subject, this.limits), { fileName: subject }),
                );
              else {
                const how = member.child.signalCode ?? `code ${member.child.exitCode}`;
                reject(new DocumentWorkerCrash(subject, how));
              }
            });
          };
          const onAbort = () => {
            this.#send(member, { id, type: 'abort' });
            grace = setTimeout(() => this.#kill(member, 'abort'), abortGraceMs);
          };
          member.child.on('message', onMessage);
          member.child.once('exit', onExit);
          signal?.addEventListener('abort', onAbort, { once: true });
          member.watching = true;
          this.#watchMemory();
          startClock();
          this.#send(member, { id, type: 'task', task });
        }),
    );
  }

  #send(member: Member, message: ToWorker): void {
    if (member.child.connected) member.child.send(message);
  }

  #kill(member: Member, reason: NonNullable<Member['killedFor']>): void {
    member.killedFor ??= reason;
    member.child.kill('SIGKILL');
  }

  #acquire(): Promise<Member> {
    if (this.#closed) return Promise.reject(new Error('The document pool is closed.'));
    const idle = this.#idle.pop();
    if (idle) {
      clearTimeout(idle.idleTimer);
      return Promise.resolve(idle);
    }
    if (this.#members.size < this.#size) return Promise.resolve(this.#spawn());
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(member: Member): void {
    const next = this.#waiting.shift();
    if (next) return next(member);
    this.#idle.push(member);
    member.idleTimer = setTimeout(() => member.child.kill('SIGTERM'), this.#idleMs);
    member.idleTimer.unref();
  }

  #spawn(): Member {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${this.limits.memoryMb}`, ...workerArguments()],
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' },
    );
    try {
      // Documents yield the processor to the API: on a small machine the workers' OCR and
      // rules would otherwise take turns with the service's answers as equals.
      setPriority(child.pid!, workerNiceness);
    } catch {
      // Not allowed here (a container without the capability): equal priority, then.
    }
    const member: Member = {
      child,
      stderr: '',
      watching: false,
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
    };
    child.stderr!.on('data', (data: Buffer) => {
      member.stderr = (member.stderr + data.toString()).slice(-4096);
    });
    // A send to a process that just died fails here rather than as an uncaught error.
    child.on('error', () => undefined);
    child.once('exit', () => {
      this.#members.delete(member);
      const index = this.#idle.indexOf(member);
      if (index >= 0) this.#idle.splice(index, 1);
      clearTimeout(member.idleTimer);
      // Someone waiting for a process gets a new one in place of this.
      const next = this.#waiting.shift();
      if (next && !this.#closed) next(this.#spawn());
    });
    this.#members.add(member);
    return member;
  }

  #watchMemory(): void {
    if (this.#watchdog) return;
    this.#watchdog = setInterval(() => {
      let working = false;
      for (const member of this.#members) {
        if (!member.watching) continue;
        working = true;
        if (residentMb(member.child.pid!) > this.limits.memoryMb) this.#kill(member, 'memory');
      }
      if (!working) {
        clearInterval(this.#watchdog);
        this.#watchdog = undefined;
      }
    }, memoryCheckMs);
    this.#watchdog.unref();
  }
}

/**
 * An error from the worker as the service throws it: an `ExtractionError` for what a person
 * can act on (it came with its code), carrying the file the worker was working on.
 */
function revive(
  error: FailedTask['error'],
  signal: AbortSignal | undefined,
  fileName: string,
): unknown {
  if (error.name === 'AbortError' && signal?.aborted) return signal.reason;
  if (error.code) {
    const revived = new ExtractionError(error.message, error.code);
    revived.name = error.name;
    revived.fileName = fileName;
    return revived;
  }
  return Object.assign(new Error(error.message), {
    name: error.name,
    stack: error.stack,
    // A full disk in the worker is told as one in the service (errors.ts: isInsufficientStorage).
    ...(error.systemCode ? { code: error.systemCode } : {}),
  });
}
