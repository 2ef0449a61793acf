/**
 * A real PostgreSQL server for the tests: Debian's `postgresql` package, a throwaway
 * cluster made with initdb in a temporary directory, `postgres` run as a child process and
 * reached over a Unix socket in that directory (no port to race for), then stopped and
 * removed. PostgreSQL refuses to run as root: under root (CI, this machine) the cluster
 * belongs to the `postgres` system user the package creates, and both initdb and the server
 * run as it.
 *
 * The cluster trades durability for speed (fsync off): it lives for one test run, and
 * what the tests check is what the service reads back while the server is up.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where Debian's postgresql-15 puts its programs; POSTGRES_BIN points elsewhere. */
export const postgresBin = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * Installs Debian's postgresql package when its programs are missing and we run as root, as
 * src/tools/dev/ensure-chromium.ts does for Chromium; otherwise says exactly what to install.
 */
export function ensurePostgresInstalled(): void {
  if (existsSync(join(postgresBin, 'postgres'))) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The PostgreSQL tests need the server programs in ${postgresBin}.\n` +
        'Install them with:  sudo apt-get update && sudo apt-get install -y postgresql\n' +
        '(or set POSTGRES_BIN to the directory that holds initdb and postgres).',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Quietly: this runs inside the test run, whose output is the tests'. A failure throws
  // with apt-get's own words (execFileSync keeps its stderr in the error).
  execFileSync('apt-get', ['update'], { stdio: 'pipe', env });
  execFileSync('apt-get', ['install', '-y', 'postgresql'], { stdio: 'pipe', env });
  if (!existsSync(join(postgresBin, 'postgres')))
    throw new Error(`apt-get finished but ${postgresBin}/postgres is still missing.`);
}

/** The user and group the server runs as: `postgres` under root, ourselves otherwise. */
function serverIdentity(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const entry = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':');
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

export interface PostgresServer {
  /** The address of the server's own `postgres` database, for creating others. */
  adminUrl: string;
  /** The address of database `name` on this server. */
  urlOf(name: string): string;
  stop(): Promise<void>;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  ensurePostgresInstalled();
  const identity = serverIdentity();
  const root = mkdtempSync(join(tmpdir(), 'extractor-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  mkdirSync(socketDir);
  if (identity) {
    chownSync(root, identity.uid, identity.gid);
    chownSync(socketDir, identity.uid, identity.gid);
  }
  const asServer = identity ? { uid: identity.uid, gid: identity.gid } : {};
  let child: ChildProcess | undefined;
  try {
    execFileSync(
      join(postgresBin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'],
      { ...asServer, stdio: 'pipe', cwd: root },
    );
    child = spawn(
      join(postgresBin, 'postgres'),
      [
        '-D',
        dataDir,
        '-k',
        socketDir,
        '-c',
        'listen_addresses=',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        // Test files run side by side, each with services of their own and a pool each.
        '-c',
        'max_connections=300',
      ],
      { ...asServer, cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let printed = '';
    child.stderr?.on(
      'data',
      (chunk: Buffer) => (printed = (printed + chunk.toString()).slice(-4000)),
    );
    const adminUrl = urlFor(socketDir, 'postgres');
    await waitUntilReady(adminUrl, child, () => printed);
    const running = child;
    return {
      adminUrl,
      urlOf: (name) => urlFor(socketDir, name),
      async stop() {
        if (running.exitCode === null && running.signalCode === null) {
          const exited = new Promise((resolve) => running.once('exit', resolve));
          // SIGINT is PostgreSQL's fast shutdown: it ends the sessions still open.
          running.kill('SIGINT');
          await exited;
        }
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

function urlFor(socketDir: string, database: string): string {
  return `postgresql://postgres@localhost/${database}?host=${encodeURIComponent(socketDir)}`;
}

async function waitUntilReady(
  url: string,
  child: ChildProcess,
  printed: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`PostgreSQL exited before it was ready:\n${printed()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`PostgreSQL was not ready within 30 s: ${String(error)}\n${printed()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** Runs `statement` on the server's `postgres` database. */
async function administer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  /** Drops the database, ending whatever connections are still open on it. */
  drop(): Promise<void>;
}

/** A new, empty database on the server at `adminUrl`, for one test service or one test. */
export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `extractor_${randomBytes(8).toString('hex')}`;
  await administer(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => administer(adminUrl, `drop database if exists ${name} with (force)`),
  };
}
