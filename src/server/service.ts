/**
 * Builds the running service from its configuration: the store, the files, the first-start
 * seed and the background work, as the process's role asks (SERVICE_ROLE,
 * docs/operating/deployment.md): `api` answers requests, `worker` works runs and sends
 * webhooks, `all` does both. main.ts binds the result to a port; tests build it on a temporary directory and call
 * the app in-process.
 */
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { createApp, createHealthApp, type App } from './app.js';
import type { Config } from './config.js';
import { terminateOcr } from './engine/index.js';
import { DataDirectory } from './data-directory.js';
import { createExtractor, hasAnyExtractor } from './extractors/extractors.js';
import { demoExtractor } from './extractors/demo.js';
import { sweepContentCache } from './files/content-cache.js';
import { knownContents, knownFileKeys } from './files/files.js';
import { FilePages } from './files/pages.js';
import { createLogger } from './logging.js';
import type { FileStore } from './files/storage.js';
import { createFileStore } from './files/create-file-store.js';
import type { Services } from './http/context.js';
import { StreamSlots } from './http/stream-slots.js';
import { openStore, type Db, type Store } from './store/database.js';
import { RunSignals } from './run-lifecycle/signals.js';
import { RunLifecycle } from './run-lifecycle/lifecycle.js';
import { openSignalChannel, type SignalChannel } from './run-lifecycle/signal-channel.js';
import { RunWorker } from './run-lifecycle/worker.js';
import {
  createPersonalToken,
  createUsageRecorder,
  hasPersonalToken,
  registerPersonalToken,
} from './tokens/tokens.js';
import { startWebhookDispatcher, type WebhookDispatcher } from './webhooks/index.js';

export interface Service {
  /** The HTTP app: the whole API, or a worker's health checks alone. */
  app: App;
  services: Services;
  store: Store;
  /** Set on the first start only: the personal access token created for the owner. */
  firstToken: string | undefined;
  /**
   * Takes no more work: the worker lets the chunks in flight finish for up to
   * SHUTDOWN_GRACE_SECONDS and hands its runs back to the queue, the webhook dispatcher
   * finishes the attempts it started. The app still answers; `close` follows.
   */
  stopWork(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  logger?: Logger;
  /** Seed the demo extractor and mint a first token on an empty store (default true). */
  seed?: boolean;
}

/** How often a process that works runs looks for files no bucket knows. */
const sweepIntervalMs = 6 * 3_600_000;
/** A cache entry of a content no file has is kept this long (an upload may be on its way). */
const cacheGraceMs = 3_600_000;

/**
 * The first start is told by what the store has never held, not by whether it is empty:
 * a token made with `npm run token` before the first `npm start` must not cost the demo
 * extractor, and deletions are soft, so a deleted demo is not seeded again.
 */
async function firstStartNeeds(db: Db): Promise<{ demo: boolean; token: boolean }> {
  const [extractor, personalToken] = await Promise.all([hasAnyExtractor(db), hasPersonalToken(db)]);
  return { demo: !extractor, token: !personalToken };
}

/**
 * Seeds a store that has never been started on: the demo extractor and a first token. API
 * processes started together on a new PostgreSQL database take turns (an advisory lock
 * held by the transaction), so exactly one of them seeds and prints the token.
 */
async function seedFirstStart(store: Store, config: Config): Promise<string | undefined> {
  return store.db.transaction().execute(async (trx) => {
    if (store.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext('extractor first start'))`.execute(trx);
    const needs = await firstStartNeeds(trx);
    if (needs.demo) await createExtractor(trx, demoExtractor, config);
    // The owner holds a token already when one was made with `npm run token`.
    if (needs.token) return (await createPersonalToken(trx, 'first start')).token;
    return undefined;
  });
}

/**
 * Removes files no bucket knows: left by a crash between storing a file and recording it,
 * or by a bucket deleted while its upload was under way. Only files older than the store's
 * grace period go, so a file another process is about to record is left alone.
 */
async function sweepOrphanFiles(store: Store, storage: FileStore, logger: Logger): Promise<void> {
  try {
    const known = await knownFileKeys(store.db);
    const swept = await storage.sweep((bucketId, fileId) => known.has(`${bucketId}/${fileId}`));
    if (swept > 0) logger.warn({ swept }, 'removed files that no bucket knows');
  } catch (error) {
    // An object store that is down for a moment must not keep the service from starting:
    // GET /readyz says it is not ready, and the next sweep looks again.
    logger.warn({ err: error }, 'could not look for files that no bucket knows');
  }
}

/**
 * Removes from this process's DATA_DIR/cache what was made from contents no file has any
 * more (files/content-cache.ts): page images and the engine's readings of deleted files.
 */
async function sweepCache(
  store: Store,
  cacheDir: string,
  pages: FilePages,
  logger: Logger,
): Promise<void> {
  try {
    const known = await knownContents(store.db);
    const swept = await sweepContentCache(cacheDir, (sha256) => known.has(sha256), cacheGraceMs);
    if (swept > 0) {
      pages.cacheSwept();
      logger.info({ swept }, 'removed cached pages and readings of deleted files');
    }
  } catch (error) {
    logger.warn({ err: error }, 'could not sweep the cache');
  }
}

export async function createService(
  config: Config,
  options: ServiceOptions = {},
): Promise<Service> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const answersRequests = config.role !== 'worker';
  const worksRuns = config.role !== 'api';
  const storage = await createFileStore(config);
  const dataDirectory = new DataDirectory(config.dataDir, config.dataDirReserveBytes, logger);
  await dataDirectory.keepReserve().catch((error: unknown) => {
    // A full disk must not keep the service from starting: GET /readyz says not ready.
    logger.warn({ err: error }, 'could not keep a reserve of room on the disk under DATA_DIR');
  });
  // On a full disk SQLite cannot open its database (it needs room for its shared-memory
  // index) and a restart would die at every try: the reserve makes that room.
  const store = await dataDirectory.withReserve('open the database', () =>
    openStore(config, {
      onError: (error) => logger.error({ err: error }, 'a database connection failed'),
    }),
  );
  await storage.init();

  let firstToken: string | undefined;
  if (answersRequests && (options.seed ?? true)) firstToken = await seedFirstStart(store, config);
  if (answersRequests && config.adminToken) {
    const registration = await registerPersonalToken(
      store.db,
      config.adminToken,
      'EXTRACTOR_ADMIN_TOKEN',
    );
    if (registration === 'revoked')
      logger.warn('EXTRACTOR_ADMIN_TOKEN was revoked and stays revoked; set a new one to use it');
  }

  const signals = new RunSignals();
  let channel: SignalChannel | undefined;
  if (config.databaseUrl) {
    try {
      channel = await openSignalChannel({ url: config.databaseUrl, db: store.db, signals, logger });
    } catch (error) {
      await store.close();
      storage.close();
      throw error;
    }
  }
  const pages = new FilePages({
    db: store.db,
    storage,
    dataDir: config.dataDir,
    limits: config.documents,
    cacheBytes: config.pageCacheBytes,
  });
  const runs = new RunLifecycle({ db: store.db, config, signals, storage, pages });
  let worker: RunWorker | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  const stopListening: (() => void)[] = [];
  // Every process caches pages it draws (api) or documents it reads (worker) on its own disk.
  const cacheDir = join(config.dataDir, 'cache');
  const cacheSweeper = setInterval(
    () => void sweepCache(store, cacheDir, pages, logger),
    sweepIntervalMs,
  );
  cacheSweeper.unref();
  let sweeper: NodeJS.Timeout | undefined;
  if (worksRuns) {
    await sweepOrphanFiles(store, storage, logger);
    sweeper = setInterval(() => void sweepOrphanFiles(store, storage, logger), sweepIntervalMs);
    sweeper.unref();
    worker = new RunWorker({
      db: store.db,
      config,
      logger,
      storage,
      dataDirectory,
      signals,
      lifecycle: runs,
    });
    await worker.start();
    const started = startWebhookDispatcher({ db: store.db, config, logger });
    stopListening.push(signals.onWebhooksQueued(() => started.kick()));
    dispatcher = started;
  }

  const services: Services = {
    config,
    db: store.db,
    storage,
    dataDirectory,
    pages,
    logger,
    recordTokenUse: createUsageRecorder(store.db),
    runs,
    signals,
    streamSlots: new StreamSlots(),
  };
  const app = answersRequests ? createApp(services) : createHealthApp(services);
  let stopping: Promise<void> | undefined;
  const stopWork = () =>
    (stopping ??= (async () => {
      clearInterval(sweeper);
      clearInterval(cacheSweeper);
      for (const stop of stopListening.splice(0)) stop();
      await worker?.stop(config.shutdownGraceMs);
      await dispatcher?.stop();
    })());
  return {
    app,
    services,
    store,
    firstToken,
    stopWork,
    async close() {
      await stopWork();
      await pages.close();
      await channel?.close();
      await terminateOcr();
      await store.close();
      storage.close();
    },
  };
}
