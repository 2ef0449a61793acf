/**
 * Global setup of the browser tests (it runs in Node, before them): the real service on a
 * fresh temporary DATA_DIR and a free port, with a known admin token and a fast worker.
 * The Vite server of the tests forwards `/api` to it (service-proxy.ts), so the elements
 * under test call the service from their own origin; the tests read the admin token with
 * `inject('extractorService')` to make their fixtures through the API.
 *
 * Runs of the `local` strategy finish in a blink; a test that needs a run that is still
 * working (to pause it, or to watch its progress) uses the `llm` strategy against a local
 * stand-in provider that speaks the chat-completions protocol: model `stand-in-slow`
 * answers every chunk after a pause with nothing found, `stand-in-stalled` holds each chunk
 * for a minute, `stand-in-refusing` refuses with a 400 as a provider with a wrong key
 * would, so the run fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../server/config.js';
import { createService } from '../../server/service.js';
import { serviceUrlVariable } from './service-proxy.js';
import { standInModels, startStandInProvider } from '../../server/testing/stand-in-provider.js';

export const browserTestAdminToken = 'xpat_browser-tests-admin-token-0123456789';

declare module 'vitest' {
  export interface ProvidedContext {
    extractorService: { adminToken: string };
  }
}

export { standInModels };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { server: provider, baseUrl: providerUrl } = await startStandInProvider(250);
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-browser-tests-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    EXTRACTOR_ADMIN_TOKEN: browserTestAdminToken,
    WORKER_CONCURRENCY: '4',
    WORKER_POLL_MS: '50',
    LOG_LEVEL: 'silent',
    LLM_BASE_URL: providerUrl,
    LLM_API_KEY: 'stand-in',
    LLM_MODELS: Object.values(standInModels).join(','),
  });
  const service = await createService(config, { logger: pino({ level: 'silent' }), seed: false });
  const server = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  process.env[serviceUrlVariable] = `http://127.0.0.1:${port}`;
  project.provide('extractorService', { adminToken: browserTestAdminToken });
  return async () => {
    delete process.env[serviceUrlVariable];
    // Event streams still open must not hold the shutdown up.
    (server as Server).closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.close();
    provider.close();
    provider.closeAllConnections();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
