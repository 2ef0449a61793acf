/**
 * Signals between processes on one PostgreSQL database, through LISTEN/NOTIFY: a person
 * watching a run through one API process sees the progress a worker anywhere stores, at
 * once; a run queued through any API process wakes the workers; a cancel reaches the worker
 * holding the run.
 *
 * A NOTIFY goes out through the store's pool after the change has committed, so whoever it
 * wakes finds the change. LISTEN holds its connection for as long as it listens, so it has
 * one of its own outside the pool. When that connection is lost, it is opened again (after a
 * growing pause), and every listener is woken, since signals may have been missed meanwhile.
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from '../store/database.js';
import type { RunSignal, RunSignals } from './signals.js';

/** One channel for every signal of the service's database. */
const channel = 'extractor_signals';
const retryMs = { first: 250, most: 10_000 };

export interface SignalChannel {
  close(): Promise<void>;
}

function encode(signal: RunSignal): string {
  return 'runId' in signal ? `${signal.kind}:${signal.runId}` : signal.kind;
}

function decode(payload: string): RunSignal | undefined {
  const [kind, runId] = payload.split(':', 2);
  if ((kind === 'changed' || kind === 'cancelled') && runId) return { kind, runId };
  if (kind === 'queued' || kind === 'webhooks') return { kind };
  return undefined;
}

/**
 * Listens on the database at `url` and connects `signals` to it. Resolves once listening,
 * so nothing sent after start is missed; fails when the database cannot be reached then.
 */
export async function openSignalChannel(deps: {
  url: string;
  db: Db;
  signals: RunSignals;
  logger: Logger;
}): Promise<SignalChannel> {
  const { url, db, signals, logger } = deps;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let pause = retryMs.first;

  async function listen(): Promise<void> {
    const connection = new pg.Client({ connectionString: url, keepAlive: true });
    connection.on('notification', (message) => {
      const signal = message.channel === channel ? decode(message.payload ?? '') : undefined;
      if (signal) signals.receive(signal);
    });
    const lost = (error?: Error) => {
      if (client !== connection) return;
      client = undefined;
      connection.removeAllListeners('end');
      void connection.end().catch(() => {});
      if (closed) return;
      logger.warn({ err: error }, 'lost the connection that listens for signals; opening it again');
      retry = setTimeout(reconnect, pause);
      pause = Math.min(pause * 2, retryMs.most);
    };
    connection.on('error', lost);
    connection.on('end', () => lost());
    await connection.connect();
    try {
      await connection.query(`listen ${channel}`);
    } catch (error) {
      await connection.end().catch(() => {});
      throw error;
    }
    client = connection;
  }

  function reconnect(): void {
    if (closed) return;
    listen().then(
      () => {
        pause = retryMs.first;
        // Whatever was sent while nobody listened: everyone looks again.
        signals.wakeAll();
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'could not listen for signals; trying again');
        retry = setTimeout(reconnect, pause);
        pause = Math.min(pause * 2, retryMs.most);
      },
    );
  }

  await listen();
  signals.connect((signal) => {
    sql`select pg_notify(${channel}, ${encode(signal)})`.execute(db).catch((error: unknown) => {
      // This process at least hears it; the others find the change when they next look.
      logger.warn({ err: error }, 'could not send a signal to other processes');
      signals.receive(signal);
    });
  });
  return {
    async close() {
      closed = true;
      signals.connect(undefined);
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => {});
    },
  };
}
