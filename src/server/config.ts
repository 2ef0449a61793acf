/**
 * Configuration, read once from the environment. Every variable is documented in
 * docs/operating/configuration.md; a bad value stops the start with a message naming it.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDocumentLimits, type DocumentLimits } from './engine/limits.js';

/**
 * The project's folder, where README.md is. This file and the server's bundle
 * (dist/server/main.mjs) both sit two folders below it, so the path is the same either way.
 */
export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * What one process does (docs/operating/deployment.md): `all` answers requests and works
 * runs, `api` only answers requests, `worker` only works runs (and answers its health checks).
 */
export const serviceRoles = ['all', 'api', 'worker'] as const;
export type ServiceRole = (typeof serviceRoles)[number];

export interface Config {
  role: ServiceRole;
  port: number;
  dataDir: string;
  /** Room kept free on DATA_DIR's disk for when it is full (data-directory.ts); 0 for none. */
  dataDirReserveBytes: number;
  /** PostgreSQL's address (`postgres://…`); without it the store is SQLite under dataDir. */
  databaseUrl: string | undefined;
  /** Connections this process keeps open to PostgreSQL, besides the one that listens. */
  databasePoolSize: number;
  /** Where uploaded files are kept: a directory, or an S3 bucket and key prefix. */
  files: FilesLocation;
  /** Where `npm run build` put the interface (dist/ at the project root by default). */
  distDir: string;
  publicBaseUrl: string;
  /**
   * Whether PUBLIC_BASE_URL was set. Unset, publicBaseUrl is `http://localhost:PORT`, and a
   * page that shows people the service's address (/developers) uses the request's origin.
   */
  publicBaseUrlConfigured: boolean;
  adminToken: string | undefined;
  maxUploadBytes: number;
  workerConcurrency: number;
  /** How often the worker looks for queued runs when nothing wakes it (other processes). */
  workerPollMs: number;
  /**
   * How long a worker's claim on a run lasts unless renewed (it is, every third of this):
   * after a worker dies, its runs wait this long before another worker continues them.
   */
  workerLeaseMs: number;
  /** How long SIGTERM lets the chunks in flight finish before their runs are handed back. */
  shutdownGraceMs: number;
  /**
   * How long an idle connection is kept open for the client's next request: longer than a
   * load balancer keeps its own idle connections to us (60 s for the common ones), so the
   * balancer, not the service, always closes them and no request crosses a closing socket.
   */
  httpKeepAliveMs: number;
  /** What one document may cost to read (docs/operating/document-limits.md). */
  documents: DocumentLimits;
  /** The most DATA_DIR/cache/pages may hold, in bytes (PAGE_CACHE_MB). */
  pageCacheBytes: number;
  llm: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    models: string[];
    timeoutMs: number;
  };
  webhooks: { allowPrivate: boolean; timeoutMs: number; retryScale: number };
  logLevel: string;
}

export type FilesLocation =
  { kind: 'directory'; path: string } | { kind: 's3'; bucket: string; prefix: string };

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}; it is "${raw}".`);
  }
  return value;
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new ConfigError(`${name} must be a non-negative number; it is "${raw}".`);
  return value;
}

function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw))
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// address.');
  return raw;
}

/**
 * `s3://bucket/prefix` or a directory. An S3 bucket name is 3 to 63 lower-case letters,
 * digits, dots and hyphens; the prefix is kept as given, without slashes at its ends.
 */
function filesLocation(env: NodeJS.ProcessEnv, dataDir: string): FilesLocation {
  const raw = env.FILES_URL?.trim();
  if (!raw) return { kind: 'directory', path: join(dataDir, 'files') };
  if (raw.startsWith('file://')) return { kind: 'directory', path: fileURLToPath(raw) };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return { kind: 'directory', path: resolve(raw) };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!match)
    throw new ConfigError(
      `FILES_URL must be a directory or s3://bucket/prefix with a valid bucket name; it is "${raw}".`,
    );
  return { kind: 's3', bucket: match[1]!, prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

function serviceRole(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): ServiceRole {
  const raw = env.SERVICE_ROLE?.trim() || 'all';
  if (!(serviceRoles as readonly string[]).includes(raw))
    throw new ConfigError(
      `SERVICE_ROLE must be one of ${serviceRoles.join(', ')}; it is "${raw}".`,
    );
  const role = raw as ServiceRole;
  // SQLite is one process's store: a second process on its file would take the first's
  // running runs for abandoned ones, and neither would hear of the other's changes.
  if (role !== 'all' && !databaseUrl)
    throw new ConfigError(
      `SERVICE_ROLE=${role} needs DATABASE_URL: processes of separate roles share one PostgreSQL database, not a SQLite file.`,
    );
  return role;
}

export const defaultLlmModels = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8787);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535; it is ${port}.`);
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicBaseUrl)) {
    throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) address; it is "${publicBaseUrl}".`);
  }
  const adminToken = env.EXTRACTOR_ADMIN_TOKEN?.trim() || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('EXTRACTOR_ADMIN_TOKEN must be at least 16 characters long.');
  }
  const dataDir = resolve(env.DATA_DIR || './data');
  const database = databaseUrl(env);
  const role = serviceRole(env, database);
  const workerConcurrency = integer(env, 'WORKER_CONCURRENCY', 2, 0);
  if (role === 'worker' && workerConcurrency === 0)
    throw new ConfigError('SERVICE_ROLE=worker needs WORKER_CONCURRENCY of at least 1.');
  return {
    role,
    port,
    dataDir,
    dataDirReserveBytes: integer(env, 'DATA_DIR_RESERVE_MB', 16, 0) * 1024 * 1024,
    databaseUrl: database,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1),
    files: filesLocation(env, dataDir),
    distDir: resolve(env.DIST_DIR || fileURLToPath(new URL('../../dist', import.meta.url))),
    publicBaseUrl,
    publicBaseUrlConfigured: Boolean(env.PUBLIC_BASE_URL),
    adminToken,
    maxUploadBytes: integer(env, 'MAX_UPLOAD_BYTES', 50 * 1024 * 1024, 1),
    workerConcurrency,
    workerPollMs: integer(env, 'WORKER_POLL_MS', 1000, 10),
    workerLeaseMs: integer(env, 'WORKER_LEASE_SECONDS', 60, 1) * 1000,
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_SECONDS', 10, 0) * 1000,
    httpKeepAliveMs: integer(env, 'HTTP_KEEP_ALIVE_SECONDS', 65, 1) * 1000,
    documents: {
      memoryMb: integer(env, 'DOCUMENT_MEMORY_MB', defaultDocumentLimits.memoryMb, 64),
      timeMs:
        integer(env, 'DOCUMENT_TIMEOUT_SECONDS', defaultDocumentLimits.timeMs / 1000, 1) * 1000,
      pages: integer(env, 'DOCUMENT_MAX_PAGES', defaultDocumentLimits.pages, 1),
      megapixels: integer(env, 'DOCUMENT_MAX_MEGAPIXELS', defaultDocumentLimits.megapixels, 1),
      uncompressedMb: integer(
        env,
        'DOCUMENT_MAX_UNCOMPRESSED_MB',
        defaultDocumentLimits.uncompressedMb,
        1,
      ),
      characters: integer(env, 'DOCUMENT_MAX_CHARACTERS', defaultDocumentLimits.characters, 1),
    },
    pageCacheBytes: integer(env, 'PAGE_CACHE_MB', 1024, 1) * 1024 * 1024,
    llm: {
      baseUrl: env.LLM_BASE_URL?.replace(/\/+$/, '') || undefined,
      apiKey: env.LLM_API_KEY || undefined,
      models: (env.LLM_MODELS || defaultLlmModels.join(','))
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean),
      timeoutMs: integer(env, 'LLM_TIMEOUT_MS', 60_000, 1),
    },
    webhooks: {
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1',
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1),
      retryScale: number(env, 'WEBHOOK_RETRY_SCALE', 1),
    },
    logLevel: env.LOG_LEVEL || 'info',
  };
}
