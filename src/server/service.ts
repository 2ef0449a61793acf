/**
 * Builds the running service from its configuration: the store, the files, the first-start
 * seed and the background workers. main.ts binds the result to a port; tests build it on
 * a temporary directory and call the app in-process.
 */
import type { Logger } from 'pino';
import { createApp, type App } from './app.js';
import { ConfigError, type Config } from './config.js';
import { terminateOcr } from './engine/index.js';
import { createExtractor } from './extractors/extractors.js';
import { demoExtractor } from './extractors/demo.js';
import { knownFileKeys } from './files/files.js';
import { FilePages } from './files/pages.js';
import { createLogger } from './logging.js';
import { DirectoryFileStore, type FileStorage, type FileStore } from './files/storage.js';
import { createFileStore } from './files/create-file-store.js';
import type { Services } from './http/context.js';
import { openStore, type Store } from './store/database.js';
import { RunSignals } from './runs/events.js';
import { RunLifecycle } from './runs/lifecycle.js';
import { RunWorker } from './runs/worker.js';
import {
  createPersonalToken,
  createUsageRecorder,
  registerPersonalToken,
} from './tokens/tokens.js';
import { startWebhookDispatcher, type WebhookDispatcher } from './webhooks/index.js';

export interface Service {
  app: App;
  services: Services;
  store: Store;
  /** Set on the first start only: the personal access token created for the owner. */
  firstToken: string | undefined;
  worker: RunWorker;
  close(): Promise<void>;
}

export interface ServiceOptions {
  logger?: Logger;
  /** Seed the demo extractor and mint a first token on an empty store (default true). */
  seed?: boolean;
}

/**
 * The first start is told by what the store has never held, not by whether it is empty:
 * a token made with `npm run token` before the first `npm start` must not cost the demo
 * extractor, and deletions are soft, so a deleted demo is not seeded again.
 */
async function firstStartNeeds(store: Store): Promise<{ demo: boolean; token: boolean }> {
  const [extractor, personalToken] = await Promise.all([
    store.db.selectFrom('extractors').select('id').limit(1).executeTakeFirst(),
    store.db
      .selectFrom('tokens')
      .select('id')
      .where('kind', '=', 'personal')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { demo: !extractor, token: !personalToken };
}

/**
 * The files as the run worker reads them today: paths on this machine (storage.ts). An
 * object store has none, so a process on one must not work runs until the worker reads
 * through `FileStore.localCopy`; an API-only process (WORKER_CONCURRENCY=0) is fine.
 */
function filesForWorker(storage: FileStore, config: Config): FileStorage {
  if (storage instanceof DirectoryFileStore) return storage;
  if (config.workerConcurrency > 0)
    throw new ConfigError(
      'FILES_URL=s3://… serves API processes only for now (WORKER_CONCURRENCY=0): the run worker does not yet read documents from an object store.',
    );
  return {
    pathOf() {
      throw new Error('This process works no runs (WORKER_CONCURRENCY=0).');
    },
  };
}

export async function createService(
  config: Config,
  options: ServiceOptions = {},
): Promise<Service> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Settled before anything is opened, so that a configuration refused here leaves nothing open.
  const storage = await createFileStore(config);
  const workerFiles = filesForWorker(storage, config);
  const store = await openStore(config, {
    onError: (error) => logger.error({ err: error }, 'a database connection failed'),
  });
  await storage.init();
  const known = await knownFileKeys(store.db);
  try {
    const swept = await storage.sweep((bucketId, fileId) => known.has(`${bucketId}/${fileId}`));
    if (swept > 0) logger.warn({ swept }, 'removed files that no bucket knows');
  } catch (error) {
    // An object store that is down for a moment must not keep the service from starting:
    // GET /readyz says it is not ready, and the next start sweeps again.
    logger.warn({ err: error }, 'could not look for files that no bucket knows');
  }

  let firstToken: string | undefined;
  if (options.seed ?? true) {
    const needs = await firstStartNeeds(store);
    if (needs.demo) await createExtractor(store.db, demoExtractor, config);
    // The owner holds a token already when one was made with `npm run token`.
    if (needs.token) firstToken = (await createPersonalToken(store.db, 'first start')).token;
  }
  if (config.adminToken) {
    const registration = await registerPersonalToken(
      store.db,
      config.adminToken,
      'EXTRACTOR_ADMIN_TOKEN',
    );
    if (registration === 'revoked')
      logger.warn('EXTRACTOR_ADMIN_TOKEN was revoked and stays revoked; set a new one to use it');
  }

  const signals = new RunSignals();
  let dispatcher: WebhookDispatcher | undefined;
  let worker: RunWorker | undefined;
  const runs = new RunLifecycle({
    db: store.db,
    config,
    signals,
    onWebhooksQueued: () => dispatcher?.kick(),
    onCancelled: (runId) => worker?.abort(runId),
  });
  worker = new RunWorker({
    db: store.db,
    config,
    logger,
    storage: workerFiles,
    signals,
    lifecycle: runs,
    soleProcess: store.dialect === 'sqlite',
  });
  await worker.start();
  dispatcher = startWebhookDispatcher({ db: store.db, config, logger });

  const pages = new FilePages({
    db: store.db,
    storage,
    dataDir: config.dataDir,
    limits: config.documents,
  });
  const services: Services = {
    config,
    db: store.db,
    storage,
    pages,
    logger,
    recordTokenUse: createUsageRecorder(store.db),
    runs,
    signals,
  };
  const app = createApp(services);
  return {
    app,
    services,
    store,
    firstToken,
    worker,
    async close() {
      await worker.stop();
      await pages.close();
      await dispatcher.stop();
      await terminateOcr();
      await store.close();
      storage.close();
    },
  };
}
