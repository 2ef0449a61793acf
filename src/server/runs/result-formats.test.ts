import fc from 'fast-check';
// saxes is a strict, non-validating XML 1.0 parser (with namespaces); it comes with exceljs.
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../formats/csv.js';
import {
  formatResults,
  resultContentTypes,
  resultsContentDisposition,
  resultsFileName,
  resultsToCsv,
  resultsToJson,
  resultsToXml,
  xmlElementName,
} from './result-formats.js';

const xsi = 'http://www.w3.org/2001/XMLSchema-instance';

interface XmlNode {
  name: string;
  attributes: Record<string, { value: string; uri: string }>;
  children: XmlNode[];
  text: string;
}

/** Parses strictly: any well-formedness or namespace error fails the test. */
function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true });
  const errors: string[] = [];
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  let declaredEncoding: string | undefined;
  parser.on('error', (error) => errors.push(error.message));
  parser.on('xmldecl', (declaration) => (declaredEncoding = declaration.encoding));
  parser.on('opentag', (tag) => {
    const node: XmlNode = {
      name: tag.name,
      attributes: { ...tag.attributes },
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(node);
    stack.push(node);
    root ??= node;
  });
  parser.on('text', (text) => {
    const top = stack.at(-1);
    if (top) top.text += text;
  });
  parser.on('closetag', () => stack.pop());
  parser.write(xml).close();
  if (errors.length > 0) throw new Error(`not well-formed: ${errors.join('; ')}`);
  expect(declaredEncoding).toBe('UTF-8');
  return root!;
}

const child = (node: XmlNode, name: string) => node.children.filter((entry) => entry.name === name);
const isNil = (node: XmlNode) =>
  node.attributes['xsi:nil']?.value === 'true' && node.attributes['xsi:nil'].uri === xsi;
/** The property name an element stands for: its `key` attribute when it had to be renamed. */
const keyOf = (node: XmlNode) => node.attributes.key?.value ?? node.name;

/** A string with every character outside XML 1.0's `Char` production turned into U+FFFD. */
function asXmlCarriesIt(text: string): string {
  return Array.from(text, (char) => {
    const code = char.codePointAt(0)!;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    return allowed ? char : '\uFFFD';
  }).join('');
}

function csvRecords(csv: string): Record<string, string>[] {
  const rows = parseCsv(csv);
  if (!rows) throw new Error('CSV does not parse');
  const [header = [], ...body] = rows;
  for (const row of body) expect(row).toHaveLength(header.length);
  return body.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]!])));
}

const invoice = {
  invoice_number: 'INV-2024-001',
  date: '2024-03-01',
  vendor: { name: 'Müller & Söhne GmbH', address: { city: 'Köln' } },
  line_items: [
    { description: 'Widget, large', quantity: 2, amount: 19.5, tags: ['blue', 'boxed'] },
    { description: 'Delivery "express"', quantity: 1, amount: 5 },
  ],
  total: 44,
  paid: false,
  notes: null,
};

describe('results as JSON', () => {
  it('are the same value, indented for people', () => {
    const json = resultsToJson(invoice);
    expect(JSON.parse(json)).toEqual(invoice);
    expect(json).toContain('\n  "invoice_number": "INV-2024-001"');
  });
});

describe('results as XML', () => {
  it('put properties in elements, lists as repeated elements and null as xsi:nil', () => {
    const root = parseXml(resultsToXml(invoice));

    expect(root.name).toBe('results');
    expect(child(root, 'invoice_number')[0]!.text).toBe('INV-2024-001');
    expect(child(child(child(root, 'vendor')[0]!, 'address')[0]!, 'city')[0]!.text).toBe('Köln');
    const items = child(root, 'line_items');
    expect(items.map((item) => child(item, 'description')[0]!.text)).toEqual([
      'Widget, large',
      'Delivery "express"',
    ]);
    expect(child(items[0]!, 'tags').map((tag) => tag.text)).toEqual(['blue', 'boxed']);
    expect(child(root, 'total')[0]!.text).toBe('44');
    expect(child(root, 'paid')[0]!.text).toBe('false');
    expect(isNil(child(root, 'notes')[0]!)).toBe(true);
    expect(root.children.map(keyOf)).toEqual([
      'invoice_number',
      'date',
      'vendor',
      'line_items',
      'line_items',
      'total',
      'paid',
      'notes',
    ]);
  });

  it('make odd property names valid and keep the original in a key attribute', () => {
    const keys = [
      '1st',
      'a b',
      '<x>',
      'größe',
      '日付',
      '',
      'xmlData',
      'XML',
      'a:b',
      '-x',
      '.dot',
      '😀',
      'tab\there',
      'q"&',
    ];
    const root = parseXml(resultsToXml(Object.fromEntries(keys.map((key, index) => [key, index]))));

    expect(root.children.map(keyOf)).toEqual(keys);
    expect(root.children.map((node) => node.text)).toEqual(keys.map((_, index) => String(index)));
    const named = Object.fromEntries(root.children.map((node) => [keyOf(node), node]));
    expect(named['größe']!.name).toBe('größe');
    expect(named['größe']!.attributes.key).toBeUndefined();
    expect(named['日付']!.name).toBe('日付');
    expect(named['1st']!.name).toBe('_1st');
    expect(named['a b']!.name).toBe('a_b');
    expect(named['']!.name).toBe('_');
    expect(named['xmlData']!.name).toBe('_xmlData');
    expect(named['a:b']!.name).toBe('a_b');
    expect(xmlElementName('<x>')).toBe('_x_');
  });

  it('escape text and replace the characters XML 1.0 forbids', () => {
    const text = 'a & b < c > d ]]> "e" \'f\'';
    const root = parseXml(
      resultsToXml({
        text,
        lines: 'one\r\ntwo\nthree',
        control: 'bell\u0007 nul\u0000 tab\t',
        surrogates: 'lone \uD800 pair 😀',
        markup: '<script>alert(1)</script>',
      }),
    );

    expect(child(root, 'text')[0]!.text).toBe(text);
    expect(child(root, 'lines')[0]!.text).toBe('one\r\ntwo\nthree');
    expect(child(root, 'control')[0]!.text).toBe('bell\uFFFD nul\uFFFD tab\t');
    expect(child(root, 'surrogates')[0]!.text).toBe('lone \uFFFD pair 😀');
    expect(child(root, 'markup')[0]!.text).toBe('<script>alert(1)</script>');
    expect(child(root, 'markup')[0]!.children).toEqual([]);
  });

  it('handle lists of lists, a list at the top, a lone value and no value', () => {
    const nested = parseXml(resultsToXml({ matrix: [[1, 2], [3], []] }));
    expect(
      child(nested, 'matrix').map((row) => child(row, 'item').map((cell) => cell.text)),
    ).toEqual([['1', '2'], ['3'], []]);
    const list = parseXml(resultsToXml([{ a: 1 }, { a: 2 }]));
    expect(child(list, 'item').map((item) => child(item, 'a')[0]!.text)).toEqual(['1', '2']);
    expect(parseXml(resultsToXml('just text')).text).toBe('just text');
    expect(isNil(parseXml(resultsToXml(null)))).toBe(true);
  });

  it('stay well-formed for deep nesting, writing what is too deep as JSON text', () => {
    for (const levels of [1000, 20_000]) {
      let deep: unknown = { leaf: 'bottom' };
      for (let level = 0; level < levels; level++) deep = level % 2 ? { level: deep } : [deep];
      let node = parseXml(resultsToXml({ deep }));
      let depth = 0;
      while (node.children.length > 0) {
        node = node.children[0]!;
        depth++;
      }
      expect(depth).toBeLessThan(200);
      expect(node.text).toContain(levels === 1000 ? '"leaf":"bottom"' : 'nested too deeply');
    }
  });

  it('are well-formed for any JSON value, and every property name can be read back', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' })),
        (value) => {
          const root = parseXml(resultsToXml(value));
          const keys = Object.keys(value).filter(
            (key) => !(Array.isArray(value[key]) && (value[key] as unknown[]).length === 0),
          );
          const readBack = [...new Set(root.children.map(keyOf))];
          expect(readBack).toEqual([...new Set(keys.map(asXmlCarriesIt))]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('results as CSV', () => {
  it('give one row per line item with the other fields repeated and nested objects as dotted columns', () => {
    const csv = resultsToCsv(invoice);
    const rows = parseCsv(csv)!;

    expect(rows[0]).toEqual([
      'invoice_number',
      'date',
      'vendor.name',
      'vendor.address.city',
      'line_items.description',
      'line_items.quantity',
      'line_items.amount',
      'line_items.tags',
      'total',
      'paid',
      'notes',
    ]);
    expect(csvRecords(csv)).toEqual([
      {
        invoice_number: 'INV-2024-001',
        date: '2024-03-01',
        'vendor.name': 'Müller & Söhne GmbH',
        'vendor.address.city': 'Köln',
        'line_items.description': 'Widget, large',
        'line_items.quantity': '2',
        'line_items.amount': '19.5',
        'line_items.tags': 'blue; boxed',
        total: '44',
        paid: 'false',
        notes: '',
      },
      {
        invoice_number: 'INV-2024-001',
        date: '2024-03-01',
        'vendor.name': 'Müller & Söhne GmbH',
        'vendor.address.city': 'Köln',
        'line_items.description': 'Delivery "express"',
        'line_items.quantity': '1',
        'line_items.amount': '5',
        'line_items.tags': '',
        total: '44',
        paid: 'false',
        notes: '',
      },
    ]);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('give one row when there are no items', () => {
    expect(csvRecords(resultsToCsv({ invoice_number: 'A-1', line_items: [] }))).toEqual([
      { invoice_number: 'A-1', line_items: '' },
    ]);
    expect(csvRecords(resultsToCsv({ invoice_number: 'A-1', tags: ['x', 'y'] }))).toEqual([
      { invoice_number: 'A-1', tags: 'x; y' },
    ]);
  });

  it('split rows on the shallowest list of objects and number the items of the others', () => {
    const csv = resultsToCsv({
      id: 7,
      lines: [{ sku: 'a' }, { sku: 'b', note: 'late' }],
      meta: { taxes: [{ rate: 19 }, { rate: 7 }] },
      matrix: [[1, 2], [3]],
    });
    const shared = {
      'meta.taxes.1.rate': '19',
      'meta.taxes.2.rate': '7',
      'matrix.1': '1; 2',
      'matrix.2': '3',
    };
    expect(parseCsv(csv)![0]).toEqual(['id', 'lines.sku', 'lines.note', ...Object.keys(shared)]);
    expect(csvRecords(csv)).toEqual([
      { id: '7', 'lines.sku': 'a', 'lines.note': '', ...shared },
      { id: '7', 'lines.sku': 'b', 'lines.note': 'late', ...shared },
    ]);
    // Looked for level by level: a list that comes first but sits deeper loses.
    const records = csvRecords(
      resultsToCsv({ a: { deep: [{ x: 1 }] }, top: [{ y: 1 }, { y: 2 }] }),
    );
    expect(records.map((record) => record['top.y'])).toEqual(['1', '2']);
    expect(records[0]!['a.deep.1.x']).toBe('1');
  });

  it('neutralise cells that a spreadsheet would run as formulas', () => {
    const dangerous = [
      '=HYPERLINK("http://evil.example","click")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\tcmd',
      '\rcmd',
    ];
    const records = csvRecords(resultsToCsv({ cells: dangerous.map((value) => ({ value })) }));
    expect(records.map((record) => record['cells.value'])).toEqual(
      dangerous.map((value) => `'${value}`),
    );
    // A header is a cell too.
    expect(parseCsv(resultsToCsv({ '=cmd': 1 }))![0]).toEqual(["'=cmd"]);
  });

  it('keep odd property names as column names and tell apart names that dot alike', () => {
    const csv = resultsToCsv({
      '1st': 1,
      'a b': 2,
      '<x>': 3,
      'größe, "Zoll"': 4,
      日付: 5,
      a: { b: 6 },
      'a.b': 7,
    });
    expect(csvRecords(csv)).toEqual([
      {
        '1st': '1',
        'a b': '2',
        '<x>': '3',
        'größe, "Zoll"': '4',
        日付: '5',
        'a.b': '6',
        'a.b (2)': '7',
      },
    ]);
  });

  it('handle lists at the top, lone values and deep nesting', () => {
    expect(csvRecords(resultsToCsv([{ a: 1 }, { b: 2 }]))).toEqual([
      { a: '1', b: '' },
      { a: '', b: '2' },
    ]);
    expect(csvRecords(resultsToCsv('text'))).toEqual([{ value: 'text' }]);
    for (const levels of [1000, 20_000]) {
      let deep: unknown = { leaf: 'bottom' };
      for (let level = 0; level < levels; level++) deep = { level: deep };
      const [record] = csvRecords(resultsToCsv({ deep }));
      const [column, cell] = Object.entries(record!)[0]!;
      expect(column.split('.').length).toBeLessThan(100);
      expect(cell).toContain(levels === 1000 ? '"leaf":"bottom"' : 'nested too deeply');
    }
  });

  it('parse back into the same number of cells per row for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const rows = parseCsv(resultsToCsv(value));
        expect(rows).toBeDefined();
        const [header = [], ...body] = rows!;
        for (const row of body) expect(row).toHaveLength(header.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('downloads', () => {
  const runId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

  it('are named after the extractor and the end of the run id', () => {
    expect(resultsFileName('Invoice', runId, 'xml')).toBe('invoice-2e3f4a5b.xml');
    expect(resultsFileName('Rechnungen – Müller & Söhne', runId, 'csv')).toBe(
      'rechnungen-muller-sohne-2e3f4a5b.csv',
    );
    expect(resultsFileName('../../etc/passwd', runId, 'json')).toBe('etc-passwd-2e3f4a5b.json');
    expect(resultsFileName('請求書', runId, 'json')).toBe('results-2e3f4a5b.json');
  });

  it('say the name to every browser, in UTF-8 where the label needs it', () => {
    expect(resultsContentDisposition('Invoice', runId, 'csv')).toBe(
      'attachment; filename="invoice-2e3f4a5b.csv"',
    );
    expect(resultsContentDisposition('請求書', runId, 'csv')).toBe(
      `attachment; filename="results-2e3f4a5b.csv"; filename*=UTF-8''${encodeURIComponent('請求書-2e3f4a5b.csv')}`,
    );
    expect(() => resultsContentDisposition('😀'.repeat(70), runId, 'xml')).not.toThrow();
  });

  it('come with a content type for each format', () => {
    expect(resultContentTypes).toEqual({
      json: 'application/json; charset=utf-8',
      xml: 'application/xml; charset=utf-8',
      csv: 'text/csv; charset=utf-8; header=present',
    });
    expect(formatResults(invoice, 'csv')).toBe(resultsToCsv(invoice));
  });
});
