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
