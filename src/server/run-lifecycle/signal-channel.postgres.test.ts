/**
 * Signals through PostgreSQL between two processes' RunSignals (two stores on one
 * database, each with its listening connection): every kind arrives in the other process,
 * and a listening connection that the server ends is opened again, waking everyone since
 * signals may have been missed meanwhile.
 */
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/database.js';
import { testStoreLocation, type TestStoreLocation } from '../testing/test-database.js';
import { RunSignals } from './signals.js';
import { openSignalChannel, type SignalChannel } from './signal-channel.js';

interface Process {
  store: Store;
  signals: RunSignals;
  channel: SignalChannel;
}

let location: TestStoreLocation;
const processes: Process[] = [];

async function startProcess(): Promise<Process> {
  const store = await location.open();
  const signals = new RunSignals();
  const channel = await openSignalChannel({
    url: location.databaseUrl!,
    db: store.db,
    signals,
    logger: pino({ level: 'silent' }),
  });
  const process = { store, signals, channel };
  processes.push(process);
  return process;
}

beforeAll(async () => {
  location = await testStoreLocation('extractor-signals-');
});
afterAll(async () => {
  for (const { channel, store } of processes) {
    await channel.close();
    await store.close();
  }
  await location.dispose();
});

/** Resolves with 'timeout' unless `promise` settles within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  return Promise.race([
    promise,
    new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms)),
  ]);
}

describe('signals between processes', () => {
  it('carry every kind from one process to the other', async () => {
    const [one, two] = [await startProcess(), await startProcess()];
    const never = new AbortController().signal;
    const changed = two.signals.waitForRun('run-a', 60_000, never).then(() => 'changed');
    const unrelated = two.signals.waitForRun('run-b', 60_000, never).then(() => 'changed');
    const queued = new Promise<string>((resolve) => two.signals.onQueued(() => resolve('queued')));
    const cancelled = new Promise<string>((resolve) => two.signals.onCancelled(resolve));
    const webhooks = new Promise<string>((resolve) =>
      two.signals.onWebhooksQueued(() => resolve('webhooks')),
    );

    one.signals.runChanged('run-a');
    one.signals.runQueued();
    one.signals.runCancelled('run-c');
    one.signals.webhooksQueued();

    expect(await within(changed, 10_000)).toBe('changed');
    expect(await within(queued, 10_000)).toBe('queued');
    expect(await within(cancelled, 10_000)).toBe('run-c');
    expect(await within(webhooks, 10_000)).toBe('webhooks');
    expect(await within(unrelated, 200)).toBe('timeout');
  });

  it('reopens a listening connection the server ended, waking everyone, and hears what follows', async () => {
    const [one, two] = [await startProcess(), await startProcess()];
    const never = new AbortController().signal;
    const waiting = two.signals.waitForRun('run-d', 60_000, never).then(() => 'woken');
    // Ends every listening connection on the database: both processes lose theirs.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query = 'listen extractor_signals'`.execute(
      one.store.db,
    );
    expect(await within(waiting, 15_000)).toBe('woken');

    // Listening again (it woke us once it was): the next signal arrives as before.
    const heard = new Promise<string>((resolve) => two.signals.onQueued(() => resolve('heard')));
    one.signals.runQueued();
    expect(await within(heard, 10_000)).toBe('heard');
  });
});
