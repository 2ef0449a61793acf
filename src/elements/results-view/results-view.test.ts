import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { completedRun, holding, recordOf } from '../../client/testing/fixtures.js';
import { labelDefaults } from '../../contract/labels.js';
import type { Run } from '../../contract/resources.js';
import { field, typeInto } from '../testing/fields.js';
import { $, $$, actionLabels, mountView, nextEvent, unmountAll } from '../testing/mount.js';

const orderSchema = {
  type: 'object',
  title: 'Order',
  properties: {
    order_number: {
      type: 'string',
      title: 'Order number',
      description: 'As printed on the order.',
      minLength: 1,
    },
    order_date: { type: ['string', 'null'], format: 'date', title: 'Order date' },
    total: { type: ['number', 'null'], title: 'Total', minimum: 0 },
    pieces: { type: ['integer', 'null'] },
    status: { type: 'string', enum: ['open', 'paid', 'void'], title: 'Status' },
    urgent: { type: 'boolean', title: 'Urgent' },
    customer: {
      type: 'object',
      title: 'Customer',
      description: 'Who placed the order.',
      properties: {
        name: { type: ['string', 'null'], title: 'Name' },
        address: {
          type: 'object',
          title: 'Address',
          properties: {
            city: { type: ['string', 'null'], title: 'City' },
            zip: { type: ['string', 'null'], title: 'Postcode', pattern: '^[0-9]{4,5}$' },
          },
        },
      },
    },
    tags: { type: 'array', title: 'Tags', items: { type: 'string' } },
    line_items: {
      type: 'array',
      title: 'Line items',
      items: {
        type: 'object',
        properties: {
          description: { type: ['string', 'null'], title: 'Description' },
          quantity: { type: ['number', 'null'], title: 'Quantity', minimum: 0 },
          unit: { type: ['string', 'null'], enum: ['pcs', 'kg', null], title: 'Unit' },
        },
      },
    },
    shipments: {
      type: 'array',
      title: 'Shipments',
      items: {
        type: 'object',
        properties: {
          carrier: { type: ['string', 'null'], title: 'Carrier' },
          parcels: { type: 'array', title: 'Parcels', items: { type: 'string' } },
        },
      },
    },
  },
  required: ['order_number', 'status', 'line_items'],
};

const order = {
  order_number: 'PO-1',
  order_date: '2024-05-01',
  total: 12.5,
  pieces: 3,
  status: 'open',
  urgent: false,
  customer: { name: 'Ada', address: { city: 'Gent', zip: '9000' } },
  tags: ['new', 'priority'],
  line_items: [
    { description: 'Bolts', quantity: 2, unit: 'pcs' },
    { description: 'Sand', quantity: 1.5, unit: 'kg' },
    { description: 'Nails', quantity: 10, unit: 'pcs' },
  ],
  shipments: [{ carrier: 'DHL', parcels: ['P1'] }],
};

/** The id of the file of a one-file run's document. */
const documentFileId = (run: Run) => decodeURIComponent(run.documents[0]!.file.split('/').pop()!);

/** A completed run of an order extractor whose one document the service holds with `data`. */
async function mountOrder(data: unknown = order, extractor: Record<string, unknown> = {}) {
  const session = await completedRun({ jsonSchema: JSON.stringify(orderSchema), ...extractor });
  const run: Run = await session.client.saveDocumentResults(
    session.run.id,
    documentFileId(session.run),
    data,
  );
  const mounted = await mountView('extractor-results-view', {
    client: session.client,
    extractor: session.extractor,
    run,
  });
  // What the app does with saved edits: provide the run the service answered with.
  mounted.element.addEventListener(
    'extractor-results-changed',
    (event) => void mounted.provide({ run: event.detail.run }),
  );
  return { ...session, ...mounted, run };
}

function messageOf(element: HTMLElement, control: HTMLElement): string | undefined {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids
    .map((id) => element.shadowRoot!.getElementById(id))
    .find((node) => node?.classList.contains('field-error'))
    ?.textContent?.trim();
}

const rowCount = (element: HTMLElement) => $$(element, 'tbody tr.row').length;

describe('<extractor-results-view>', () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    unmountAll();
    await page.viewport(414, 896);
  });

  it('renders the heading, description and buttons from the labels, with defaults', async () => {
    const { element } = await mountOrder(order, {
      resultsViewHeading: 'Check your order',
      resultsViewSubmitButtonLabel: '',
    });
    expect($(element, '[part~="heading"]').textContent?.trim()).toBe('Check your order');
    expect($(element, '[part~="description"]').textContent?.trim()).toBe(
      labelDefaults.resultsViewDescription,
    );
    expect(actionLabels(element)).toEqual([
      labelDefaults.resultsViewBackButtonLabel,
      labelDefaults.resultsViewSubmitButtonLabel,
    ]);
  });

  it('generates an editor from a nested schema with arrays', async () => {
    const { element } = await mountOrder();
    const orderNumber = field(element, 'Order number') as HTMLInputElement;
    expect(orderNumber.value).toBe('PO-1');
    // Described by its description first (then by its state beside the document).
    const [descriptionId] = orderNumber.getAttribute('aria-describedby')!.split(' ');
    expect(element.shadowRoot!.getElementById(descriptionId!)?.textContent).toBe(
      'As printed on the order.',
    );
    expect((field(element, 'Order date') as HTMLInputElement).type).toBe('date');
    expect((field(element, 'Order date') as HTMLInputElement).value).toBe('2024-05-01');
    expect((field(element, 'Total') as HTMLInputElement).inputMode).toBe('decimal');
    expect((field(element, 'Pieces') as HTMLInputElement).inputMode).toBe('numeric');
    const status = field(element, 'Status') as HTMLSelectElement;
    expect([...status.options].map((option) => option.textContent?.trim())).toEqual([
      'open',
      'paid',
      'void',
    ]);
    expect(status.selectedOptions[0]?.textContent?.trim()).toBe('open');
    const urgent = $(element, '[role="radiogroup"]');
    expect(
      [...urgent.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((radio) => [
        radio.labels?.[0]?.textContent?.trim(),
        radio.checked,
      ]),
    ).toEqual([
      ['Yes', false],
      ['No', true],
    ]);

    const groups = $$(element, '.group-name').map((title) => title.textContent?.trim());
    expect(groups).toEqual(['Customer', 'Address', 'Tags', 'Line items', 'Shipments', 'Parcels']);
    expect((field(element, 'Postcode') as HTMLInputElement).value).toBe('9000');
    expect(
      $$<HTMLInputElement>(element, '[part~="value-list"] input').map((input) => input.value),
    ).toEqual(['new', 'priority', 'P1']);

    const table = $(element, '[part~="table"]');
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim())).toEqual([
      'Row',
      'Description',
      'Quantity',
      'Unit',
      'Remove',
    ]);
    expect(table.getAttribute('aria-rowcount')).toBe('4');
    expect(rowCount(element)).toBe(3);
    expect(
      $$(element, '[part~="list-item"]').map((card) => card.getAttribute('aria-label')),
    ).toEqual(['Shipments 1']);
  });

  it('checks values against the schema while the person types, with the message by the field', async () => {
    const { element } = await mountOrder();
    const total = field(element, 'Total') as HTMLInputElement;
    await typeInto(total, 'abc');
    expect(total.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(element, total)).toBe('Enter a number, such as 1,234.56.');
    expect($(element, '.save-status').textContent?.trim()).toMatch(
      /1 value needs attention before you submit\.$/,
    );
    await typeInto(total, '-5');
    expect(messageOf(element, total)).toBe('Enter 0 or more.');
    await typeInto(total, '7,25');
    expect(total.getAttribute('aria-invalid')).toBe('false');
    expect(messageOf(element, total)).toBeUndefined();
    // What was typed stays as typed while it means the value.
    expect(total.value).toBe('7,25');

    const postcode = field(element, 'Postcode') as HTMLInputElement;
    await typeInto(postcode, 'x1');
    expect(messageOf(element, postcode)).toBe('Enter the postcode as 4 to 5 digits, such as 1234.');
    const orderNumber = field(element, 'Order number') as HTMLInputElement;
    await typeInto(orderNumber, '');
    expect(messageOf(element, orderNumber)).toBe('Enter the order number.');
  });

  it('explains what a value needs in plain words, marks the fields to fill in, and shows a yes or no that was not found as unknown', async () => {
    // What a machine returns when it finds nothing: nulls where the schema wants values.
    // (The service keeps such output as the run's results; it refuses it as an edit.)
    const { element, run, provide } = await mountOrder();
    await provide({
      run: holding(run, { ...order, status: null, urgent: null }),
    });
    const texts = $$(element, '.field-error').map((node) => node.textContent?.trim());
    expect(texts).toEqual(['Choose the status.', 'Choose yes or no.']);
    for (const text of texts) expect(text).not.toMatch(/must be|true or false|text\./i);

    const status = field(element, 'Status') as HTMLSelectElement;
    expect(status.selectedOptions[0]?.textContent?.trim()).toBe('Choose…');
    expect(status.getAttribute('aria-required')).toBe('true');
    expect(messageOf(element, status)).toBe('Choose the status.');
    const urgent = $(element, '[role="radiogroup"]');
    expect(
      [...urgent.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map(
        (radio) => radio.checked,
      ),
    ).toEqual([false, false]);

    // Marked where the schema requires a value, and the form says what the mark means.
    expect($(element, '.form-note').textContent?.trim()).toBe('Fields marked * must be filled in.');
    const marked = $$(element, '.required-mark').map((mark) =>
      mark.parentElement?.textContent?.replace('*', '').trim(),
    );
    expect(marked).toEqual(['Order number', 'Status']);
    expect((field(element, 'Total') as HTMLInputElement).hasAttribute('aria-required')).toBe(false);

    await userEvent.click(urgent.querySelector('input[type="radio"]')!);
    await userEvent.selectOptions(status, 'paid');
    expect($$(element, '.field-error')).toEqual([]);
    await vi.waitFor(() =>
      expect($(element, '.save-status').textContent?.trim()).toBe('All changes saved.'),
    );
  });

  it('offers "Not known" for a yes or no the schema allows to be empty', async () => {
    const schema = {
      type: 'object',
      properties: { signed: { type: ['boolean', 'null'], title: 'Signed' } },
    };
    const session = await completedRun({ jsonSchema: JSON.stringify(schema) });
    const { element } = await mountView('extractor-results-view', {
      client: session.client,
      extractor: session.extractor,
      run: holding(session.run, { signed: null }),
    });
    const radios = $$<HTMLInputElement>(element, '[role="radiogroup"] input');
    expect(radios.map((radio) => [radio.labels?.[0]?.textContent?.trim(), radio.checked])).toEqual([
      ['Yes', false],
      ['No', false],
      ['Not known', true],
    ]);
    expect($$(element, '.field-error')).toEqual([]);
  });

  it('saves edits to the service after a pause in typing', async () => {
    const { element, client, run } = await mountOrder();
    const changed = nextEvent(element, 'extractor-results-changed');
    await typeInto(field(element, 'Total'), '42');
    await userEvent.selectOptions(field(element, 'Status'), 'paid');
    const { detail } = await changed;
    expect(detail.data.documents[0]!.data).toMatchObject({ total: 42, status: 'paid' });
    expect(detail.file).toBe(run.documents[0]!.file);
    await vi.waitFor(() =>
      expect($(element, '.save-status').textContent?.trim()).toBe('All changes saved.'),
    );
    const saved = recordOf((await client.getRun(run.id)).editedResultJson);
    expect(saved).toMatchObject({ total: 42, status: 'paid', line_items: order.line_items });
  });

  it('edits a table as a grid: one Tab stop, arrow keys between cells, Enter to edit, Escape to undo', async () => {
    const { element } = await mountOrder();
    const cell = (row: number, column: number) =>
      $(element, `[role="gridcell"][data-row="${row}"][data-column="${column}"]`);
    const input = (row: number, column: number) =>
      cell(row, column).querySelector<HTMLInputElement | HTMLSelectElement>('input, select')!;
    const focused = () => element.shadowRoot!.activeElement;
    const tabStops = () =>
      $$(
        element,
        '[part~="table"] [tabindex="0"], [part~="table"] :is(input, select, button):not([tabindex="-1"])',
      );
    expect($(element, '[part~="table"]').getAttribute('role')).toBe('grid');
    expect(tabStops()).toEqual([cell(0, 0)]);

    cell(0, 0).focus();
    await userEvent.keyboard('{ArrowDown}');
    await vi.waitFor(() => expect(focused()).toBe(cell(1, 0)));
    await userEvent.keyboard('{ArrowRight}');
    await vi.waitFor(() => expect(focused()).toBe(cell(1, 1)));
    await userEvent.keyboard('{End}');
    await vi.waitFor(() => expect(focused()).toBe(cell(1, 3)));
    await userEvent.keyboard('{Home}');
    await vi.waitFor(() => expect(focused()).toBe(cell(1, 0)));
    await userEvent.keyboard('{Control>}{End}{/Control}');
    await vi.waitFor(() => expect(focused()).toBe(cell(2, 3)));
    await userEvent.keyboard('{Control>}{Home}{/Control}');
    await vi.waitFor(() => expect(focused()).toBe(cell(0, 0)));
    // The Tab stop follows the active cell.
    expect(tabStops()).toEqual([cell(0, 0)]);

    // Enter edits, Escape undoes the edit and goes back to the cell.
    await userEvent.keyboard('{ArrowRight}{Enter}');
    await vi.waitFor(() => expect(focused()).toBe(input(0, 1)));
    await userEvent.keyboard('{Control>}a{/Control}two');
    expect(input(0, 1).getAttribute('aria-invalid')).toBe('true');
    expect($(element, '.table-problems').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Row 1 · Quantity: Enter a number, such as 1,234.56.',
    );
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(focused()).toBe(cell(0, 1)));
    expect(input(0, 1).value).toBe('2');
    expect($$(element, '.table-problems')).toEqual([]);

    // Typing on a cell starts it afresh; F2 keeps the edit; Down keeps it and moves on.
    await userEvent.keyboard('7');
    await vi.waitFor(() => expect(focused()).toBe(input(0, 1)));
    await userEvent.keyboard('5{F2}');
    await vi.waitFor(() => expect(focused()).toBe(cell(0, 1)));
    expect(input(0, 1).value).toBe('75');
    await userEvent.keyboard('{F2}{Backspace}{ArrowDown}');
    await vi.waitFor(() => expect(focused()).toBe(cell(1, 1)));
    expect(input(0, 1).value).toBe('7');

    // Rows are added with the button after the grid and removed from the keyboard inside it.
    await userEvent.click($(element, '[part~="add-row-button"]'));
    expect(rowCount(element)).toBe(4);
    await vi.waitFor(() =>
      expect(focused()?.getAttribute('aria-label')).toBe('Description, row 4'),
    );
    cell(0, 3).focus();
    await userEvent.keyboard('{Enter}');
    expect(rowCount(element)).toBe(3);
    expect((input(0, 0) as HTMLInputElement).value).toBe('Sand');
    await vi.waitFor(() => expect(focused()).toBe(cell(0, 3)));
  });

  it('shows rows as cards of labelled values when narrow, and as a table when wide', async () => {
    await page.viewport(375, 800);
    const { element, run, provide } = await mountOrder();
    const broken = {
      ...order,
      line_items: [{ description: 'Bolts', quantity: 'two', unit: 'pcs' }],
    };
    await provide({ run: holding(run, broken) });
    const row = $(element, 'tbody tr.row');
    const labels = [...row.querySelectorAll('.cell-label')].map((label) => [
      label.textContent?.trim(),
      getComputedStyle(label).display,
    ]);
    expect(labels).toEqual([
      ['Description', 'block'],
      ['Quantity', 'block'],
      ['Unit', 'block'],
    ]);
    const message = $(element, '.cell-error');
    expect(message.textContent?.trim()).toBe('Enter a number, such as 1,234.56.');
    expect(message.getBoundingClientRect().width).toBeGreaterThan(100);
    const scroller = $(element, '[part~="table-scroller"]');
    expect(scroller.scrollWidth).toBeLessThanOrEqual(scroller.clientWidth);
    for (const control of row.querySelectorAll('.control'))
      expect(control.getBoundingClientRect().right).toBeLessThanOrEqual(375);

    await page.viewport(1280, 800);
    await vi.waitFor(() => expect(getComputedStyle(row).display).toBe('table-row'));
    expect(getComputedStyle(row.querySelector('.cell-label')!).display).toBe('none');
    expect(message.getBoundingClientRect().width).toBeLessThanOrEqual(1);
  });

  it('narrows a table to the rows that need attention', async () => {
    const lines = Array.from({ length: 80 }, (_, index) => ({
      description: `Item ${index + 1}`,
      quantity: index % 7,
      unit: 'pcs',
    }));
    const { element, run, provide } = await mountOrder({ ...order, line_items: lines });
    const broken = lines.map((line, index) =>
      index === 10 || index === 70 ? { ...line, quantity: 'some' } : line,
    );
    await provide({ run: holding(run, { ...order, line_items: broken }) });
    expect($(element, '.table-problem-count').textContent?.trim()).toBe('2 rows need attention.');
    const filter = $(element, '[part~="filter-button"]');
    expect(filter.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(filter);
    expect(filter.getAttribute('aria-pressed')).toBe('true');
    const numbers = () =>
      $$(element, 'tbody .row-number').map((th) => th.textContent?.replace(/\D/g, ''));
    expect(numbers()).toEqual(['11', '71']);
    expect($(element, '[part~="table"]').getAttribute('aria-rowcount')).toBe('3');
    // Fixed rows stay until the filter is turned off, so the row being typed in stays put.
    const quantity = $<HTMLInputElement>(element, '[data-row="10"][data-column="1"] input');
    await userEvent.fill(quantity, '4');
    expect(numbers()).toEqual(['11', '71']);
    expect($(element, '.table-problem-count').textContent?.trim()).toBe('1 row needs attention.');
    await userEvent.click(filter);
    expect($(element, '[part~="table"]').getAttribute('aria-rowcount')).toBe('81');
    expect(numbers()[0]).toBe('1');
  });

  it('lines numbers up at the end of their column, text at the start', async () => {
    await page.viewport(1280, 800);
    const { element } = await mountOrder();
    const alignOf = (node: Element) => getComputedStyle(node).textAlign;
    const [, description, quantity] = $$(element, '.records thead th');
    expect(alignOf(description!)).toBe('start');
    expect(alignOf(quantity!)).toBe('end');
    expect(alignOf($(element, '[data-row="0"][data-column="0"] input'))).not.toBe('end');
    expect(alignOf($(element, '[data-row="0"][data-column="1"] input'))).toBe('end');
  });

  it('adds and removes plain values and groups in lists', async () => {
    const { element } = await mountOrder();
    await userEvent.click(
      $$(element, '[part~="add-item-button"]').find((button) =>
        button.textContent?.includes('Add tags'),
      )!,
    );
    expect($$(element, '[aria-label^="Tags "]')).toHaveLength(3);
    await userEvent.click($(element, '[aria-label="Remove Tags 1"]'));
    expect(
      $$<HTMLInputElement>(element, '[aria-label^="Tags "]').map((input) => input.value),
    ).toEqual(['priority', '']);
    await userEvent.click(
      $$(element, '[part~="add-item-button"]').find((button) =>
        button.textContent?.includes('Add shipments'),
      )!,
    );
    expect($$(element, '[part~="list-item"]')).toHaveLength(2);
  });

  it('downloads the saved results when the extractor allows it, and offers nothing when not', async () => {
    const { element } = await mountOrder();
    expect(
      $$(element, '[part~="download-button"]').map((button) => button.textContent?.trim()),
    ).toEqual(['JSON', 'XML', 'CSV']);
    await typeInto(field(element, 'Total'), '99');
    const blobs: Blob[] = [];
    const create = URL.createObjectURL.bind(URL);
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return create(blob);
    });
    await userEvent.click($(element, '[aria-label="Download as JSON"]'));
    await vi.waitFor(() => expect(blobs).toHaveLength(1));
    expect(recordOf(await blobs[0]!.text())).toMatchObject({ total: 99 });
    await userEvent.click($(element, '[aria-label="Download as CSV"]'));
    await vi.waitFor(() => expect(blobs).toHaveLength(2));
    expect(await blobs[1]!.text()).toContain('Bolts');

    unmountAll();
    const hidden = await mountOrder(order, { allowDownload: false });
    expect($$(hidden.element, '[part~="downloads"]')).toEqual([]);
  });

  it("saves an invalid edit as the person's draft: it is there, still marked, when the view loads again", async () => {
    const { element, client, run } = await mountOrder();
    const changed = nextEvent(element, 'extractor-results-changed');
    await typeInto(field(element, 'Total'), 'abc');
    await changed;
    await vi.waitFor(() =>
      expect($(element, '.save-status').textContent?.trim()).toBe(
        'All changes saved as your draft. 1 value needs attention before you submit.',
      ),
    );
    const stored = await client.getRun(run.id);
    // Kept apart from the record, which stays what the schema accepts.
    const drafts = JSON.parse(stored.draftResultJson!) as { documents: { data: unknown }[] };
    expect(drafts.documents[0]!.data).toMatchObject({ total: 'abc', order_number: 'PO-1' });
    expect(recordOf(stored.data)).toEqual(recordOf(run.data));

    unmountAll();
    const again = await mountView('extractor-results-view', { client, run: stored });
    const total = field(again.element, 'Total') as HTMLInputElement;
    expect(total.value).toBe('abc');
    expect(total.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(again.element, total)).toBe('Enter a number, such as 1,234.56.');
  });

  it('says plainly when nothing was found, offers another file or typing, and asks before submitting an empty record', async () => {
    // A schema that lets every value be missing: an empty record is valid, and still suspect.
    const receiptSchema = JSON.stringify({
      type: 'object',
      properties: {
        shop: { type: ['string', 'null'], title: 'Shop' },
        total: { type: ['number', 'null'], title: 'Total' },
        items: {
          type: 'array',
          title: 'Items',
          items: { type: 'object', properties: { name: { type: ['string', 'null'] } } },
        },
      },
    });
    const partly = await mountOrder(
      { shop: null, total: 3, items: [] },
      { jsonSchema: receiptSchema },
    );
    // Some value found: not "nothing found".
    expect($$(partly.element, '[part~="nothing-found"]')).toEqual([]);
    unmountAll();

    const { element, events, client, run } = await mountOrder(
      { shop: null, total: null, items: [] },
      { jsonSchema: receiptSchema },
    );
    const note = $(element, '[part~="nothing-found"]');
    expect(note.textContent).toMatch(/Nothing was found in “invoice.txt”\./);
    const steps = nextEvent(element, 'extractor-step-requested');
    await userEvent.click($(element, '[part~="upload-another-button"]'));
    expect((await steps).detail.step).toBe('bucket');
    await userEvent.click($(element, '[part~="enter-by-hand-button"]'));
    expect(element.shadowRoot!.activeElement).toBe(field(element, 'Shop'));

    // Submit asks first, naming the empty record; nothing is sent until asked again.
    await userEvent.click($(element, '[part~="submit-button"]'));
    const warning = $(element, '[part~="empty-warning"]');
    expect(warning.textContent).toMatch(/Nothing was found or entered for “invoice.txt”/);
    expect(element.shadowRoot!.activeElement).toBe(warning);
    expect($(element, '[part~="submit-button"]').textContent?.trim()).toBe('Submit anyway');
    expect(events.some((event) => event.type === 'extractor-submit-requested')).toBe(false);
    expect((await client.getRun(run.id)).submittedAt).toBeNull();
    const submitted = nextEvent(element, 'extractor-results-submitted');
    await userEvent.click($(element, '[part~="submit-button"]'));
    await submitted;
    expect((await client.getRun(run.id)).submittedAt).not.toBeNull();
    // Done: no longer "nothing found" with offers to do more.
    expect($$(element, '[part~="nothing-found"]')).toEqual([]);
  });

  it('does not submit while values need attention', async () => {
    const { element, events } = await mountOrder();
    await typeInto(field(element, 'Total'), 'lots');
    await userEvent.click($(element, '[part~="submit-button"]'));
    expect($(element, '[role="alert"]').textContent).toMatch(/need your attention/);
    expect(element.shadowRoot!.activeElement).toBe(field(element, 'Total'));
    expect(events.some((event) => event.type === 'extractor-submit-requested')).toBe(false);
  });

  it('lets a host take the submit over, or saves, submits and shows that it is done', async () => {
    const { element, client, run } = await mountOrder();
    const veto = (event: Event) => event.preventDefault();
    element.addEventListener('extractor-submit-requested', veto, { once: true });
    await userEvent.click($(element, '[part~="submit-button"]'));
    expect((await client.getRun(run.id)).submittedAt).toBeNull();

    await typeInto(field(element, 'Order number'), 'PO-2');
    const requested = nextEvent(element, 'extractor-submit-requested');
    const submitted = nextEvent(element, 'extractor-results-submitted');
    await userEvent.click($(element, '[part~="submit-button"]'));
    expect((await requested).detail.data.documents[0]!.data).toMatchObject({
      order_number: 'PO-2',
    });
    const { detail } = await submitted;
    // The heading says it is done, and focus is on it (so it is on screen and read out).
    const heading = $(element, '[part~="heading"]');
    expect(heading.textContent?.trim()).toBe('Your results have been submitted');
    expect(element.shadowRoot!.activeElement).toBe(heading);
    expect($$(element, '[part~="back-button"]')).toEqual([]);
    expect(detail.submission.run).toContain(run.id);
    expect(detail.run.submittedAt).not.toBeNull();
    const stored = await client.getRun(run.id);
    expect(stored.submittedAt).not.toBeNull();
    expect(recordOf(stored.data)).toMatchObject({ order_number: 'PO-2' });

    const mounted = await mountView('extractor-results-view', { client, run: detail.run });
    expect(mounted.element.shadowRoot!.querySelector('.message.success')?.textContent).toMatch(
      /Submitted/,
    );
    expect($$(mounted.element, '[part~="submit-button"]')).toEqual([]);
    expect(
      $$<HTMLInputElement>(mounted.element, 'input.control').every((input) => input.readOnly),
    ).toBe(true);
  });

  it('stays fast with 5,000 rows: renders a window of them and moves through all', async () => {
    const lines = Array.from({ length: 5000 }, (_, index) => ({
      description: `Item ${index + 1}`,
      quantity: index % 7,
      unit: 'pcs',
    }));
    const session = await completedRun({ jsonSchema: JSON.stringify(orderSchema) });
    const run = await session.client.saveDocumentResults(
      session.run.id,
      documentFileId(session.run),
      { ...order, line_items: lines },
    );
    const started = performance.now();
    const { element } = await mountView('extractor-results-view', {
      client: session.client,
      extractor: session.extractor,
      run,
    });
    await new Promise(requestAnimationFrame);
    const renderMs = performance.now() - started;
    expect(renderMs).toBeLessThan(1500);
    expect($(element, '[part~="table"]').getAttribute('aria-rowcount')).toBe('5001');
    expect(rowCount(element)).toBeLessThan(80);

    const typingStarted = performance.now();
    const first = $<HTMLInputElement>(element, '[data-row="0"][data-column="1"] input');
    await userEvent.fill(first, '12');
    await element.updateComplete;
    expect(performance.now() - typingStarted).toBeLessThan(500);

    const scroller = $(element, '[part~="table-scroller"]');
    scroller.scrollTop = scroller.scrollHeight;
    await vi.waitFor(() =>
      expect($$(element, 'tbody .row-number').at(-1)?.textContent?.replace(/\D/g, '')).toBe('5000'),
    );
    expect(rowCount(element)).toBeLessThan(80);

    scroller.scrollTop = 0;
    await vi.waitFor(() =>
      expect($$(element, 'tbody .row-number')[0]?.textContent?.replace(/\D/g, '')).toBe('1'),
    );
    $(element, '[role="gridcell"][data-row="0"][data-column="0"]').focus();
    const focusedRow = () => element.shadowRoot!.activeElement?.getAttribute('data-row');
    for (let step = 1; step <= 40; step++) {
      await userEvent.keyboard('{ArrowDown}');
      await vi.waitFor(() => expect(focusedRow()).toBe(String(step)));
    }
    // Row 41 lies beyond the first window: moving there scrolled it into view.
    expect(scroller.scrollTop).toBeGreaterThan(0);
  });
});
