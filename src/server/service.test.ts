import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createService, type Service } from './service.js';
import { databaseFile, openSqliteStore } from './store/database.js';
import { createPersonalToken, revokeToken } from './tokens/tokens.js';

const adminToken = 'xpat_service-test-admin-0123456789';
const directories: string[] = [];

function newDataDir(): string {
  const directory = mkdtempSync(join(tmpdir(), 'extractor-service-'));
  directories.push(directory);
  return directory;
}

/** A start of the service on `dataDir`, closed again at once: what one `npm start` leaves. */
async function start(dataDir: string, env: Record<string, string> = {}): Promise<Service> {
  const service = await createService(
    loadConfig({ DATA_DIR: dataDir, WORKER_CONCURRENCY: '0', ...env }),
    {
      logger: pino({ level: 'silent' }),
    },
  );
  await service.close();
  return service;
}

/** Runs `use` on the store at `dataDir`, as `npm run token` does while no server runs. */
async function withStore<T>(
  dataDir: string,
  use: (store: Awaited<ReturnType<typeof openSqliteStore>>) => Promise<T>,
) {
  const store = await openSqliteStore(databaseFile({ dataDir }));
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

const extractorLabels = (dataDir: string) =>
  withStore(dataDir, async (store) =>
    (await store.db.selectFrom('extractors').select('label').execute()).map((row) => row.label),
  );

afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

describe('the first start', () => {
  it('seeds the demo extractor and prints a first token once; later starts keep everything', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    expect(first.firstToken).toMatch(/^xpat_/);
    expect(await extractorLabels(dataDir)).toEqual(['Invoice']);

    const second = await start(dataDir);
    expect(second.firstToken).toBeUndefined();
    expect(await extractorLabels(dataDir)).toEqual(['Invoice']);
  });

  it('still seeds the demo when a token was made with `npm run token` before it', async () => {
    const dataDir = newDataDir();
    await withStore(dataDir, (store) =>
      createPersonalToken(store.db, 'made before the first start'),
    );
    const first = await start(dataDir);
    expect(await extractorLabels(dataDir)).toEqual(['Invoice']);
    // The owner holds a token already: none is printed.
    expect(first.firstToken).toBeUndefined();
  });

  it('does not seed the demo again once it was deleted', async () => {
    const dataDir = newDataDir();
    await start(dataDir);
    await withStore(dataDir, (store) =>
      store.db.updateTable('extractors').set({ deleted_at: new Date().toISOString() }).execute(),
    );
    await start(dataDir);
    expect(await extractorLabels(dataDir)).toEqual(['Invoice']);
  });
});

describe('EXTRACTOR_ADMIN_TOKEN', () => {
  const asAdmin = (service: Service) =>
    service.app.fetch(
      new Request('http://extractor.test/api/extractors', {
        headers: { Authorization: `Bearer ${adminToken}` },
      }),
    );

  it('is registered once, and a revoked one stays revoked across starts', async () => {
    const dataDir = newDataDir();
    const env = { EXTRACTOR_ADMIN_TOKEN: adminToken };
    await start(dataDir, env);
    await start(dataDir, env);
    const rows = await withStore(dataDir, (store) =>
      store.db
        .selectFrom('tokens')
        .select(['id', 'name'])
        .where('name', '=', 'EXTRACTOR_ADMIN_TOKEN')
        .execute(),
    );
    expect(rows).toHaveLength(1);

    await withStore(dataDir, (store) => revokeToken(store.db, rows[0]!.id));
    const service = await createService(
      loadConfig({ DATA_DIR: dataDir, WORKER_CONCURRENCY: '0', ...env }),
      {
        logger: pino({ level: 'silent' }),
      },
    );
    try {
      const response = await asAdmin(service);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/revoked/);
    } finally {
      await service.close();
    }
  });
});
