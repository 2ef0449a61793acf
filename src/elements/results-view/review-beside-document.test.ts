/**
 * The results view beside the document (issue 13), against the real service: a run of the
 * invoice as text, whose values the service found with their sources. Focusing a field
 * highlights where it was found; choosing a highlight focuses its field; picking words on
 * the page fills the field being edited; the extractor's checks mark the values they involve.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { completedRun } from '../../client/testing/fixtures.js';
import type { Run } from '../../contract/resources.js';
import { applyLocale, loadLaterTexts } from '../../locales/localization.js';
import { $, $$, mountView, unmountAll } from '../testing/mount.js';
import type { ExtractorDocumentPane } from '../document-pane/document-pane.js';

async function mountInvoice(extractor: Record<string, unknown> = {}) {
  const session = await completedRun(extractor);
  const mounted = await mountView('extractor-results-view', {
    client: session.client,
    extractor: session.extractor,
    run: session.run,
  });
  mounted.element.addEventListener(
    'extractor-results-changed',
    (event) => void mounted.provide({ run: (event as CustomEvent<{ run: Run }>).detail.run }),
  );
  const pane = await waitFor(() =>
    mounted.element.shadowRoot!.querySelector<ExtractorDocumentPane>('extractor-document-pane'),
  );
  // The page's text has come from the service.
  await waitFor(() => pane.shadowRoot!.querySelector('.text-page'));
  return { ...session, ...mounted, pane };
}

async function waitFor<T>(
  find: () => T | null | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found) return found;
    if (Date.now() > deadline) throw new Error('not found in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function control(element: HTMLElement, pointer: string): HTMLInputElement {
  return $<HTMLInputElement>(
    element,
    `.field[data-pointer="${pointer}"] input, .field[data-pointer="${pointer}"] select`,
  );
}

function stateOf(element: HTMLElement, pointer: string): string {
  return $(element, `.field[data-pointer="${pointer}"] .field-state-text`)
    .textContent!.replace(/\s+/g, ' ')
    .trim();
}

afterEach(async () => {
  unmountAll();
  await page.viewport(414, 896);
});

describe('review beside the document', () => {
  it('shows the pages beside the fields when wide, and a toggle between them when narrow', async () => {
    await page.viewport(1280, 900);
    const { element, pane } = await mountInvoice();
    const fields = $(element, '.review-fields');
    expect(pane.checkVisibility()).toBe(true);
    expect(fields.checkVisibility()).toBe(true);
    // Side by side: the pane starts to the right of the fields.
    expect(pane.getBoundingClientRect().left).toBeGreaterThan(
      fields.getBoundingClientRect().right - 1,
    );
    expect($(element, '.review-toggle').checkVisibility()).toBe(false);
    // The page is one Tab stop, named, so that the keyboard can scroll it.
    const scroller = $(pane, '.scroller');
    expect(scroller.tabIndex).toBe(0);
    expect(scroller.getAttribute('aria-label')).toBe('Page 1 of invoice.txt');

    await page.viewport(375, 800);
    await element.updateComplete;
    expect(pane.checkVisibility()).toBe(false);
    const [showFields, showDocument] = $$<HTMLButtonElement>(element, '.review-toggle button');
    expect(showFields!.getAttribute('aria-pressed')).toBe('true');
    showDocument!.focus();
    await userEvent.keyboard('{Enter}');
    await element.updateComplete;
    expect(pane.checkVisibility()).toBe(true);
    expect(fields.checkVisibility()).toBe(false);
  });

  it('highlights where a focused value was found, and a highlight focuses its field', async () => {
    await page.viewport(1280, 900);
    const { element, pane } = await mountInvoice();
    expect(stateOf(element, '/total')).toBe('Found on page 1');
    control(element, '/total').focus();
    await pane.updateComplete;
    const current = await waitFor(() =>
      pane.shadowRoot!.querySelector<HTMLElement>('mark.current'),
    );
    expect(current.dataset['pointer']).toBe('/total');
    expect(
      $$(pane, 'mark.current')
        .map((mark) => mark.textContent)
        .join(' '),
    ).toContain('17.50');
    expect(current.getAttribute('aria-label')).toBe('Total: found on page 1');
    expect($(pane, '[role="status"]:not(.placeholder)').textContent).toBe('Total found on page 1.');

    const mark = $<HTMLElement>(pane, 'mark[data-pointer="/invoice_number"]');
    mark.click();
    await element.updateComplete;
    expect(element.shadowRoot!.activeElement).toBe(control(element, '/invoice_number'));
  });

  it('fills the field being edited with words picked on the page, as an edit of the person', async () => {
    await page.viewport(1280, 900);
    const { element, pane } = await mountInvoice();
    control(element, '/invoice_number').focus();
    await pane.updateComplete;
    expect($(pane, '.fill-hint').textContent).toContain('Invoice number');
    const words = $$(pane, '.text-page [data-word]');
    const wordOf = (text: string) => words.find((each) => each.textContent === text)!;
    // A drag from one word to another picks them and what lies between.
    const pointer = { bubbles: true, composed: true, button: 0 };
    wordOf('ACME').dispatchEvent(new PointerEvent('pointerdown', pointer));
    wordOf('Supplies').dispatchEvent(new PointerEvent('pointerover', pointer));
    wordOf('Ltd').dispatchEvent(new PointerEvent('pointerover', pointer));
    window.dispatchEvent(new PointerEvent('pointerup', pointer));
    await element.updateComplete;
    expect(control(element, '/invoice_number').value).toBe('ACME Supplies Ltd');
    expect(stateOf(element, '/invoice_number')).toBe('Edited by you, from page 1');
    // The person's pick is the value's source now: its highlight is where they took it.
    await pane.updateComplete;
    expect($$(pane, 'mark.current').map((mark) => mark.textContent)).toEqual([
      'ACME',
      'Supplies',
      'Ltd',
    ]);
  });
});

describe('review beside the document: failing checks', () => {
  it('marks the values a failing check involves, with its message, and clears them when fixed', async () => {
    await page.viewport(1280, 900);
    const { element } = await mountInvoice({
      checks: [
        { left: '/total', op: '<=', right: 15, message: 'The total is over the limit of 15.' },
      ],
    });
    expect(stateOf(element, '/total')).toBe('Needs review The total is over the limit of 15.');
    expect($(element, '.review-count').textContent).toContain('1 value needs review');
    const total = control(element, '/total');
    expect(total.getAttribute('aria-describedby')).toContain(`${total.id}-state`);
    total.focus();
    total.select();
    await userEvent.keyboard('12');
    await element.updateComplete;
    expect(stateOf(element, '/total')).toBe('Edited by you');
    expect($(element, '.review-count').textContent?.trim()).toBe('No value needs review');
  });

  it("words a failing check without a message in the person's language, and one with a message as written", async () => {
    await page.viewport(1280, 900);
    try {
      await applyLocale({ locale: 'de', tag: 'de' });
      await loadLaterTexts();
      // The invoice's total is 17.50, its date 2024-03-15, its number INV-2024-001.
      const { element } = await mountInvoice({
        checks: [
          { left: '/total', op: '>=', right: 1234.56 },
          { left: '/date', op: '=', right: { value: '2024-03-10' }, tolerance: 2 },
          {
            left: '/invoice_number',
            op: '!=',
            right: { value: 'INV-2024-001' },
            message: 'Already paid.',
          },
        ],
      });
      expect(stateOf(element, '/total')).toBe(
        'Prüfung nötig Total (17,5) sollte mindestens 1.234,56 sein.',
      );
      expect(stateOf(element, '/date')).toBe(
        'Prüfung nötig Invoice date (15.03.2024) sollte höchstens um 2 Tage von 10.03.2024 abweichen.',
      );
      expect(stateOf(element, '/invoice_number')).toBe('Prüfung nötig Already paid.');

      // Egypt's Arabic writes its numbers in Arabic-Indic digits.
      await applyLocale({ locale: 'ar', tag: 'ar-EG' });
      await element.updateComplete;
      await vi.waitFor(() =>
        expect(stateOf(element, '/total')).toBe(
          'يحتاج إلى مراجعة ينبغي ألا يقل Total (١٧٫٥) عن ١٬٢٣٤٫٥٦.',
        ),
      );
      // Dates as Egypt writes them, with the marks that keep their parts in order (U+200F).
      expect(stateOf(element, '/date')).toBe(
        'يحتاج إلى مراجعة ينبغي أن يكون Invoice date (١٥\u200f/٠٣\u200f/٢٠٢٤) مطابقًا لـ١٠\u200f/٠٣\u200f/٢٠٢٤، بفارق أقصاه يومان.',
      );
      expect(stateOf(element, '/invoice_number')).toBe('يحتاج إلى مراجعة Already paid.');
    } finally {
      await applyLocale({ locale: 'en', tag: 'en' });
    }
  });

  it("marks every value a failing sum involves, the table's cells too, on each edit", async () => {
    await page.viewport(1280, 900);
    const message = 'The line items do not add up to the total.';
    const { element } = await mountInvoice({
      checks: [
        {
          left: { sum: '/line_items/*/amount' },
          op: '=',
          right: '/total',
          tolerance: 0.01,
          message,
        },
      ],
    });
    // 10.00 and 7.50 make the 17.50 the invoice prints: nothing to review.
    expect(stateOf(element, '/total')).toBe('Found on page 1');
    expect($$(element, '.cell.needs-review')).toHaveLength(0);

    const total = control(element, '/total');
    total.focus();
    total.select();
    await userEvent.keyboard('20');
    await element.updateComplete;
    expect(stateOf(element, '/total')).toBe(`Needs review ${message}`);
    const marked = $$<HTMLElement>(element, '.cell.needs-review').map(
      (cell) => cell.dataset['pointer'],
    );
    expect(marked).toEqual(['/line_items/0/amount', '/line_items/1/amount']);
    expect($(element, '.cell.needs-review .cell-review').textContent).toContain(message);
    // The mark takes no room from the value: its control fills the cell as the others do.
    const cell = $(element, '.cell.needs-review');
    expect(cell.querySelector('input')!.getBoundingClientRect().width).toBeGreaterThan(
      cell.getBoundingClientRect().width - 4,
    );
    expect($(element, '.review-count').textContent).toContain('3 values need review');

    total.focus();
    total.select();
    await userEvent.keyboard('17.5');
    await element.updateComplete;
    expect($$(element, '.cell.needs-review')).toHaveLength(0);
    expect($(element, '.review-count').textContent?.trim()).toBe('No value needs review');
  });
});
