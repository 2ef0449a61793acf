/**
 * `npm run build`, before `size-limit` checks the budgets: builds the interface and the
 * library (build.ts). Kept apart from build.ts, which start.ts imports, so that importing
 * it builds nothing.
 */
import { build } from './build.js';

try {
  await build();
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
