/**
 * A document worker: a child process of the service that reads documents and runs the
 * `local` strategy's rules, one task at a time, for ./pool.ts. Whatever a document does to
 * it (runs it out of memory, keeps it busy, crashes a native decoder) ends this process,
 * never the service. It exits when the service goes away (its IPC channel closes).
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { chunkPages } from '../chunks.js';
import { readDocuments } from '../documents.js';
import { createLocalStrategy } from '../local/local-strategy.js';
import { countPages, readPageText, renderPage } from '../pages.js';
import { ExtractionError, type Chunk, type ExtractionStrategy } from '../types.js';
import type {
  ExtractTask,
  FromWorker,
  PrepareTask,
  RenderTask,
  TaskResults,
  ToWorker,
  WorkerTask,
} from './protocol.js';

/** Characters of chunk text per message to the service: each message stays quick to decode. */
const chunkBatchCharacters = 1_000_000;

const send = (message: FromWorker) => process.send!(message);
const running = new Map<number, AbortController>();

async function prepare(id: number, task: PrepareTask, signal: AbortSignal): Promise<unknown> {
  const pages = await readDocuments(task.files, task.options, {
    cacheDir: task.cacheDir,
    signal,
    limits: task.limits,
    onFile: (file) => send({ id, type: 'file', name: file.name }),
    onPage: (pagesRead, pagesTotal) => send({ id, type: 'pages', pagesRead, pagesTotal }),
  });
  const chunks = chunkPages(pages, task.chunkSize);
  let batch: Chunk[] = [];
  let characters = 0;
  for (const chunk of chunks) {
    batch.push(chunk);
    characters += chunk.text.length;
    if (characters >= chunkBatchCharacters) {
      send({ id, type: 'chunks', chunks: batch });
      batch = [];
      characters = 0;
    }
  }
  if (batch.length > 0) send({ id, type: 'chunks', chunks: batch });
  return { chunksTotal: chunks.length };
}

// One strategy for the process, so the plans it makes of a schema are made once; the
// schema arrives as a new object with every task, hence the cache by its text.
const local: ExtractionStrategy = createLocalStrategy();
const schemas = new Map<string, TargetSchema>();

function sameSchema(schema: TargetSchema): TargetSchema {
  const key = JSON.stringify(schema);
  let known = schemas.get(key);
  if (!known) {
    if (schemas.size >= 16) schemas.clear();
    schemas.set(key, (known = schema));
  }
  return known;
}

async function extract(id: number, task: ExtractTask, signal: AbortSignal): Promise<unknown> {
  send({ id, type: 'file', name: task.chunk.spans[0]?.fileName ?? 'the document' });
  return local.extractChunk(task.chunk, {
    schema: sameSchema(task.schema),
    outputInstructions: '',
    model: 'local',
    merged: {},
    signal,
  });
}

async function render(task: RenderTask, signal: AbortSignal): Promise<TaskResults['render']> {
  const { pageCount, picture } = await renderPage(
    task.file,
    task.page,
    task.width,
    task.format,
    task.limits,
    signal,
  );
  if (!picture) return { pageCount, written: false };
  await mkdir(dirname(task.output), { recursive: true });
  try {
    await writeFile(task.temporary, picture, { signal });
    await rename(task.temporary, task.output);
  } finally {
    await rm(task.temporary, { force: true });
  }
  return { pageCount, written: true };
}

function work(id: number, task: WorkerTask, signal: AbortSignal): Promise<unknown> {
  if (task.kind === 'prepare') return prepare(id, task, signal);
  if (task.kind === 'extract') return extract(id, task, signal);
  send({ id, type: 'file', name: task.file.name });
  const io = { signal, limits: task.limits };
  if (task.kind === 'count')
    return countPages(task.file, { ...io, cacheDir: task.cacheDir }).then((pageCount) => ({
      pageCount,
    }));
  if (task.kind === 'render') return render(task, signal);
  return readPageText(task.file, task.page, task.options, { ...io, cacheDir: task.cacheDir });
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'abort') {
    running.get(message.id)?.abort();
    return;
  }
  const { id, task } = message;
  const controller = new AbortController();
  running.set(id, controller);
  const working = work(id, task, controller.signal);
  working.then(
    (value) => send({ id, type: 'done', value }),
    (error: unknown) => {
      const { name, message, stack } =
        error instanceof Error ? error : new Error(String(error), { cause: error });
      const code = error instanceof ExtractionError ? error.code : undefined;
      const systemCode = (error as { code?: unknown } | undefined)?.code;
      send({
        id,
        type: 'failed',
        error: {
          name,
          message,
          stack,
          code,
          ...(!code && typeof systemCode === 'string' ? { systemCode } : {}),
        },
      });
    },
  );
  void working.catch(() => undefined).finally(() => running.delete(id));
});

process.on('disconnect', () => process.exit(0));
