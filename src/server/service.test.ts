import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createService, type Service } from './service.js';
import type { Store } from './store/database.js';
import { testStoreLocation, type TestStoreLocation } from './testing/test-database.js';
import { createPersonalToken, revokeToken } from './tokens/tokens.js';

const adminToken = 'xpat_service-test-admin-0123456789';
const locations: TestStoreLocation[] = [];

async function newLocation(): Promise<TestStoreLocation> {
  const location = await testStoreLocation('extractor-service-');
  locations.push(location);
  return location;
}

/** A start of the service on `location`, closed again at once: what one `npm start` leaves. */
async function start(
  location: TestStoreLocation,
  env: Record<string, string> = {},
): Promise<Service> {
  const service = await createService(
    loadConfig({ ...location.env, WORKER_CONCURRENCY: '0', ...env }),
    {
      logger: pino({ level: 'silent' }),
    },
  );
  await service.close();
  return service;
}

/** Runs `use` on the store at `location`, as `npm run token` does while no server runs. */
async function withStore<T>(location: TestStoreLocation, use: (store: Store) => Promise<T>) {
  const store = await location.open();
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

const extractorLabels = (location: TestStoreLocation) =>
  withStore(location, async (store) =>
    (await store.db.selectFrom('extractors').select('label').execute()).map((row) => row.label),
  );

afterEach(async () => {
  for (const location of locations.splice(0)) await location.dispose();
});

describe('the first start', () => {
  it('seeds the demo extractor and prints a first token once; later starts keep everything', async () => {
    const location = await newLocation();
    const first = await start(location);
    expect(first.firstToken).toMatch(/^xpat_/);
    expect(await extractorLabels(location)).toEqual(['Invoice']);

    const second = await start(location);
    expect(second.firstToken).toBeUndefined();
    expect(await extractorLabels(location)).toEqual(['Invoice']);
  });

  it('still seeds the demo when a token was made with `npm run token` before it', async () => {
    const location = await newLocation();
    await withStore(location, (store) =>
      createPersonalToken(store.db, 'made before the first start'),
    );
    const first = await start(location);
    expect(await extractorLabels(location)).toEqual(['Invoice']);
    // The owner holds a token already: none is printed.
    expect(first.firstToken).toBeUndefined();
  });

  it('does not seed the demo again once it was deleted', async () => {
    const location = await newLocation();
    await start(location);
    await withStore(location, (store) =>
      store.db.updateTable('extractors').set({ deleted_at: new Date().toISOString() }).execute(),
    );
    await start(location);
    expect(await extractorLabels(location)).toEqual(['Invoice']);
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
    const location = await newLocation();
    const env = { EXTRACTOR_ADMIN_TOKEN: adminToken };
    await start(location, env);
    await start(location, env);
    const rows = await withStore(location, (store) =>
      store.db
        .selectFrom('tokens')
        .select(['id', 'name'])
        .where('name', '=', 'EXTRACTOR_ADMIN_TOKEN')
        .execute(),
    );
    expect(rows).toHaveLength(1);

    await withStore(location, (store) => revokeToken(store.db, rows[0]!.id));
    const service = await createService(
      loadConfig({ ...location.env, WORKER_CONCURRENCY: '0', ...env }),
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
