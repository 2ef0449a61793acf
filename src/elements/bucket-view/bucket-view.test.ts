import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { ExtractorClient, filesOfBucket } from '../../client/client.js';
import { completedRun, startSession, textFile } from '../../client/testing/fixtures.js';
import { labelDefaults } from '../../contract/labels.js';
import { applyLocale, loadLaterTexts } from '../../locales/localization.js';
import { $, $$, actionLabels, mountView, nextEvent, unmountAll } from '../testing/mount.js';

async function mountBucketView(labels: Record<string, string> = {}) {
  const session = await startSession(labels);
  const bucket = await session.client.getBucket(session.bucketId);
  const mounted = await mountView('extractor-bucket-view', {
    client: session.client,
    extractor: session.extractor,
    bucket,
  });
  // What the app does when files change: load the bucket again and provide it.
  const reload = async () =>
    mounted.provide({ bucket: await session.client.getBucket(session.bucketId) });
  mounted.element.addEventListener('extractor-files-uploaded', () => void reload());
  mounted.element.addEventListener('extractor-file-removed', () => void reload());
  return { ...session, ...mounted, reload };
}

const fileNames = (element: HTMLElement) =>
  $$(element, '.file-name').map((name) => name.textContent?.trim());

describe('<extractor-bucket-view>', () => {
  afterEach(unmountAll);

  it('renders the extractor’s labels, with defaults where they are empty', async () => {
    const { element } = await mountBucketView({
      bucketViewHeading: 'Add receipts',
      bucketViewBeginButtonLabel: '',
      bucketViewBackButtonLabel: 'Previous',
    });
    expect($(element, '[part~="heading"]').textContent?.trim()).toBe('Add receipts');
    expect($(element, '[part~="description"]').textContent?.trim()).toBe(
      labelDefaults.bucketViewDescription,
    );
    expect(actionLabels(element)).toEqual(['Previous', labelDefaults.bucketViewBeginButtonLabel]);
  });

  it('offers every type we read, the camera included, for several files at once', async () => {
    const { element } = await mountBucketView();
    const input = $<HTMLInputElement>(element, 'input[type="file"]');
    expect(input.multiple).toBe(true);
    expect(input.accept.split(',')).toEqual(
      expect.arrayContaining(['application/pdf', 'image/jpeg', 'image/png', '.docx']),
    );
  });

  it('uploads chosen files with a progress bar each, then lists them as uploaded', async () => {
    const { element, events, client, bucketId } = await mountBucketView();
    const uploaded = nextEvent(element, 'extractor-files-uploaded');
    await userEvent.upload($<HTMLInputElement>(element, 'input[type="file"]'), [
      textFile('march.txt'),
    ]);
    await element.updateComplete;
    const bar = $(element, '[part~="progress"][role="progressbar"]');
    expect(bar.getAttribute('aria-label')).toBe('Uploading march.txt');
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);
    expect((await uploaded).detail.files.map((file) => file.name)).toEqual(['march.txt']);
    await vi.waitFor(() => expect($$(element, '.file-icon.done')).toHaveLength(1));
    expect(fileNames(element)).toEqual(['march.txt']);
    expect($(element, '.file-meta').textContent).toContain('Uploaded');
    expect($$(element, '[role="progressbar"]')).toEqual([]);
    expect(filesOfBucket(await client.getBucket(bucketId)).map((file) => file.name)).toEqual([
      'march.txt',
    ]);
    expect(events.filter((event) => event.type === 'extractor-files-uploaded')).toHaveLength(1);
  });

  it('takes files dropped on the drop zone and pasted from the clipboard', async () => {
    const { element } = await mountBucketView();
    const dropped = new DataTransfer();
    dropped.items.add(textFile('dropped.txt'));
    const zone = $(element, '[part~="drop-zone"]');
    zone.dispatchEvent(
      new DragEvent('dragenter', { dataTransfer: dropped, bubbles: true, cancelable: true }),
    );
    await element.updateComplete;
    expect(zone.classList.contains('dragging')).toBe(true);
    zone.dispatchEvent(
      new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }),
    );
    const pasted = new DataTransfer();
    pasted.items.add(new File(['Total 10 EUR'], 'pasted.txt', { type: 'text/plain' }));
    $(element, '[part~="heading"]').dispatchEvent(
      new ClipboardEvent('paste', {
        clipboardData: pasted,
        bubbles: true,
        composed: true,
        cancelable: true,
      }),
    );
    await vi.waitFor(() =>
      expect(fileNames(element).sort()).toEqual(['dropped.txt', 'pasted.txt']),
    );
    expect(zone.classList.contains('dragging')).toBe(false);
  });

  it('refuses a file of the wrong type or size before uploading, in plain words', async () => {
    const { element, events } = await mountBucketView();
    element.maxFileSize = 10;
    await element.updateComplete;
    await userEvent.upload($<HTMLInputElement>(element, 'input[type="file"]'), [
      new File(['x'], 'holiday.mov', { type: 'video/quicktime' }),
      textFile('large.txt', 'more than ten bytes'),
    ]);
    await element.updateComplete;
    const problems = $$(element, '.file-problem').map((problem) => problem.textContent?.trim());
    expect(problems[0]).toMatch(/^“holiday.mov” is not a kind of file we can read\. Use PDF/);
    expect(problems[1]).toMatch(/^“large.txt” is 19\sbyte; a file can be at most 10\sbyte\.$/);
    expect(events.filter((event) => event.type === 'extractor-files-uploaded')).toEqual([]);
    await userEvent.click($(element, '[part~="dismiss-button"]'));
    expect($$(element, '.file-problem')).toHaveLength(1);
  });

  it('keeps a failed upload with its reason and uploads it when retried', async () => {
    const { element, client, session, provide } = await mountBucketView();
    await provide({
      client: new ExtractorClient({ baseUrl: 'http://127.0.0.1:9', token: session.token }),
    });
    await userEvent.upload($<HTMLInputElement>(element, 'input[type="file"]'), [
      textFile('retry.txt'),
    ]);
    await vi.waitFor(() =>
      expect($(element, '.file-problem').textContent).toMatch(/could not reach the service/),
    );
    // Said to screen readers too, not only drawn in the list.
    expect($(element, '[aria-live]').textContent?.trim()).toBe(
      'retry.txt could not be uploaded. We could not reach the service. Check your connection and try again.',
    );
    await provide({ client });
    await userEvent.click($(element, '[part~="retry-button"]'));
    await vi.waitFor(() => expect($$(element, '.file-icon.done')).toHaveLength(1));
    expect(fileNames(element)).toEqual(['retry.txt']);
  });

  it('offers no Try again for a file the service refused for what it is, and says why aloud', async () => {
    const { element } = await mountBucketView();
    await userEvent.upload($<HTMLInputElement>(element, 'input[type="file"]'), [
      new File([new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0])], 'setup.pdf', {
        type: 'application/pdf',
      }),
    ]);
    await vi.waitFor(() => expect($$(element, '.file-problem')).toHaveLength(1));
    const reason = $(element, '.file-problem').textContent?.trim() ?? '';
    expect(reason.length).toBeGreaterThan(10);
    expect($$(element, '[part~="retry-button"]')).toEqual([]);
    expect($$(element, '[part~="dismiss-button"]')).toHaveLength(1);
    expect($(element, '[aria-live]').textContent?.trim()).toBe(
      `setup.pdf could not be uploaded. ${reason}`,
    );
  });
});

describe('<extractor-bucket-view>: removing files and beginning a run', () => {
  afterEach(unmountAll);

  it('removes a file from the bucket', async () => {
    const { element, client, bucketId, reload } = await mountBucketView();
    await client.uploadFile(bucketId, textFile('keep.txt'));
    await client.uploadFile(bucketId, textFile('drop.txt'));
    await reload();
    const removed = nextEvent(element, 'extractor-file-removed');
    await userEvent.click($(element, '[aria-label="Remove drop.txt"]'));
    expect((await removed).detail.file.name).toBe('drop.txt');
    await vi.waitFor(() => expect(fileNames(element)).toEqual(['keep.txt']));
    expect(filesOfBucket(await client.getBucket(bucketId)).map((file) => file.name)).toEqual([
      'keep.txt',
    ]);
    expect($(element, '[aria-live]').textContent?.trim()).toBe('drop.txt removed.');
  });

  it('says a file is removed in the person’s language', async () => {
    await applyLocale({ locale: 'de', tag: 'de' });
    await loadLaterTexts();
    try {
      const { element, client, bucketId, reload } = await mountBucketView();
      await client.uploadFile(bucketId, textFile('drop.txt'));
      await reload();
      await userEvent.click($(element, '[aria-label="drop.txt entfernen"]'));
      await vi.waitFor(() =>
        expect($(element, '[aria-live]').textContent?.trim()).toBe('drop.txt entfernt.'),
      );
    } finally {
      await applyLocale({ locale: 'en', tag: 'en' });
    }
  });

  it('says what is missing when Begin is pressed without files, and starts a run with them', async () => {
    const { element, events, client, bucketId, reload } = await mountBucketView();
    await userEvent.click($(element, '[part~="begin-button"]'));
    expect($(element, '[part~="error"]').textContent?.trim()).toBe('Add at least one file first.');
    expect(events.some((event) => event.type === 'extractor-run-started')).toBe(false);
    await client.uploadFile(bucketId, textFile());
    await reload();
    const started = nextEvent(element, 'extractor-run-started');
    await userEvent.click($(element, '[part~="begin-button"]'));
    const { run } = (await started).detail;
    expect(run.status).toBe('queued');
    expect(run.bucket).toBe(`/api/buckets/${bucketId}`);
  });

  it('offers Continue to the current run, and only Continue while it is active', async () => {
    const { element, events, client, bucketId, extractor, reload, provide } =
      await mountBucketView();
    await client.uploadFile(bucketId, textFile());
    await reload();
    const run = await client.startRun(bucketId, extractor.id);
    await provide({ run });
    expect(actionLabels(element)).toEqual([
      labelDefaults.bucketViewBackButtonLabel,
      labelDefaults.bucketViewContinueButtonLabel,
    ]);
    await userEvent.click($(element, '[part~="continue-button"]'));
    expect(events.at(-1)?.detail).toEqual({ step: 'extraction' });
    await provide({ run: { ...run, status: 'failed' } });
    expect(actionLabels(element)).toEqual([
      labelDefaults.bucketViewBackButtonLabel,
      labelDefaults.bucketViewContinueButtonLabel,
      labelDefaults.bucketViewBeginButtonLabel,
    ]);
    await userEvent.click($(element, '[part~="back-button"]'));
    expect(events.at(-1)?.detail).toEqual({ step: 'introduction' });
  });

  it('asks before Begin would leave the person’s edits of the last run behind, and only then', async () => {
    const session = await completedRun();
    const bucket = await session.client.getBucket(session.bucketId);
    const mount = (run: typeof session.run) =>
      mountView('extractor-bucket-view', {
        client: session.client,
        extractor: session.extractor,
        bucket,
        run,
      });
    const runsNow = async () => (await session.client.getBucket(session.bucketId)).runs.length;

    // Results nobody edited: nothing to lose, Begin begins.
    const plain = await mount(session.run);
    const first = nextEvent(plain.element, 'extractor-run-started');
    await userEvent.click($(plain.element, '[part~="begin-button"]'));
    expect((await first).detail.run.id).not.toBe(session.run.id);
    expect($$(plain.element, '[part~="restart-warning"]')).toEqual([]);
    unmountAll();

    const fileId = decodeURIComponent(session.run.documents[0]!.file.split('/').pop()!);
    const edited = await session.client.saveDocumentResults(session.run.id, fileId, {
      invoice_number: 'typed by hand',
    });
    const { element, events } = await mount(edited);
    const before = await runsNow();
    await userEvent.click($(element, '[part~="begin-button"]'));
    const warning = $(element, '[part~="restart-warning"]');
    expect(warning.getAttribute('role')).toBe('alert');
    expect(warning.textContent).toMatch(/Your changes would not be carried over\./);
    expect(warning.textContent).toContain(`Press “${labelDefaults.bucketViewBeginButtonLabel}”`);
    expect(element.shadowRoot!.activeElement).toBe(warning);
    expect(events.some((event) => event.type === 'extractor-run-started')).toBe(false);
    expect(await runsNow()).toBe(before);
    await userEvent.click($(element, '[part~="keep-edits-button"]'));
    expect(events.at(-1)?.detail).toEqual({ step: 'results' });
    expect($$(element, '[part~="restart-warning"]')).toEqual([]);
    expect(await runsNow()).toBe(before);

    // Asked again, and pressed again: a new run, the edits left with the old one.
    await userEvent.click($(element, '[part~="begin-button"]'));
    const started = nextEvent(element, 'extractor-run-started');
    await userEvent.click($(element, '[part~="begin-button"]'));
    expect((await started).detail.run.id).not.toBe(session.run.id);
    expect(await runsNow()).toBe(before + 1);
  });
});
