/**
 * The lint rules that keep the service's floors (eslint.config.js, "The floors of the
 * service"): each reports a snippet that breaks it, placed where it would break it, and the
 * service's own tree keeps them all.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

const floorRules = new Set([
  'import-x/no-restricted-paths',
  'house/table-owner',
  'house/kysely-only',
]);

/** ESLint with the repository's configuration, running only the rules of the floors. */
const eslint = new ESLint({
  cwd: projectRoot,
  ruleFilter: ({ ruleId }) => floorRules.has(ruleId),
});

/** What the floors' rules say of `code`, were it the file at `path`. */
async function floorsBroken(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(projectRoot, path) });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the floors of the service', () => {
  it('a domain folder imports nothing of the HTTP edge', async () => {
    for (const folder of ['runs', 'run-lifecycle', 'access', 'engine', 'webhooks']) {
      const broken = await floorsBroken(
        `src/server/${folder}/example.ts`,
        "import { problemMediaType } from '../http/problem.js';\nexport { problemMediaType };\n",
      );
      expect(broken, folder).toEqual([
        expect.stringContaining('A domain module knows nothing of HTTP'),
      ]);
    }
    expect(
      await floorsBroken(
        'src/server/http/example.ts',
        "import { problemMediaType } from './problem.js';\nexport { problemMediaType };\n",
      ),
    ).toEqual([]);
  });

  it('the store imports no domain folder', async () => {
    const broken = await floorsBroken(
      'src/server/store/example.ts',
      "import { newDocumentRows } from '../runs/documents.js';\nexport { newDocumentRows };\n",
    );
    expect(broken).toEqual([expect.stringContaining('The store imports no domain folder')]);
  });

  it('a table is named in a query only by the module that owns it', async () => {
    const reads =
      "export const read = (db) => db.selectFrom('extractors').selectAll().execute();\n";
    expect(await floorsBroken('src/server/webhooks/example.ts', reads)).toEqual([
      expect.stringContaining("The table 'extractors' is read and written only by"),
    ]);
    expect(await floorsBroken('src/server/extractors/example.ts', reads)).toEqual([]);
    // Writes, aliases and joins name a table as much as a read does.
    const writes = [
      "export const a = (db) => db.updateTable('runs').set({ status: 'queued' }).execute();",
      "export const b = (db) => db.selectFrom('tokens as t').selectAll().execute();",
      "export const c = (db) => db.selectFrom('runs').innerJoin('files', 'a', 'b').execute();",
    ].join('\n');
    expect(await floorsBroken('src/server/run-lifecycle/worker.ts', writes)).toEqual([
      expect.stringContaining("'runs'"),
      expect.stringContaining("'tokens'"),
      expect.stringContaining("'runs'"),
      expect.stringContaining("'files'"),
    ]);
  });

  it('a migration imports nothing but Kysely', async () => {
    const path = 'src/server/store/migrations/9999_example.ts';
    const broken = await floorsBroken(
      path,
      [
        "import { sql } from 'kysely';",
        "import { runColumnsOf } from '../../runs/documents.js';",
        "import { randomUUID } from 'node:crypto';",
        'export const uses = [sql, runColumnsOf, randomUUID];',
      ].join('\n'),
    );
    expect(broken.filter((message) => message.startsWith('house/kysely-only'))).toEqual([
      expect.stringContaining("A migration is frozen: it imports nothing but 'kysely'"),
      expect.stringContaining("A migration is frozen: it imports nothing but 'kysely'"),
    ]);
    // Being in the store, it also breaks the store's floor with the domain import.
    expect(broken).toContainEqual(expect.stringContaining('The store imports no domain folder'));
  });

  it("the service's own tree keeps every floor", { timeout: 300_000 }, async () => {
    const results = await eslint.lintFiles(['src/server']);
    const broken = results.flatMap((result) =>
      result.messages.map(
        (message) =>
          `${result.filePath.slice(projectRoot.length + 1)}:${message.line} ${message.message}`,
      ),
    );
    expect(broken).toEqual([]);
  });
});
