import { LitElement } from 'lit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Run } from '../contract/resources.js';
import { fileIdOf } from '../client/run-documents.js';
import { startSession, textFile, unreadableFile, workingRun } from '../client/testing/fixtures.js';
import { RunWatcherController, type RunConnection } from './run-watcher-controller.js';

/** A bare host: the controller is what is under test. */
class WatchingHost extends LitElement {}
customElements.define('test-run-watching-host', WatchingHost);

const hosts: HTMLElement[] = [];
afterEach(() => hosts.splice(0).forEach((host) => host.remove()));

function attach(options: ConstructorParameters<typeof RunWatcherController>[1] = {}) {
  const host = document.createElement('test-run-watching-host') as WatchingHost;
  const seen: Run[] = [];
  const connections = new Set<RunConnection>();
  const watcher = new RunWatcherController(host, {
    ...options,
    onChange: (run) => {
      seen.push(run);
      connections.add(watcher.connection);
    },
  });
  document.body.append(host);
  hosts.push(host);
  return { host, watcher, seen, connections };
}

async function queuedRun() {
  const session = await startSession();
  await session.client.uploadFile(session.bucketId, textFile());
  const run = await session.client.startRun(session.bucketId, session.extractor.id);
  return { ...session, run };
}

describe('RunWatcherController', () => {
  it('follows a run live over Server-Sent Events to its end, then loads it whole', async () => {
    const { client, run } = await queuedRun();
    const { watcher, seen } = attach();
    watcher.watch(client, run);
    await vi.waitFor(() => expect(watcher.value?.status).toBe('completed'), { timeout: 15_000 });
    await vi.waitFor(() => expect(watcher.value?.finishedAt).not.toBeNull());
    expect(watcher.value?.data).not.toBeNull();
    expect(watcher.connection).toBe('idle');
    expect(seen.map((each) => each.status)).toContain('completed');
    expect(seen.every((each) => each.id === run.id)).toBe(true);
    // A view shown a completed run must have its results: the end is never told without them.
    expect(
      seen.filter((each) => each.status === 'completed').map((each) => each.data === null),
    ).not.toContain(true);
  });

  it('polls the run when the stream cannot be opened, and still sees the end', async () => {
    const { client, run } = await queuedRun();
    const { watcher, connections } = attach({
      pollIntervalMs: 100,
      reconnectDelayMs: 60_000,
      // A real request the service refuses (404): the stream fails as a dropped one would.
      createEventSource: () => new EventSource('/api/extraction_runs/no-such-run/events'),
    });
    watcher.watch(client, run);
    await vi.waitFor(() => expect(watcher.value?.status).toBe('completed'), { timeout: 15_000 });
    expect(connections.has('polling')).toBe(true);
    expect(watcher.connection).toBe('idle');
  });

  it('goes back to the stream once it can be opened again, and stops polling', async () => {
    const { client, run } = await workingRun({ paused: true });
    let attempts = 0;
    const { watcher, connections } = attach({
      pollIntervalMs: 100,
      reconnectDelayMs: 200,
      createEventSource: (url) =>
        new EventSource(++attempts === 1 ? '/api/extraction_runs/no-such-run/events' : url),
    });
    watcher.watch(client, run);
    await vi.waitFor(() => expect(connections.has('polling')).toBe(true));
    await vi.waitFor(() => expect(watcher.connection).toBe('live'));
    expect(attempts).toBe(2);
    await client.runCommand(run.id, 'resume');
    await vi.waitFor(() => expect(watcher.value?.status).toBe('completed'), { timeout: 25_000 });
    expect(watcher.connection).toBe('idle');
  });

  it('follows a run reopened to read a replaced file, past the events it missed while resting', async () => {
    const session = await startSession();
    await session.client.uploadFile(session.bucketId, textFile());
    await session.client.uploadFile(session.bucketId, unreadableFile());
    const run = await session.client.startRun(session.bucketId, session.extractor.id);
    const { watcher, seen } = attach();
    watcher.watch(session.client, run);
    await vi.waitFor(() => expect(watcher.value?.status).toBe('partially_completed'), {
      timeout: 15_000,
    });
    expect(watcher.connection).toBe('idle');
    const [read, failed] = watcher.value!.documents;
    // While it rests, a person's edit makes an event (with the settled status) it does not hear.
    await session.client.saveDocumentResults(run.id, fileIdOf(read!.file), { total: 1 });
    const reopened = await session.client.replaceDocumentFile(
      run.id,
      fileIdOf(failed!.file),
      textFile('fixed.txt'),
    );
    watcher.watch(session.client, reopened);
    await vi.waitFor(() => expect(watcher.value?.status).toBe('completed'), { timeout: 15_000 });
    expect(watcher.value?.documents.map((document) => [document.name, document.status])).toEqual([
      ['invoice.txt', 'completed'],
      ['fixed.txt', 'completed'],
    ]);
    expect(seen.map((each) => each.status)).toContain('running');
  });

  it('stops following when its host leaves the page', async () => {
    const { client, run } = await queuedRun();
    const { host, watcher } = attach();
    watcher.watch(client, { ...run });
    host.remove();
    expect(watcher.connection).toBe('idle');
  });

  it('rests on a run that is already final', async () => {
    const { client, run } = await queuedRun();
    const { watcher } = attach();
    watcher.watch(client, { ...run, status: 'cancelled' });
    expect(watcher.connection).toBe('idle');
    expect(watcher.value?.status).toBe('cancelled');
  });
});
