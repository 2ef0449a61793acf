/**
 * `npm run build`: builds the interface and the library (build.ts) and fails when a size
 * budget is passed. Kept apart from build.ts, which the server imports (ensureBuilt), so
 * that no bundle of the server can mistake itself for this command.
 */
import { budgets, build } from './build.js';

try {
  const report = await build();
  if (
    report.firstViewGzip > budgets.firstView ||
    report.allViewsGzip > budgets.allViews ||
    report.hostScript.gzipBytes > budgets.hostScript
  )
    process.exitCode = 1;
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
