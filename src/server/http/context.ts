import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DataDirectory } from '../data-directory.js';
import type { FilePages } from '../files/pages.js';
import type { FileStore } from '../files/storage.js';
import type { Db } from '../store/database.js';
import type { RunSignals } from '../run-lifecycle/signals.js';
import type { RunLifecycle } from '../run-lifecycle/lifecycle.js';
import type { Principal } from '../tokens/tokens.js';
import type { ResourceMediaType } from './negotiation.js';
import type { StreamSlots } from './stream-slots.js';

/** What the HTTP app needs from the rest of the service, built once by the server. */
export interface Services {
  config: Config;
  db: Db;
  storage: FileStore;
  /** DATA_DIR's disk: can it be written, and its reserve of room (data-directory.ts). */
  dataDirectory: DataDirectory;
  /** The files' pages for review: counts, pictures, texts (files/pages.ts). */
  pages: FilePages;
  logger: Logger;
  recordTokenUse(tokenId: string): void;
  runs: RunLifecycle;
  signals: RunSignals;
  /** The event streams each token holds open in this process. */
  streamSlots: StreamSlots;
}

export interface AppEnv {
  Variables: {
    services: Services;
    principal: Principal;
    requestId: string;
    /** The headers every answer carries: its request's id, and nosniff (app.ts). */
    answerHeaders: Record<string, string>;
    /** The answer built with `answerHeaders` already among its own (respond.ts). */
    headedAnswer: Response;
    /** The representation the client asked for, once `negotiated` has run. */
    mediaType: ResourceMediaType;
  };
}
