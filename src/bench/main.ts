/**
 * `npm run bench`: runs each benchmark module in turn and prints its lines. A module
 * exports `bench(options): Promise<{ name, lines }>`; add one by adding its name to
 * `benches`. Modules other engineers are still writing are skipped until their file exists.
 * `npm run bench -- http upload` runs only the named ones; `--name value` options go to
 * every module, which uses those it knows (`npm run bench -- accuracy --corpus DIR`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchResult {
  name: string;
  lines: string[];
}

/** `--name value` pairs from the command line. */
export type BenchOptions = Partial<Record<string, string>>;

const benches = [
  'http',
  'busy-reads',
  'upload',
  'engine-speed',
  'accuracy',
  'reading',
  'lighthouse',
  'table-render',
  'scale',
] as const;

async function main(): Promise<void> {
  const wanted: string[] = [];
  const options: BenchOptions = {};
  const args = process.argv.slice(2);
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith('--')) wanted.push(arg);
    else if (index + 1 < args.length) options[arg.slice(2)] = args[++index];
    else {
      process.stderr.write(`The option ${arg} needs a value.\n`);
      process.exitCode = 2;
      return;
    }
  }
  const unknown = wanted.filter((name) => !(benches as readonly string[]).includes(name));
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown benchmark: ${unknown.join(', ')}. Known: ${benches.join(', ')}.\n`,
    );
    process.exitCode = 2;
    return;
  }
  let failed = false;
  for (const name of benches) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    if (!existsSync(join(import.meta.dirname, `${name}.ts`))) {
      process.stdout.write(`\n${name}: not written yet, skipped\n`);
      continue;
    }
    const module = (await import(`./${name}.js`)) as {
      bench(options: BenchOptions): Promise<BenchResult>;
    };
    const started = performance.now();
    try {
      const result = await module.bench(options);
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      process.stdout.write(
        `\n${result.name}  (${seconds} s)\n${result.lines.map((line) => `  ${line}`).join('\n')}\n`,
      );
    } catch (error) {
      failed = true;
      process.stdout.write(`\n${name}: failed: ${(error as Error).stack ?? String(error)}\n`);
    }
  }
  if (failed) process.exitCode = 1;
}

await main();
