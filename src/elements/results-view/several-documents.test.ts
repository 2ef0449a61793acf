import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import {
  completedRun,
  partlyCompletedRun,
  textFile,
  waitForRun,
  recordOf,
  withDocuments,
  type TestDocument,
} from '../../client/testing/fixtures.js';
import { applyLocale, loadLaterTexts } from '../../locales/localization.js';
import { field, typeInto } from '../testing/fields.js';
import { $, $$, mountView, nextEvent, unmountAll } from '../testing/mount.js';

describe('<extractor-results-view> with several documents', () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    unmountAll();
    await page.viewport(414, 896);
  });

  const invoices = [
    {
      name: 'coolblue.pdf',
      status: 'completed',
      data: { invoice_number: 'CB-1', date: '2024-01-02', total: 19.99, currency: 'EUR' },
    },
    {
      name: 'amazon.pdf',
      status: 'completed',
      data: { invoice_number: 'AMZ-9', date: '2024-02-03', total: 4.11, currency: 'USD' },
    },
    {
      name: 'scan.png',
      status: 'failed',
      error: 'scan.png has no text we could read: the scan is blank.',
    },
    {
      name: 'flipkart.pdf',
      status: 'completed',
      data: { invoice_number: 'FK-3', date: null, total: 12, currency: null },
    },
  ] as const satisfies TestDocument[];

  async function mountDocuments(documents: readonly TestDocument[] = invoices) {
    const session = await completedRun();
    const run = withDocuments(session.run, documents, 'partially_completed');
    const mounted = await mountView('extractor-results-view', {
      client: session.client,
      extractor: session.extractor,
      run,
    });
    return { ...session, ...mounted, run };
  }

  const tabs = (element: HTMLElement) => $$(element, '[role="tab"]');
  const selectedTab = (element: HTMLElement) =>
    $(element, '[role="tab"][aria-selected="true"]').querySelector('.tab-name')!.textContent;
  const tabStates = (element: HTMLElement) =>
    tabs(element).map((tab) => [
      tab.querySelector('.tab-name')!.textContent,
      tab.querySelector('.badge')!.textContent!.trim(),
    ]);

  it('switches between the documents with tabs that name each one and its state', async () => {
    const { element } = await mountDocuments();
    const list = $(element, '[role="tablist"]');
    expect(list.getAttribute('aria-label')).toBe('Documents');
    expect(tabStates(element)).toEqual([
      ['coolblue.pdf', 'Read'],
      ['amazon.pdf', 'Read'],
      ['scan.png', 'Could not be read'],
      ['flipkart.pdf', 'Read'],
    ]);
    // The panel is labelled by the chosen tab and shows that document's own values.
    const panel = $(element, '[role="tabpanel"]');
    expect(panel.getAttribute('aria-labelledby')).toBe(tabs(element)[0]!.id);
    expect(tabs(element)[0]!.getAttribute('aria-controls')).toBe(panel.id);
    expect(field(element, 'Invoice number')).toHaveProperty('value', 'CB-1');
    expect($(element, '.switcher-position').textContent?.trim()).toBe('Document 1 of 4');

    await userEvent.click(tabs(element)[1]!);
    expect(selectedTab(element)).toBe('amazon.pdf');
    expect(field(element, 'Invoice number')).toHaveProperty('value', 'AMZ-9');
    expect(field(element, 'Total')).toHaveProperty('value', '4.11');
    expect($(element, '[role="tabpanel"]').getAttribute('aria-labelledby')).toBe(
      tabs(element)[1]!.id,
    );
  });

  it('moves between the tabs with the arrow keys, Home and End, with one Tab stop', async () => {
    const { element } = await mountDocuments();
    expect(tabs(element).map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1]);
    tabs(element)[0]!.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(selectedTab(element)).toBe('amazon.pdf');
    expect(element.shadowRoot!.activeElement).toBe(tabs(element)[1]);
    expect(tabs(element).map((tab) => tab.tabIndex)).toEqual([-1, 0, -1, -1]);
    await userEvent.keyboard('{End}');
    expect(selectedTab(element)).toBe('flipkart.pdf');
    await userEvent.keyboard('{ArrowRight}');
    expect(selectedTab(element)).toBe('coolblue.pdf');
    await userEvent.keyboard('{ArrowLeft}');
    expect(selectedTab(element)).toBe('flipkart.pdf');
    await userEvent.keyboard('{Home}');
    expect(selectedTab(element)).toBe('coolblue.pdf');
    expect(element.shadowRoot!.activeElement).toBe(tabs(element)[0]);
  });

  it('steps through the documents with Previous and Next, which stop at the ends', async () => {
    const { element } = await mountDocuments();
    const previous = $(element, '[part~="previous-document-button"]');
    const next = $(element, '[part~="next-document-button"]');
    expect(previous.getAttribute('aria-label')).toBe('Previous document');
    expect(previous.getAttribute('aria-disabled')).toBe('true');
    for (const name of ['amazon.pdf', 'scan.png', 'flipkart.pdf']) {
      await userEvent.click(next);
      expect(selectedTab(element)).toBe(name);
    }
    expect(next.getAttribute('aria-disabled')).toBe('true');
    // Still focusable, so it is not lost from under the keyboard; pressing it does nothing.
    next.click();
    await element.updateComplete;
    expect(selectedTab(element)).toBe('flipkart.pdf');
    expect($(element, '.switcher-position').textContent?.trim()).toBe('Document 4 of 4');
    await userEvent.click(previous);
    expect(selectedTab(element)).toBe('scan.png');
    // Below the document too, naming the next one; its tab takes focus.
    await userEvent.click($(element, '.next-document button'));
    expect(selectedTab(element)).toBe('flipkart.pdf');
    expect(element.shadowRoot!.activeElement).toBe(tabs(element)[3]);
    expect($$(element, '.next-document')).toEqual([]);
    await userEvent.click(tabs(element)[0]!);
    expect($(element, '.next-document button').textContent?.trim()).toBe(
      'Next document: amazon.pdf ›',
    );
  });

  it('shows why a document could not be read, with Replace file instead of its editor', async () => {
    const { element } = await mountDocuments();
    await userEvent.click(tabs(element)[2]!);
    const panel = $(element, '[role="tabpanel"]');
    expect(panel.querySelector('form')).toBeNull();
    expect(panel.querySelector('[part~="error"]')?.textContent).toContain(
      'We could not read “scan.png”.',
    );
    expect(panel.querySelector('[part~="error"]')?.textContent).toContain(
      'scan.png has no text we could read: the scan is blank.',
    );
    const replace = panel.querySelector('[part~="replace-button"]')!;
    expect(replace.textContent?.trim()).toBe('Replace file');
    expect(replace.getAttribute('aria-label')).toBe('Replace file scan.png');
    // No button reads the same file again.
    expect($$(element, 'button').map((button) => button.textContent?.trim())).not.toContainEqual(
      expect.stringMatching(/again|retry/i),
    );
  });

  it('says why a document could not be read in the person’s language', async () => {
    const documents: TestDocument[] = [
      invoices[0],
      {
        name: 'locked.pdf',
        status: 'failed',
        error: 'locked.pdf is protected by a password; upload it without one',
        errorCode: 'password_protected',
      },
    ];
    try {
      await applyLocale({ locale: 'de', tag: 'de' });
      await loadLaterTexts();
      const { element } = await mountDocuments(documents);
      await userEvent.click(tabs(element)[1]!);
      const error = () =>
        $(element, '[role="tabpanel"] [part~="error"]').textContent?.replace(/\s+/g, ' ');
      expect(error()).toContain('„locked.pdf“ konnte nicht gelesen werden.');
      expect(error()).toContain('locked.pdf ist durch ein Passwort geschützt.');
      expect(error()).not.toContain('upload it without one');
      await applyLocale({ locale: 'ar', tag: 'ar' });
      await vi.waitFor(() => expect(error()).toContain('«locked.pdf» محمي بكلمة مرور.'));
    } finally {
      await applyLocale({ locale: 'en', tag: 'en' });
    }
  });

  it('says how many documents were read and what Submit sends', async () => {
    const { element } = await mountDocuments();
    expect($(element, '[part~="outcome"]').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '3 of 4 documents read; 1 could not be read. Submit sends the 3 documents that were read.',
    );
  });

  it('marks a document whose values need attention, and Submit leads there first', async () => {
    const { element, events } = await mountDocuments([
      invoices[0],
      { ...invoices[1], data: { ...invoices[1].data, total: -5 } },
    ]);
    expect(tabStates(element)).toEqual([
      ['coolblue.pdf', 'Read'],
      ['amazon.pdf', 'Needs attention'],
    ]);
    await userEvent.click($(element, '[part~="submit-button"]'));
    expect(selectedTab(element)).toBe('amazon.pdf');
    expect($(element, '[role="alert"]').textContent).toBe(
      'Some values of “amazon.pdf” need your attention before you submit; they are marked above.',
    );
    expect(element.shadowRoot!.activeElement).toBe(field(element, 'Total'));
    expect(events.some((event) => event.type === 'extractor-submit-requested')).toBe(false);
  });

  it('saves each document’s edits to that document, and keeps them while another shows', async () => {
    const session = await completedRun();
    await session.client.uploadFile(session.bucketId, textFile('second.txt'));
    const queued = await session.client.startRun(session.bucketId, session.extractor.id);
    const run = await waitForRun(session.client, queued.id);
    const { element, provide } = await mountView('extractor-results-view', {
      client: session.client,
      extractor: session.extractor,
      run,
    });
    element.addEventListener(
      'extractor-results-changed',
      (event) => void provide({ run: event.detail.run }),
    );
    expect(tabStates(element).map(([name]) => name)).toEqual(['invoice.txt', 'second.txt']);
    await userEvent.click(tabs(element)[1]!);
    const changed = nextEvent(element, 'extractor-results-changed');
    await typeInto(field(element, 'Invoice number'), 'SECOND-1');
    // Switching away saves at once, without waiting for the pause.
    await userEvent.click(tabs(element)[0]!);
    const { detail } = await changed;
    expect(detail.file).toBe(run.documents[1]!.file);
    expect(
      detail.data.documents.map(
        (document) => (document.data as { invoice_number: string }).invoice_number,
      ),
    ).toEqual(['INV-2024-001', 'SECOND-1']);
    const stored = await session.client.getRun(run.id);
    expect(recordOf(stored.data, 0)).toMatchObject({ invoice_number: 'INV-2024-001' });
    expect(recordOf(stored.data, 1)).toMatchObject({ invoice_number: 'SECOND-1' });
    expect(field(element, 'Invoice number')).toHaveProperty('value', 'INV-2024-001');
    await userEvent.click(tabs(element)[1]!);
    expect(field(element, 'Invoice number')).toHaveProperty('value', 'SECOND-1');
  });

  it('replaces a file that could not be read and goes back to watching it be read', async () => {
    const session = await partlyCompletedRun();
    const { element, events } = await mountView('extractor-results-view', {
      client: session.client,
      extractor: session.extractor,
      run: session.run,
    });
    await userEvent.click(tabs(element)[1]!);
    const changed = nextEvent(element, 'extractor-run-changed');
    await userEvent.upload($<HTMLInputElement>(element, '[role="tabpanel"] input[type="file"]'), [
      textFile('fixed.txt'),
    ]);
    const { run } = (await changed).detail;
    expect(run.documents.map((document) => [document.name, document.status])).toEqual([
      ['invoice.txt', 'completed'],
      ['fixed.txt', 'queued'],
    ]);
    expect(events.at(-1)?.type).toBe('extractor-step-requested');
    expect(events.at(-1)?.detail).toEqual({ step: 'extraction' });
  });

  it('renders names and errors as text, never as markup', async () => {
    const { element } = await mountDocuments([
      { ...invoices[0], name: '<img src=x onerror=alert(1)>.pdf' },
      { ...invoices[2], error: '<b>bold</b> could not be read' },
    ]);
    expect($$(element, '[role="tablist"] img')).toEqual([]);
    expect(tabStates(element)[0]![0]).toBe('<img src=x onerror=alert(1)>.pdf');
    await userEvent.click(tabs(element)[1]!);
    expect($$(element, '[role="tabpanel"] b')).toEqual([]);
    expect($(element, '[role="tabpanel"]').textContent).toContain('<b>bold</b> could not be read');
  });

  it('shows no switcher for a run of one document', async () => {
    const { element } = await mountDocuments([invoices[1]]);
    expect($$(element, '[role="tablist"], [role="tabpanel"], [part~="outcome"]')).toEqual([]);
    expect(field(element, 'Invoice number')).toHaveProperty('value', 'AMZ-9');
  });
});
