/**
 * What `npm start` does before it runs the service: bundles the server (build-server.ts)
 * and builds the interface when its build is missing or older than its sources
 * (build.ts, `ensureBuilt`), into DIST_DIR. The service process itself builds nothing:
 * it serves what is there.
 */
import { loadConfig } from '../../server/config.js';
import { ensureBuilt } from '../build/build.js';
import { buildServer } from '../build/build-server.js';

await buildServer();
await ensureBuilt(loadConfig().distDir);
