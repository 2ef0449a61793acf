import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('DATABASE_URL and FILES_URL', () => {
  it('keep SQLite under DATA_DIR and files in DATA_DIR/files when unset', () => {
    const config = loadConfig({ DATA_DIR: '/srv/extractor' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.files).toEqual({ kind: 'directory', path: '/srv/extractor/files' });
  });

  it('take a PostgreSQL address, and an S3 bucket with or without a prefix', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://extractor:secret@db.internal:5432/extractor',
      FILES_URL: 's3://acme-documents/extractor/uploads/',
    });
    expect(config.databaseUrl).toBe('postgres://extractor:secret@db.internal:5432/extractor');
    expect(config.files).toEqual({
      kind: 's3',
      bucket: 'acme-documents',
      prefix: 'extractor/uploads',
    });
    expect(loadConfig({ FILES_URL: 's3://acme-documents' }).files).toEqual({
      kind: 's3',
      bucket: 'acme-documents',
      prefix: '',
    });
  });

  it.each([
    ['DATABASE_URL', 'mysql://db/extractor'],
    ['DATABASE_URL', 'extractor.sqlite'],
    ['FILES_URL', 's3://Not_A_Bucket/x'],
    ['FILES_URL', 'gs://bucket/prefix'],
  ])('refuse %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('SERVICE_ROLE and the variables of several processes', () => {
  const postgres = { DATABASE_URL: 'postgres://db.internal/extractor' };

  it('runs API and worker in one process by default, with a minute-long lease', () => {
    const config = loadConfig({});
    expect(config.role).toBe('all');
    expect(config.workerLeaseMs).toBe(60_000);
    expect(config.shutdownGraceMs).toBe(10_000);
    expect(config.databasePoolSize).toBe(10);
  });

  it('keeps idle connections 65 s unless HTTP_KEEP_ALIVE_SECONDS says otherwise', () => {
    expect(loadConfig({}).httpKeepAliveMs).toBe(65_000);
    expect(loadConfig({ HTTP_KEEP_ALIVE_SECONDS: '620' }).httpKeepAliveMs).toBe(620_000);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_SECONDS: '0' })).toThrow('HTTP_KEEP_ALIVE_SECONDS');
  });

  it('takes api and worker on PostgreSQL, with their lease, grace and pool', () => {
    expect(loadConfig({ ...postgres, SERVICE_ROLE: 'api' }).role).toBe('api');
    const worker = loadConfig({
      ...postgres,
      SERVICE_ROLE: 'worker',
      WORKER_LEASE_SECONDS: '15',
      SHUTDOWN_GRACE_SECONDS: '0',
      DATABASE_POOL_SIZE: '4',
    });
    expect(worker).toMatchObject({
      role: 'worker',
      workerLeaseMs: 15_000,
      shutdownGraceMs: 0,
      databasePoolSize: 4,
    });
  });

  it.each([
    [{ SERVICE_ROLE: 'scheduler', ...postgres }, 'SERVICE_ROLE must be one of all, api, worker'],
    [{ SERVICE_ROLE: 'api' }, 'SERVICE_ROLE=api needs DATABASE_URL'],
    [{ SERVICE_ROLE: 'worker' }, 'SERVICE_ROLE=worker needs DATABASE_URL'],
    [
      { SERVICE_ROLE: 'worker', WORKER_CONCURRENCY: '0', ...postgres },
      'SERVICE_ROLE=worker needs WORKER_CONCURRENCY of at least 1',
    ],
    [{ WORKER_LEASE_SECONDS: '0' }, 'WORKER_LEASE_SECONDS'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
  ])('refuses %o, saying why', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
