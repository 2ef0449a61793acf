import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createService, type Service } from '../service.js';
import { expectUnauthorized } from '../testing/fixtures.js';
import { projectRoot } from '../testing/real-server.js';
import { testStoreLocation, type TestStoreLocation } from '../testing/test-database.js';

let location: TestStoreLocation;
let service: Service;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run token -- …args`, as a separate process on the same store. */
function tokenCli(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'src/server/cli/token.ts'), ...args],
      { cwd: projectRoot, env: { ...process.env, ...location.env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const asToken = (token: string) =>
  service.app.fetch(
    new Request('http://extractor.test/api/extractors', {
      headers: { Authorization: `Bearer ${token}` },
    }),
  );

beforeAll(async () => {
  location = await testStoreLocation('extractor-token-cli-');
  service = await createService(loadConfig(location.env), {
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  await service.close();
  await location.dispose();
});

describe('npm run token', () => {
  it('creates a token, prints it once, and the running service takes it until it is revoked', async () => {
    const created = await tokenCli('create', '--name', 'deploy script');
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^xpat_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain('deploy script');
    expect(created.stderr).not.toContain(token);

    expect((await asToken(token)).status).toBe(200);

    const rows = await service.store.db.selectFrom('tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    const listed = await tokenCli('list');
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((row) => row.includes('deploy script'))!;
    expect(line).toMatch(/active$/);
    expect(listed.stdout).not.toContain(token);
    const id = line.split(/\s+/)[0]!;

    const revoked = await tokenCli('revoke', id);
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked ${id}.\n` });
    const problem = await expectUnauthorized(await asToken(token));
    expect(problem.detail).toMatch(/revoked/);
    expect((await tokenCli('list')).stdout.split('\n').find((row) => row.startsWith(id))).toMatch(
      /revoked \d{4}-/,
    );
  });

  it('makes a new token every time, even under the same name', async () => {
    const [first, second] = [
      await tokenCli('create', '--name', 'twin'),
      await tokenCli('create', '--name', 'twin'),
    ];
    expect(first.stdout).not.toBe(second.stdout);
    expect((await asToken(first.stdout.trim())).status).toBe(200);
    expect((await asToken(second.stdout.trim())).status).toBe(200);
  });

  it('explains itself and fails plainly on bad input', async () => {
    const [none, noName, typo, unknown, noId, noSuchId] = await Promise.all([
      tokenCli(),
      tokenCli('create'),
      tokenCli('create', '--nmae', 'typo'),
      tokenCli('rotate'),
      tokenCli('revoke'),
      tokenCli('revoke', 'no-such-id'),
    ]);
    expect(none).toMatchObject({ code: 2, stdout: expect.stringContaining('create --name NAME') });
    expect(noName).toMatchObject({ code: 2, stderr: expect.stringContaining('--name') });
    expect(typo).toMatchObject({ code: 2, stderr: expect.stringContaining('nmae') });
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown command "rotate"'),
    });
    expect(noId).toMatchObject({ code: 2 });
    expect(noSuchId).toMatchObject({ code: 1, stderr: expect.stringContaining('no-such-id') });
  });
});
