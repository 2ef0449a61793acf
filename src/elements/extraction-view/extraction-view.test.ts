import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  completedRun,
  failedRun,
  startSession,
  partlyCompletedRun,
  textFile,
  waitForRun,
  withDocuments,
  workingRun,
  type TestDocument,
} from '../../client/testing/fixtures.js';
import { labelDefaults } from '../../contract/labels.js';
import { documentErrorCodes, type DocumentErrorCode, type Run } from '../../contract/resources.js';
import { applyLocale, loadLaterTexts } from '../../locales/localization.js';
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

afterEach(unmountAll);

describe('<extractor-extraction-view>', () => {
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
      partially_completed: ['Files', 'Again', 'See the data'],
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
        ...withDocuments(run, [
          {
            name: 'invoice.txt',
            status: 'running',
            data: { invoice_number: 'INV-7', total: null, date: '2024-03-15' },
            chunksCompleted: 3,
            chunksTotal: 8,
          },
        ]),
        status: 'running',
        chunksCompleted: 3,
        chunksTotal: 8,
        startedAt: new Date(Date.now() - 65_000).toISOString(),
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
    // A date as the person's locale writes it, never the machine's 2024-03-15.
    const date = found.find(([name]) => name === 'Invoice date')![1]!;
    expect(date).not.toBe('2024-03-15');
    expect(date).toBe(
      new Intl.DateTimeFormat(navigator.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        Date.UTC(2024, 2, 15),
      ),
    );
    expect(date).toMatch(/2024/);
    expect(date).toMatch(/15/);
  });
});

describe('<extractor-extraction-view>: progress, pausing and cancelling', () => {
  it('tells the page being read while a scan is read, for people and for assistive technology', async () => {
    const session = await startSession();
    await session.client.uploadFile(session.bucketId, textFile());
    const run = await session.client.startRun(session.bucketId, session.extractor.id);
    const reading = (pagesRead: number, pagesTotal: number | null) => ({
      ...withDocuments(run, [{ name: 'scan.pdf', status: 'queued', pagesRead, pagesTotal }]),
      status: 'running' as const,
      chunksTotal: null,
    });
    const { element, provide } = await mountWith(reading(0, null), session);
    const line = () => $(element, '.status-line').textContent?.trim();
    expect(line()).toBe('Getting the text out of your documents. Scanned pages take longest.');
    await provide({ run: reading(1, 5) });
    expect(line()).toBe('Reading page 2 of 5.');
    const bar = $(element, '[part~="progress"]');
    // How much is left to find is not known yet: the bar slides, the words say how far.
    expect(bar.classList.contains('indeterminate')).toBe(true);
    expect(bar.getAttribute('aria-valuetext')).toBe('Reading page 2 of 5.');
    expect($(element, '[aria-live="polite"]').textContent?.trim()).toBe('Reading page 2 of 5.');
    await provide({ run: reading(5, 5) });
    expect(line()).toBe('Reading page 5 of 5.');

    // With several documents, the run says which one, and the one read says its page.
    await provide({
      run: {
        ...withDocuments(run, [
          { name: 'letter.pdf', status: 'queued', chunksTotal: 2, pagesRead: 1, pagesTotal: 1 },
          { name: 'scan.pdf', status: 'queued', pagesRead: 2, pagesTotal: 3 },
          { name: 'photo.png', status: 'queued' },
        ]),
        status: 'running',
        chunksTotal: null,
      },
    });
    expect(line()).toBe('Reading scan.pdf: page 3 of 3.');
    const documents = $$(element, '[part~="document"]').map((item) => [
      item.querySelector('.badge')!.textContent!.trim(),
      item.querySelector('.document-line')!.textContent!.trim(),
    ]);
    expect(documents).toEqual([
      ['Waiting', 'Waiting for its turn.'],
      ['Reading', 'Reading page 3 of 3.'],
      ['Waiting', 'Waiting for its turn.'],
    ]);
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
});

describe('<extractor-extraction-view>: starting over and failures', () => {
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

  it('asks before starting over would leave the person’s edits behind, and never offers it once submitted', async () => {
    const session = await completedRun(labels);
    const fileId = decodeURIComponent(session.run.documents[0]!.file.split('/').pop()!);
    const edited = await session.client.saveDocumentResults(session.run.id, fileId, {
      invoice_number: 'typed by hand',
    });
    const { element, events } = await mountWith(edited, session);
    await userEvent.click($(element, '[part~="restart-button"]'));
    const warning = $(element, '[part~="restart-warning"]');
    expect(warning.textContent).toMatch(/Your changes would not be carried over\./);
    expect(element.shadowRoot!.activeElement).toBe(warning);
    expect(events.some((event) => event.type === 'extractor-run-started')).toBe(false);
    expect((await session.client.getBucket(session.bucketId)).runs).toHaveLength(1);
    await userEvent.click($(element, '[part~="keep-edits-button"]'));
    expect(events.at(-1)?.detail).toEqual({ step: 'results' });
    expect($$(element, '[part~="restart-warning"]')).toEqual([]);

    // Asked again, and pressed again: a new run.
    await userEvent.click($(element, '[part~="restart-button"]'));
    const started = nextEvent(element, 'extractor-run-started');
    await userEvent.click($(element, '[part~="restart-button"]'));
    expect((await started).detail.run.id).not.toBe(session.run.id);

    unmountAll();
    await session.client.submitResults(session.run.id);
    const submitted = await session.client.getRun(session.run.id);
    const again = await mountWith(submitted, session);
    expect($$(again.element, '[part~="restart-button"]')).toEqual([]);
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
    expect(message).toContain('We could not read your document.');
    expect(message).toContain('Replace a file that could not be read');
    // The provider refused the service's key: the service's sentence says so in plain words
    // (the particulars are in its log); the person reads what the code means for them.
    const [document] = session.run.documents;
    expect(document).toMatchObject({ name: 'invoice.txt', errorCode: 'misconfigured' });
    expect(document!.error).toMatch(/^invoice\.txt: The language model's provider refused/);
    const item = $(element, '[part~="document"]');
    expect(item.querySelector('.document-line')?.textContent?.trim()).toBe(
      'The service is not set up to read invoice.txt. Please contact support.',
    );
    expect(item.querySelector('[part~="replace-button"]')?.textContent?.trim()).toBe(
      'Replace file',
    );
    // Reading the same file again would fail the same way: no Restart.
    expect(actionLabels(element)).toEqual([labelDefaults.extractionViewBackButtonLabel]);
  });

  it('says why a run that could not be worked at all failed, and offers to start again', async () => {
    const session = await completedRun();
    const run = withDocuments(session.run, [{ name: 'invoice.txt', status: 'queued' }], 'failed');
    const { element } = await mountWith(
      { ...run, error: 'The run could not be worked: its schema is not valid.' },
      session,
    );
    const message = $(element, '[part~="error"]').textContent ?? '';
    expect(message).toContain('We could not finish reading your documents.');
    expect(message).toContain('The run could not be worked: its schema is not valid.');
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

/** The documents of a run of several, for the describes of several documents below. */
const four = [
  {
    name: 'coolblue.pdf',
    status: 'completed',
    data: { invoice_number: 'CB-1', date: '2024-01-02', total: 19.99, currency: 'EUR' },
  },
  {
    name: 'amazon.pdf',
    status: 'running',
    data: { invoice_number: 'AMZ-9' },
    chunksCompleted: 1,
    chunksTotal: 4,
  },
  { name: 'flipkart.pdf', status: 'queued' },
  {
    name: 'scan.png',
    status: 'failed',
    error: 'scan.png has no text we could read: the scan is blank.',
  },
] as const;

async function runOf(status: RunStatus, documents: readonly TestDocument[] = four) {
  const session = await startSession();
  await session.client.uploadFile(session.bucketId, textFile());
  const run = await session.client.startRun(session.bucketId, session.extractor.id);
  return { session, run: withDocuments(run, documents, status) };
}

const items = (element: HTMLElement) =>
  $$(element, '[part~="document"]').map((item) => ({
    name: item.querySelector('.document-name')!.textContent!.trim(),
    state: item.querySelector('.badge')!.textContent!.trim(),
    line: item.querySelector('.document-line')!.textContent!.trim(),
    replace: item.querySelector('[part~="replace-button"]')?.getAttribute('aria-label'),
  }));

describe('<extractor-extraction-view> with several documents', () => {
  it('lists the files in order, each with its state in words and its own progress', async () => {
    const { session, run } = await runOf('running');
    const { element } = await mountWith(run, session);
    const list = $(element, '[part~="document-list"]');
    expect(list.tagName).toBe('OL');
    expect(items(element)).toEqual([
      { name: 'coolblue.pdf', state: 'Read', line: '4 of 5 values found.', replace: undefined },
      { name: 'amazon.pdf', state: 'Reading', line: '25% done.', replace: undefined },
      {
        name: 'flipkart.pdf',
        state: 'Waiting',
        line: 'Waiting for its turn.',
        replace: undefined,
      },
      {
        name: 'scan.png',
        state: 'Could not be read',
        line: 'scan.png has no text we could read: the scan is blank.',
        // The run is still at work: a file is replaced once it is done.
        replace: undefined,
      },
    ]);
    // Only the document at work has a bar of its own, named after it.
    const bars = $$(element, '[part~="document"] [role="progressbar"]');
    expect(bars).toHaveLength(1);
    const bar = bars[0]!;
    expect(bar.getAttribute('aria-label')).toBe('Progress of amazon.pdf');
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuetext')]).toEqual([
      '25',
      '25% done.',
    ]);
    expect($(element, '#documents-heading').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Your documents 1 of 4 read',
    );
    // Several documents: their counts of values found, not one list of values for all.
    expect($$(element, '[part~="partial-results"]')).toEqual([]);
  });

  it('says plainly when some documents could not be read, and goes on to the others', async () => {
    const documents: TestDocument[] = [
      four[0],
      { ...four[0], name: 'amazon.pdf' },
      { ...four[0], name: 'flipkart.pdf' },
      four[3],
    ];
    const { session, run } = await runOf('partially_completed', documents);
    const { element, events } = await mountWith(run, session);
    expect($(element, '.badge').textContent?.trim()).toBe('Partly done');
    expect($(element, '.status-line').textContent?.trim()).toBe(
      '3 of 4 documents read; 1 could not be read.',
    );
    // On to the results of the three; reading them all again would fail the same way.
    expect(actionLabels(element)).toEqual([
      labelDefaults.extractionViewBackButtonLabel,
      labelDefaults.extractionViewContinueButtonLabel,
    ]);
    expect($(element, '[part~="continue-button"]').classList.contains('primary')).toBe(true);
    expect(items(element).map((item) => item.replace)).toEqual([
      undefined,
      undefined,
      undefined,
      'Replace file scan.png',
    ]);
    await userEvent.click($(element, '[part~="continue-button"]'));
    expect(events.at(-1)?.detail).toEqual({ step: 'results' });
  });

  it('offers to replace each file when none could be read, never to read them the same way again', async () => {
    const documents: TestDocument[] = [
      four[3],
      { name: 'photo.jpg', status: 'failed', error: 'photo.jpg is too dark to read.' },
    ];
    const { session, run } = await runOf('failed', documents);
    const { element } = await mountWith(
      { ...run, error: '2 of 2 documents failed: scan.png: …; photo.jpg: …' },
      session,
    );
    const message = $(element, '[part~="error"]').textContent ?? '';
    expect(message).toContain('We could not read any of your documents.');
    expect(message).toContain('Replace a file that could not be read');
    // Each document says why in the list; the run's summary of them is not repeated.
    expect(message).not.toContain('2 of 2 documents failed');
    expect(items(element).map((item) => [item.line, item.replace])).toEqual([
      ['scan.png has no text we could read: the scan is blank.', 'Replace file scan.png'],
      ['photo.jpg is too dark to read.', 'Replace file photo.jpg'],
    ]);
    expect(actionLabels(element)).toEqual([labelDefaults.extractionViewBackButtonLabel]);
  });

  it('refuses a replacement of a kind it cannot read before sending it, in plain words', async () => {
    const { session, run } = await runOf('partially_completed', [four[0], four[3]]);
    const { element, events } = await mountWith(run, session);
    const input = $<HTMLInputElement>(element, '[part~="document"] input[type="file"]');
    await userEvent.upload(input, [
      new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }),
    ]);
    await vi.waitFor(() =>
      expect($(element, '[part~="document"] [role="alert"]').textContent?.trim()).toMatch(
        /^“setup\.exe” is not a kind of file we can read\./,
      ),
    );
    expect(events.filter((event) => event.type === 'extractor-run-changed')).toEqual([]);
  });
});

describe('<extractor-extraction-view> with several documents: replacing and failures', () => {
  it('replaces a file that could not be read through the service, and follows the run reading it', async () => {
    const session = await partlyCompletedRun();
    const { element, events, provide } = await mountWith(session.run, session);
    const changed = nextEvent(element, 'extractor-run-changed');
    await userEvent.upload($<HTMLInputElement>(element, '[part~="document"] input[type="file"]'), [
      textFile('fixed.txt'),
    ]);
    const { run } = (await changed).detail;
    expect(run.status).toBe('queued');
    expect(run.documents.map((document) => [document.name, document.status])).toEqual([
      ['invoice.txt', 'completed'],
      ['fixed.txt', 'queued'],
    ]);
    await provide({ run });
    expect(items(element).map((item) => [item.name, item.state])).toEqual([
      ['invoice.txt', 'Read'],
      ['fixed.txt', 'Waiting'],
    ]);
    // The button pressed is gone: focus is on the run's status, working again.
    expect(element.shadowRoot!.activeElement).toBe($(element, '[part~="status"]'));
    const done = await waitForRun(session.client, run.id);
    expect(done.status).toBe('completed');
    expect(events.filter((event) => event.type === 'extractor-run-changed')).toHaveLength(1);
  });

  it('says why a document failed in the person’s language, from the service’s code', async () => {
    // A real failed run: the code comes from the service through the client.
    const session = await failedRun();
    const line = (element: HTMLElement) =>
      $(element, '[part~="document"] .document-line').textContent?.trim();
    try {
      await applyLocale({ locale: 'de', tag: 'de' });
      await loadLaterTexts();
      const { element } = await mountWith(session.run, session);
      expect(line(element)).toBe(
        'Der Dienst ist nicht dafür eingerichtet, invoice.txt zu lesen. Bitte wenden Sie sich an den Support.',
      );
      await applyLocale({ locale: 'ar', tag: 'ar' });
      await vi.waitFor(() =>
        expect(line(element)).toBe('الخدمة غير مُعدّة لقراءة «invoice.txt». يُرجى التواصل مع الدعم.'),
      );
    } finally {
      await applyLocale({ locale: 'en', tag: 'en' });
    }
  });

  it('words every failure code, and shows the service’s words for a failure it has none for', async () => {
    const reasons = {
      damaged_file: 'scan.pdf may be damaged.',
      password_protected: 'scan.pdf is protected by a password.',
      no_text: 'No text could be found in scan.pdf.',
      unsupported_type: 'scan.pdf is of a file type that cannot be read.',
      too_large: 'scan.pdf is too large or too complex to read.',
      file_missing: 'scan.pdf is no longer available.',
      misconfigured: 'The service is not set up to read scan.pdf. Please contact support.',
      model_unavailable:
        'The service that reads scan.pdf is not available right now. Please try again later.',
      model_refused: 'The AI model declined to process scan.pdf.',
      extraction_failed: 'An error on our side kept scan.pdf from being read.',
    } satisfies Record<DocumentErrorCode, string>;
    const english = 'scan.pdf: what the service said, in English';
    const documents: TestDocument[] = [
      ...documentErrorCodes.map((errorCode) => ({
        name: 'scan.pdf',
        status: 'failed' as const,
        error: english,
        errorCode,
      })),
      // Failed before failures had codes; and a code newer than this interface, as a host
      // could set the run without the client's reading of it.
      { name: 'old.pdf', status: 'failed', error: 'old.pdf could not be read as a PDF' },
      {
        name: 'new.pdf',
        status: 'failed',
        error: 'new.pdf failed in a way this interface does not know',
        errorCode: 'fell_off_the_edge' as DocumentErrorCode,
      },
    ];
    const { session, run } = await runOf('failed', documents);
    const { element } = await mountWith(run, session);
    expect(items(element).map((item) => item.line)).toEqual([
      ...documentErrorCodes.map((code) => reasons[code]),
      'old.pdf could not be read as a PDF',
      'new.pdf failed in a way this interface does not know',
    ]);
  });

  it('renders file names and errors as text, never as markup', async () => {
    const { session, run } = await runOf('partially_completed', [
      { ...four[0], name: '<img src=x onerror=alert(1)>.pdf' },
      { ...four[3], error: '<b>bold</b> could not be read' },
    ]);
    const { element } = await mountWith(run, session);
    expect($$(element, '[part~="document-list"] img, [part~="document-list"] b')).toEqual([]);
    expect(items(element).map((item) => [item.name, item.line])).toEqual([
      ['<img src=x onerror=alert(1)>.pdf', '4 of 5 values found.'],
      ['scan.png', '<b>bold</b> could not be read'],
    ]);
  });
});
