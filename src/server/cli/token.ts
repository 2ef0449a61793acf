/**
 * `npm run token -- <command>`: personal access tokens from the command line, on the store
 * the server uses (DATABASE_URL, or the SQLite file at DATA_DIR); it may be running.
 *
 *   create --name NAME   makes a token and prints it once, alone on stdout, so a script can
 *                        capture it; what it means goes to stderr
 *   list [--all]         personal tokens (with --all, embed sessions too); never the tokens
 *                        themselves, only their hashes are stored
 *   revoke ID            from now on the token answers 401
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openStore, type Store } from '../store/database.js';
import {
  createPersonalToken,
  listTokens,
  revokeToken,
  type TokenSummary,
} from '../tokens/tokens.js';

const usage = `Usage: npm run token -- <command>

  create --name NAME   Create a personal access token and print it (shown only once).
  list [--all]         List personal access tokens (--all: embed sessions too).
  revoke ID            Revoke a token; requests with it answer 401 from then on.

The store is the one npm start uses: DATABASE_URL, or the SQLite file at DATA_DIR.`;

class UsageError extends Error {}

function status(token: TokenSummary, now: string): string {
  if (token.revokedAt) return `revoked ${token.revokedAt}`;
  if (token.expiresAt && token.expiresAt <= now) return `expired ${token.expiresAt}`;
  return 'active';
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function run(store: Store, args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      all: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  switch (command) {
    case 'create': {
      const name = values.name?.trim();
      if (!name || rest.length > 0) throw new UsageError('create needs --name NAME.');
      const { id, token } = await createPersonalToken(store.db, name);
      process.stderr.write(
        `Created the personal access token "${name}" (id ${id}).\nIt is shown only this once; keep it somewhere safe:\n`,
      );
      process.stdout.write(`${token}\n`);
      return;
    }
    case 'list': {
      if (rest.length > 0) throw new UsageError('list takes no arguments.');
      const tokens = await listTokens(store.db, values.all ? undefined : 'personal');
      if (tokens.length === 0) {
        process.stdout.write('No tokens.\n');
        return;
      }
      const now = new Date().toISOString();
      const rows = [
        ['ID', 'KIND', 'NAME', 'CREATED', 'LAST USED', 'STATUS'],
        ...tokens.map((token) => [
          token.id,
          token.kind,
          token.name,
          token.createdAt,
          token.lastUsedAt ?? 'never',
          status(token, now),
        ]),
      ];
      process.stdout.write(`${table(rows)}\n`);
      return;
    }
    case 'revoke': {
      const [id, ...extra] = rest;
      if (!id || extra.length > 0)
        throw new UsageError('revoke needs the ID of a token (see list).');
      if (!(await revokeToken(store.db, id))) {
        throw new Error(`There is no live token with the id ${id}.`);
      }
      process.stdout.write(`Revoked ${id}.\n`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}".` : 'Name a command.');
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    return args.length === 0 ? 2 : 0;
  }
  const config = loadConfig();
  const store = await openStore(config);
  try {
    await run(store, args);
    return 0;
  } finally {
    await store.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(
        `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 1;
    }
  },
);
