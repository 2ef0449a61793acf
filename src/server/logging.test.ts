/**
 * The logger holds lines back (the lines of a turn, then sonic-boom's 4 KB batches): a
 * process that logs and exits at once, as a crash does, must still write every line.
 * request-log.test.ts covers the quiet service and the clean stop.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './testing/real-server.js';

const run = promisify(execFile);

async function logThenExit(statements: string): Promise<string> {
  const script = `import { createLogger } from './src/server/logging.ts';
    const logger = createLogger('info');
    ${statements}`;
  const child = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: projectRoot },
  ).catch((error: { stdout: string; code: number }) => {
    expect(error.code).toBe(3);
    return error;
  });
  return child.stdout;
}

const messages = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('the logger', () => {
  it('writes the lines of the turn in which the process exits', async () => {
    const stdout = await logThenExit(
      `for (let i = 0; i < 3; i++) logger.info('line ' + i);
      logger.error('about to exit');
      process.exit(3);`,
    );
    expect(messages(stdout)).toEqual(['line 0', 'line 1', 'line 2', 'about to exit']);
  });

  it('writes lines of earlier turns and of this one, in order, past a batch', async () => {
    // Many batches: with asynchronous writes, one still under way at exit came out last.
    const stdout = await logThenExit(
      `for (let i = 0; i < 5000; i++) logger.info('early ' + i);
      await new Promise((resolve) => setImmediate(resolve));
      logger.info('late');
      process.exit(3);`,
    );
    expect(messages(stdout)).toEqual([
      ...Array.from({ length: 5000 }, (_, index) => `early ${index}`),
      'late',
    ]);
  });
});
