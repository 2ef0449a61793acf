/**
 * Before the e2e suite: build the interface from the current source (never a stale
 * dist/), start a stand-in LLM provider, and start the real service as `npm start` runs it
 * (a child process, a fresh DATA_DIR with a real SQLite file, a free port, a known admin
 * token). The tests find it through the environment variables set here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../../src/tools/build/build.js';
import { startRealServer } from '../../src/server/testing/real-server.js';
import { standInModels, startStandInProvider } from '../../src/server/testing/stand-in-provider.js';
import { e2eAdminToken } from './service.js';

export default async function globalSetup(): Promise<() => Promise<void>> {
  // A dist of its own, so a build running elsewhere (npm run dev, another suite) cannot
  // change the interface under the tests.
  const distDir = mkdtempSync(join(tmpdir(), 'extractor-e2e-dist-'));
  await build({ distDir });
  const provider = await startStandInProvider(400);
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-e2e-'));
  const server = await startRealServer({
    dataDir,
    env: {
      EXTRACTOR_ADMIN_TOKEN: e2eAdminToken,
      WORKER_CONCURRENCY: '4',
      WORKER_POLL_MS: '50',
      LOG_LEVEL: 'warn',
      DIST_DIR: distDir,
      LLM_BASE_URL: provider.baseUrl,
      LLM_API_KEY: 'stand-in',
      LLM_MODELS: Object.values(standInModels).join(','),
    },
    timeoutMs: 120_000,
  });
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = dataDir;
  // For a spec that starts a service of its own from the same build (partner-guide.spec.ts).
  process.env.E2E_DIST_DIR = distDir;
  return async () => {
    await server.stop();
    provider.server.close();
    provider.server.closeAllConnections();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  };
}
