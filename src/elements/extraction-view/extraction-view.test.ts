import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  completedRun,
  failedRun,
  startSession,
  textFile,
  workingRun,
} from '../../client/testing/fixtures.js';
import { labelDefaults } from '../../contract/labels.js';
import type { Run } from '../../contract/resources.js';
import type { RunStatus } from '../../contract/run-status.js';
import { $, $$, actionLabels, mountView, nextEvent, unmountAll } from '../testing/mount.js';

const labels = {
  extractionViewHeading: 'Reading',
  extractionViewBackButtonLabel: 'Files',
  extractionViewStartButtonLabel: 'Go',
  extractionViewPauseButtonLabel: 'Hold',
  extractionViewCancelButtonLabel: 'Stop',
  extractionViewRestartButtonLabel: 'Again',
  extractionViewContinueButtonLabel: 'See the data',
};

async function mountWith(run: Run | undefined, session: Awaited<ReturnType<typeof startSession>>) {
  const bucket = await session.client.getBucket(session.bucketId);
  return mountView('extractor-extraction-view', {
    client: session.client,
    extractor: session.extractor,
    bucket,
    run,
  });
}

describe('<extractor-extraction-view>', () => {
  afterEach(unmountAll);

  it('shows the controls each run status allows, with the extractor’s labels', async () => {
    const session = await startSession(labels);
    await session.client.uploadFile(session.bucketId, textFile());
    const run = await session.client.startRun(session.bucketId, session.extractor.id);
    const { element, provide } = await mountWith(undefined, session);
    expect($(element, '[part~="heading"]').textContent?.trim()).toBe('Reading');
    expect(actionLabels(element)).toEqual(['Files', 'Go']);
    const expected: Record<RunStatus, string[]> = {
      queued: ['Files', 'Stop'],
      running: ['Files', 'Stop', 'Hold'],
      paused: ['Files', 'Stop', 'See the data'],
      completed: ['Files', 'Again', 'See the data'],
      failed: ['Files', 'Again'],
      cancelled: ['Files', 'Again'],
    };
    for (const [status, buttons] of Object.entries(expected)) {
      await provide({ run: { ...run, status: status as RunStatus } });
      expect(actionLabels(element), status).toEqual(buttons);
    }
  });

  it('uses the English defaults when the extractor leaves the labels empty', async () => {
    const session = await startSession();
    const { element } = await mountWith(undefined, session);
    expect($(element, '[part~="heading"]').textContent?.trim()).toBe(
      labelDefaults.extractionViewHeading,
    );
    expect(actionLabels(element)).toEqual([
      labelDefaults.extractionViewBackButtonLabel,
      labelDefaults.extractionViewStartButtonLabel,
    ]);
  });

  it('shows progress as the share of the work done, in words, for people and for assistive technology', async () => {
    const session = await startSession();
    await session.client.uploadFile(session.bucketId, textFile());
    const run = await session.client.startRun(session.bucketId, session.extractor.id);
    const { element, provide } = await mountWith(
      { ...run, status: 'queued', chunksTotal: null },
      session,
    );
    expect($(element, '[part~="progress"]').classList.contains('indeterminate')).toBe(true);
    await provide({ run: { ...run, status: 'running', chunksTotal: null } });
    expect($(element, '.status-line').textContent?.trim()).toBe(
      'Getting the text out of your documents. Scanned pages take longest.',
    );
    await provide({
      run: {
        ...run,
        status: 'running',
        chunksCompleted: 3,
        chunksTotal: 8,
        startedAt: new Date(Date.now() - 65_000).toISOString(),
        partialResultJson: JSON.stringify({ invoice_number: 'INV-7', total: null }),
      },
    });
    const bar = $(element, '[part~="progress"]');
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemax')]).toEqual([
      '3',
      '8',
    ]);
    expect($(element, '.status-line').textContent?.trim()).toBe('Finding your data: 37% done.');
    expect(bar.getAttribute('aria-valuetext')).toBe('Finding your data: 37% done.');
    expect(element.shadowRoot!.textContent).not.toMatch(/\bparts?\b|chunk/i);
    expect($(element, '.time').textContent?.trim()).toMatch(/^1:0[5-9] elapsed$/);
    expect($(element, '[aria-live="polite"]').textContent?.trim()).toBe(
      'Finding your data: 25% done.',
    );
    const found = $$(element, '.found-item').map((item) => [
      item.querySelector('dt')!.textContent?.trim(),
      item.querySelector('dd')!.textContent?.trim(),
    ]);
    expect(found).toContainEqual(['Invoice number', 'INV-7']);
    expect(found).toContainEqual(['Total', '—']);
  });

  it('stops the bar when the run stops, wherever it got to', async () => {
    const session = await startSession();
    await session.client.uploadFile(session.bucketId, textFile());
    const run = await session.client.startRun(session.bucketId, session.extractor.id);
    const { element, provide } = await mountWith({ ...run, status: 'running' }, session);
    const fill = () => $(element, '[part~="progress"] .progress-fill');
    // The sliding of a bar that does not know how far it is: an animation without end.
    const moving = () =>
      fill()
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations === Infinity).length;
    expect(moving()).toBe(1);
    for (const status of ['paused', 'cancelled', 'failed'] as const) {
      await provide({ run: { ...run, status, chunksTotal: null } });
      const bar = $(element, '[part~="progress"]');
      expect(bar.classList.contains('indeterminate'), status).toBe(false);
      expect(moving(), status).toBe(0);
      expect(bar.getAttribute('aria-valuenow'), status).toBe('0');
    }
    await provide({ run: { ...run, status: 'cancelled', chunksCompleted: 3, chunksTotal: 4 } });
    expect(fill().style.width).toBe('75%');
    expect($(element, '[part~="progress"]').classList.contains('stopped')).toBe(true);
  });

  it('pauses, continues and cancels a working run through the service, with focus on the new status', async () => {
    const session = await workingRun();
    const { element, provide } = await mountWith(session.run, session);
    const status = () => $(element, '[part~="status"]');
    const paused = nextEvent(element, 'extractor-run-changed');
    await userEvent.click($(element, '[part~="pause-button"]'));
    const pausedRun = (await paused).detail.run;
    expect(pausedRun.status).toBe('paused');
    await provide({ run: pausedRun });
    expect($(element, '.badge').textContent?.trim()).toBe('Paused');
    // The Pause button is gone; focus is on what happened, not on the page's body.
    expect(element.shadowRoot!.activeElement).toBe(status());
    expect(status().getAttribute('role')).toBe('group');
    expect(
      status()
        .getAttribute('aria-labelledby')
        ?.split(' ')
        .map((id) => element.shadowRoot!.getElementById(id)?.textContent?.trim()),
    ).toEqual(['Paused']);

    const resumed = nextEvent(element, 'extractor-run-changed');
    await userEvent.click($(element, '[part~="resume-button"]'));
    const resumedRun = (await resumed).detail.run;
    expect(['queued', 'running']).toContain(resumedRun.status);
    await provide({ run: resumedRun });

    const cancelled = nextEvent(element, 'extractor-run-changed');
    await userEvent.click($(element, '[part~="cancel-button"]'));
    const cancelledRun = (await cancelled).detail.run;
    expect(cancelledRun.status).toBe('cancelled');
    expect((await session.client.getRun(session.run.id)).status).toBe('cancelled');
    await provide({ run: cancelledRun });
    expect($(element, '[part~="error"]').textContent).toMatch(/cancelled/);
    expect(element.shadowRoot!.activeElement).toBe(status());
  });

  it('restarts with a new run over the same files, and goes on to the results when done', async () => {
    const session = await completedRun(labels);
    const { element, events } = await mountWith(session.run, session);
    const started = nextEvent(element, 'extractor-run-started');
    await userEvent.click($(element, '[part~="restart-button"]'));
    const { run } = (await started).detail;
    expect(run.id).not.toBe(session.run.id);
    expect(run.bucket).toBe(session.run.bucket);
    await userEvent.click($(element, '[part~="continue-button"]'));
    expect(events.at(-1)?.detail).toEqual({ step: 'results' });
    await userEvent.click($(element, '[part~="back-button"]'));
    expect(events.at(-1)?.detail).toEqual({ step: 'bucket' });
  });

  it('starts a run when there is none', async () => {
    const session = await startSession();
    await session.client.uploadFile(session.bucketId, textFile());
    const { element } = await mountWith(undefined, session);
    const started = nextEvent(element, 'extractor-run-started');
    await userEvent.click($(element, '[part~="start-button"]'));
    expect((await started).detail.run.status).toBe('queued');
  });

  it('explains a failed run in plain words and offers the way forward', async () => {
    const session = await failedRun();
    const { element } = await mountWith(session.run, session);
    const message = $(element, '[part~="error"]').textContent ?? '';
    expect(message).toContain('We could not finish reading your documents.');
    expect(message).toContain(session.run.error!);
    expect(message).toMatch(/start again, or go back to check your files/);
    expect(actionLabels(element)).toEqual([
      labelDefaults.extractionViewBackButtonLabel,
      labelDefaults.extractionViewRestartButtonLabel,
    ]);
    expect($(element, '[part~="restart-button"]').classList.contains('primary')).toBe(true);
  });

  it('shows the service’s answer when a command comes too late', async () => {
    const session = await completedRun();
    const { element, events } = await mountWith({ ...session.run, status: 'running' }, session);
    await userEvent.click($(element, '[part~="pause-button"]'));
    await vi.waitFor(() =>
      expect($(element, '[role="alert"]').textContent).toMatch(/completed; it cannot be paused/),
    );
    await vi.waitFor(() => expect(events.at(-1)?.detail.run.status).toBe('completed'));
  });
});
