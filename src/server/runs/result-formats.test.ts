import fc from 'fast-check';
// saxes is a strict, non-validating XML 1.0 parser (with namespaces); it comes with exceljs.
import { parse } from 'csv-parse/sync';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import type { DocumentResult, RunResults } from '../../contract/resources.js';
import { parseCsv } from '../formats/csv.js';
import { readCsvResults, readXmlResults, type FieldSchema } from '../testing/results-readers.js';
import {
  formatResults,
  resultContentTypes,
  resultsDownloadName,
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

function csvRecords(csv: string): Record<string, string>[] {
  const rows = parseCsv(csv);
  if (!rows) throw new Error('CSV does not parse');
  const [header = [], ...body] = rows;
  for (const row of body) expect(row).toHaveLength(header.length);
  return body.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]!])));
}

const fileIri = '/api/buckets/b1/files/f1';

/** The results of a one-file bucket whose document completed with `data`. */
function oneDocument(data: unknown): RunResults {
  return {
    documents: [{ file: fileIri, name: 'invoice.pdf', status: 'completed', data, error: null }],
  };
}

/** The `<data>` elements of the first document of an XML download. */
function dataElements(xml: string): XmlNode[] {
  const root = parseXml(xml);
  expect(root.name).toBe('results');
  const [document] = child(root, 'document');
  expect(document!.attributes.file!.value).toBe(fileIri);
  return child(document!, 'data');
}

/** The `<data>` element of a one-document XML download. */
const dataElement = (xml: string): XmlNode => dataElements(xml)[0]!;

/** The CSV's header after the document's own columns, which come first. */
function fieldHeader(csv: string): string[] {
  const header = parseCsv(csv)![0]!;
  expect(header.slice(0, 4)).toEqual(['file', 'name', 'status', 'error']);
  return header.slice(4);
}

/** The CSV's records without the document's own columns (which are checked). */
function fieldRecords(csv: string): Record<string, string>[] {
  return csvRecords(csv).map(({ file, name, status, error, ...fields }) => {
    expect({ file, name, status, error }).toEqual({
      file: fileIri,
      name: 'invoice.pdf',
      status: 'completed',
      error: '',
    });
    return fields;
  });
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
    const json = resultsToJson(oneDocument(invoice));
    expect(JSON.parse(json)).toEqual(oneDocument(invoice));
    expect(json).toContain('\n  "documents": [\n    {\n      "file": "/api/buckets/b1/files/f1"');
    expect(json).toContain('\n        "invoice_number": "INV-2024-001"');
  });
});

describe('results as XML', () => {
  it('put properties in elements, lists as repeated elements and null as xsi:nil', () => {
    const root = dataElement(resultsToXml(oneDocument(invoice)));

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
    const root = dataElement(
      resultsToXml(oneDocument(Object.fromEntries(keys.map((key, index) => [key, index])))),
    );

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
    // Names a JavaScript parser would refuse or rename (fast-xml-parser throws on these).
    expect(['constructor', '__proto__', 'valueOf'].map(xmlElementName)).toEqual([
      '_constructor',
      '___proto__',
      '_valueOf',
    ]);
  });

  it('escape text, and write text XML 1.0 cannot hold as a JSON literal marked escaped', () => {
    const text = 'a & b < c > d ]]> "e" \'f\'';
    const root = dataElement(
      resultsToXml(
        oneDocument({
          text,
          lines: 'one\r\ntwo\nthree',
          control: 'bell\u0007 nul\u0000 tab\t',
          surrogates: 'lone \uD800 pair 😀',
          noncharacter: 'end\uFFFF',
          markup: '<script>alert(1)</script>',
          'key\u0001': 'x',
        }),
      ),
    );

    const [plain, lines, control, surrogates, noncharacter, markup, oddKey] = root.children;
    expect(plain!.text).toBe(text);
    expect(lines!.text).toBe('one\r\ntwo\nthree');
    for (const node of [plain!, lines!, markup!]) expect(node.attributes.escaped).toBeUndefined();
    expect(control!.attributes.escaped!.value).toBe('content');
    expect(control!.text).toBe('"bell\\u0007 nul\\u0000 tab\\t"');
    expect(JSON.parse(control!.text)).toBe('bell\u0007 nul\u0000 tab\t');
    expect(JSON.parse(surrogates!.text)).toBe('lone \uD800 pair 😀');
    expect(noncharacter!.text).toBe('"end\\uffff"');
    expect(markup!.text).toBe('<script>alert(1)</script>');
    expect(markup!.children).toEqual([]);
    expect(oddKey!.attributes.escaped!.value).toBe('key');
    expect(JSON.parse(oddKey!.attributes.key!.value)).toBe('key\u0001');
    // A file name is an attribute and is carried the same way.
    const document = child(
      parseXml(
        resultsToXml({
          documents: [
            { file: fileIri, name: 'bad\u001Fname.pdf', status: 'completed', data: 1, error: null },
          ],
        }),
      ),
      'document',
    )[0]!;
    expect(document.attributes.escaped!.value).toBe('name');
    expect(JSON.parse(document.attributes.name!.value)).toBe('bad\u001Fname.pdf');
  });
});

describe('results as XML: odd shapes', () => {
  it('handle lists of lists, empty lists, a list at the top, a lone value and no value', () => {
    const nested = dataElement(resultsToXml(oneDocument({ matrix: [[1, 2], [3], []] })));
    expect(
      child(nested, 'matrix').map((row) => child(row, 'item').map((cell) => cell.text)),
    ).toEqual([['1', '2'], ['3'], []]);
    // An empty list is one element that stands for no item; an empty list in a list is an
    // item without <item>s.
    const empty = dataElement(resultsToXml(oneDocument({ tags: [], matrix: [[]] })));
    expect(child(empty, 'tags').map((node) => node.attributes.items?.value)).toEqual(['0']);
    const [inner] = child(empty, 'matrix');
    expect([inner!.attributes.items, inner!.children]).toEqual([undefined, []]);
    // A list in a list in a list keeps its levels.
    const deeper = child(dataElement(resultsToXml(oneDocument({ cube: [[[1, 2]]] }))), 'cube');
    expect(
      deeper.map((node) => child(node, 'item').map((item) => child(item, 'item').length)),
    ).toEqual([[2]]);
    // A list as the whole record repeats <data>, as any list repeats its property's element.
    const list = dataElements(resultsToXml(oneDocument([{ a: 1 }, { a: 2 }])));
    expect(list.map((item) => child(item, 'a')[0]!.text)).toEqual(['1', '2']);
    expect(dataElement(resultsToXml(oneDocument('just text'))).text).toBe('just text');
    expect(isNil(dataElement(resultsToXml(oneDocument(null))))).toBe(true);
  });

  it('stay well-formed for deep nesting, writing what is too deep as JSON text', () => {
    for (const levels of [1000, 20_000]) {
      let deep: unknown = { leaf: 'bottom' };
      for (let level = 0; level < levels; level++) deep = level % 2 ? { level: deep } : [deep];
      let node = dataElement(resultsToXml(oneDocument({ deep })));
      let depth = 0;
      while (node.children.length > 0) {
        node = node.children[0]!;
        depth++;
      }
      expect(depth).toBeLessThan(200);
      expect(node.text).toContain(levels === 1000 ? '"leaf":"bottom"' : 'nested too deeply');
    }
  });

  it('are well-formed for any JSON value, and fast-xml-parser reads back exactly that value', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' })),
        fc.string({ unit: 'binary' }),
        (value, name) => {
          // Results are stored as JSON text, which has no -0: read as the service holds them.
          const results = JSON.parse(
            JSON.stringify({
              documents: [
                { file: fileIri, name, status: 'completed', data: value, error: null },
                { file: fileIri, name: 'b.pdf', status: 'failed', data: null, error: name },
              ],
            }),
          ) as RunResults;
          const xml = resultsToXml(results);
          parseXml(xml);
          expect(readXmlResults(xml, results)).toEqual(results);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('results as CSV', () => {
  it('give one row per line item with the other fields repeated and nested objects as dotted columns', () => {
    const csv = resultsToCsv(oneDocument(invoice));
    expect(fieldHeader(csv)).toEqual([
      'invoice_number',
      'date',
      'vendor.name',
      'vendor.address.city',
      'line_items.#',
      'line_items.description',
      'line_items.quantity',
      'line_items.amount',
      'line_items.tags',
      'total',
      'paid',
      'notes',
    ]);
    expect(fieldRecords(csv)).toEqual([
      {
        invoice_number: 'INV-2024-001',
        date: '2024-03-01',
        'vendor.name': 'Müller & Söhne GmbH',
        'vendor.address.city': 'Köln',
        'line_items.#': '1',
        'line_items.description': 'Widget, large',
        'line_items.quantity': '2',
        'line_items.amount': '19.5',
        'line_items.tags': '["blue","boxed"]',
        total: '44',
        paid: 'false',
        notes: '',
      },
      {
        invoice_number: 'INV-2024-001',
        date: '2024-03-01',
        'vendor.name': 'Müller & Söhne GmbH',
        'vendor.address.city': 'Köln',
        'line_items.#': '2',
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

  it('give one row when there are no items, and lists as JSON array text', () => {
    expect(
      fieldRecords(resultsToCsv(oneDocument({ invoice_number: 'A-1', line_items: [] }))),
    ).toEqual([{ invoice_number: 'A-1', line_items: '[]' }]);
    expect(
      fieldRecords(resultsToCsv(oneDocument({ invoice_number: 'A-1', tags: ['x', 'y; z'] }))),
    ).toEqual([{ invoice_number: 'A-1', tags: '["x","y; z"]' }]);
  });

  it('write null as an empty field and empty text as a quoted one', () => {
    const csv = resultsToCsv(oneDocument({ a: null, b: '', c: 'x' }));
    expect(csv.split('\r\n')[1]).toBe(`${fileIri},invoice.pdf,completed,,,"",x`);
    const [record] = parse(csv, {
      columns: true,
      cast: (value, context) => (context.quoting || value !== '' ? value : null),
    }) as Record<string, unknown>[];
    expect(record).toMatchObject({ error: null, a: null, b: '', c: 'x' });
  });

  it('split rows on the shallowest list of objects, numbered, and write the other lists as JSON', () => {
    const csv = resultsToCsv(
      oneDocument({
        id: 7,
        lines: [{ sku: 'a' }, { sku: 'b', note: 'late' }],
        meta: { taxes: [{ rate: 19 }, { rate: 7 }] },
        matrix: [[1, 2], [3]],
      }),
    );
    const shared = { 'meta.taxes': '[{"rate":19},{"rate":7}]', matrix: '[[1,2],[3]]' };
    expect(fieldHeader(csv)).toEqual([
      'id',
      'lines.#',
      'lines.sku',
      'lines.note',
      ...Object.keys(shared),
    ]);
    expect(fieldRecords(csv)).toEqual([
      { id: '7', 'lines.#': '1', 'lines.sku': 'a', 'lines.note': '', ...shared },
      { id: '7', 'lines.#': '2', 'lines.sku': 'b', 'lines.note': 'late', ...shared },
    ]);
    // Looked for level by level: a list that comes first but sits deeper loses.
    const records = fieldRecords(
      resultsToCsv(oneDocument({ a: { deep: [{ x: 1 }] }, top: [{ y: 1 }, { y: 2 }] })),
    );
    expect(records.map((record) => record['top.y'])).toEqual(['1', '2']);
    expect(records[0]!['a.deep']).toBe('[{"x":1}]');
  });
});

describe('results as CSV: odd cells, names and shapes', () => {
  it('neutralise cells that a spreadsheet would run as formulas', () => {
    const dangerous = [
      '=HYPERLINK("http://evil.example","click")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\tcmd',
      '\rcmd',
    ];
    const records = fieldRecords(
      resultsToCsv(oneDocument({ cells: dangerous.map((value) => ({ value })) })),
    );
    expect(records.map((record) => record['cells.value'])).toEqual(
      dangerous.map((value) => `'${value}`),
    );
    // A header is a cell too.
    expect(fieldHeader(resultsToCsv(oneDocument({ '=cmd': 1 })))).toEqual(["'=cmd"]);
  });

  it('keep odd property names as column names and tell apart names that dot alike', () => {
    const csv = resultsToCsv(
      oneDocument({
        '1st': 1,
        'a b': 2,
        '<x>': 3,
        'größe, "Zoll"': 4,
        日付: 5,
        a: { b: 6 },
        'a.b': 7,
      }),
    );
    expect(fieldRecords(csv)).toEqual([
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
    expect(fieldRecords(resultsToCsv(oneDocument([{ a: 1 }, { b: 2 }])))).toEqual([
      { '#': '1', a: '1', b: '' },
      { '#': '2', a: '', b: '2' },
    ]);
    expect(fieldRecords(resultsToCsv(oneDocument('text')))).toEqual([{ value: 'text' }]);
    for (const levels of [1000, 20_000]) {
      let deep: unknown = { leaf: 'bottom' };
      for (let level = 0; level < levels; level++) deep = { level: deep };
      const [record] = fieldRecords(resultsToCsv(oneDocument({ deep })));
      const [column, cell] = Object.entries(record!)[0]!;
      expect(column.split('.').length).toBeLessThan(100);
      expect(cell).toContain(levels === 1000 ? '"leaf":"bottom"' : 'nested too deeply');
    }
  });

  it('parse back into the same number of cells per row for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const rows = parseCsv(resultsToCsv(oneDocument(value)));
        expect(rows).toBeDefined();
        const [header = [], ...body] = rows!;
        for (const row of body) expect(row).toHaveLength(header.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('results read back by other parsers', () => {
  const schema: FieldSchema = {
    type: 'object',
    properties: {
      number: { type: 'string' },
      note: { type: ['string', 'null'] },
      total: { type: ['number', 'null'] },
      paid: { type: 'boolean' },
      tags: { type: ['array', 'null'], items: { type: 'string' } },
      vendor: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          extra: {
            type: 'object',
            properties: {
              deep: { type: 'object', properties: { er: { type: 'array', items: {} } } },
            },
          },
        },
      },
      line_items: {
        type: ['array', 'null'],
        items: {
          type: 'object',
          properties: {
            description: { type: ['string', 'null'] },
            amount: { type: 'number' },
            codes: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      taxes: { type: 'array', items: { type: 'object' } },
    },
  };
  const record = (fields: Record<string, unknown>) => ({
    number: 'A-1',
    note: null,
    total: 10,
    paid: false,
    tags: [],
    vendor: { name: 'Müller', extra: {} },
    line_items: [],
    taxes: [],
    ...fields,
  });
  const results: RunResults = {
    documents: [
      {
        file: '/api/buckets/b1/files/f1',
        name: 'one.pdf',
        status: 'completed',
        error: null,
        data: record({
          note: '',
          tags: ['a; b', 'c'],
          line_items: [
            { description: 'bell\u0007 and \u0000', amount: -2.5, codes: [] },
            { description: '', amount: 0, codes: ['x'] },
            { description: null, amount: 1e21, codes: ['', '"q"'] },
          ],
          taxes: [{ rate: 19 }, {}],
        }),
      },
      {
        file: '/api/buckets/b1/files/f2',
        name: 'two.pdf',
        status: 'completed',
        error: null,
        data: record({
          number: '=SUM(A1)',
          note: "'quoted",
          tags: ['a', 'b', 'c'],
          vendor: { name: '["not","a list"]', extra: { deep: { er: [1, [2]] } } },
          total: null,
        }),
      },
      {
        file: '/api/buckets/b1/files/f3',
        name: 'three.pdf',
        status: 'completed',
        error: null,
        data: record({ tags: null, line_items: null, paid: true, note: 'end\uFFFE\u001F' }),
      },
      {
        file: '/api/buckets/b1/files/f4',
        name: 'scan.png',
        status: 'failed',
        data: null,
        error: '',
      },
    ],
  };

  it('as CSV, through csv-parse and the targetSchema, give back exactly the results', () => {
    const csv = resultsToCsv(results);
    expect(readCsvResults(csv, schema)).toEqual(results);
  });

  it('as XML, through fast-xml-parser, give back exactly the results', () => {
    const xml = resultsToXml(results);
    parseXml(xml);
    expect(readXmlResults(xml, results)).toEqual(results);
  });
});

describe('results of several documents', () => {
  const document = (
    file: string,
    name: string,
    data: unknown,
    error: string | null = null,
  ): DocumentResult => ({
    file: `/api/buckets/b1/files/${file}`,
    name,
    status: data === null ? 'failed' : 'completed',
    data,
    error,
  });
  const results: RunResults = {
    documents: [
      document('f1', 'coolblue.pdf', {
        invoice_number: 'C-1',
        total: 10,
        line_items: [{ description: 'cable' }, { description: 'plug' }],
      }),
      document('f2', 'scan.png', null, 'scan.png is a picture and OCR found no text in it'),
      document('f3', 'amazon.pdf', { invoice_number: 'A-9', total: 4.11, line_items: [] }),
    ],
  };

  it('as XML give each document its element, with its record or its error', () => {
    const root = parseXml(resultsToXml(results));
    const documents = child(root, 'document');
    expect(documents.map((node) => node.attributes.name!.value)).toEqual([
      'coolblue.pdf',
      'scan.png',
      'amazon.pdf',
    ]);
    expect(documents.map((node) => node.attributes.status!.value)).toEqual([
      'completed',
      'failed',
      'completed',
    ]);
    expect(documents[0]!.attributes.file!.value).toBe('/api/buckets/b1/files/f1');
    const number = (node: XmlNode) => child(child(node, 'data')[0]!, 'invoice_number')[0]!.text;
    expect([number(documents[0]!), number(documents[2]!)]).toEqual(['C-1', 'A-9']);
    expect(isNil(child(documents[1]!, 'data')[0]!)).toBe(true);
    expect(child(documents[1]!, 'error')[0]!.text).toBe(
      'scan.png is a picture and OCR found no text in it',
    );
    expect(isNil(child(documents[0]!, 'error')[0]!)).toBe(true);
  });

  it('as XML name every file of a document made of several', () => {
    const combined: RunResults = {
      documents: [
        {
          ...document('f1', 'page-1.png, page-2.png', { total: 3 }),
          files: ['/api/buckets/b1/files/f1', '/api/buckets/b1/files/f2'],
        },
      ],
    };
    const [node] = child(parseXml(resultsToXml(combined)), 'document');
    expect(node!.attributes.files!.value).toBe('/api/buckets/b1/files/f1 /api/buckets/b1/files/f2');
    expect(parseXml(resultsToXml({ documents: [] })).children).toEqual([]);
  });

  it('as CSV give a row per document (per item of its list), the file first, the columns lined up', () => {
    // Read back as a table: the header, then each row lined up under it.
    expect(parseCsv(resultsToCsv(results))).toEqual([
      [
        'file',
        'name',
        'status',
        'error',
        'invoice_number',
        'total',
        'line_items.#',
        'line_items.description',
      ],
      ['/api/buckets/b1/files/f1', 'coolblue.pdf', 'completed', '', 'C-1', '10', '1', 'cable'],
      ['/api/buckets/b1/files/f1', 'coolblue.pdf', 'completed', '', 'C-1', '10', '2', 'plug'],
      [
        '/api/buckets/b1/files/f2',
        'scan.png',
        'failed',
        'scan.png is a picture and OCR found no text in it',
        '',
        '',
        '',
        '',
      ],
      // No items: one row numbered 0, lined up under the first document's columns.
      ['/api/buckets/b1/files/f3', 'amazon.pdf', 'completed', '', 'A-9', '4.11', '0', ''],
    ]);
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

  it('keep the label’s own letters where they are not ASCII, beside the ASCII name', () => {
    expect(resultsDownloadName('Invoice', runId, 'csv')).toEqual({
      name: 'invoice-2e3f4a5b.csv',
      asciiName: 'invoice-2e3f4a5b.csv',
    });
    expect(resultsDownloadName('請求書', runId, 'csv')).toEqual({
      name: '請求書-2e3f4a5b.csv',
      asciiName: 'results-2e3f4a5b.csv',
    });
    // 𝒜 is one letter in two UTF-16 code units: the cut at 60 letters must not halve one.
    expect(resultsDownloadName('𝒜'.repeat(70), runId, 'xml').name).toBe(
      `${'𝒜'.repeat(60)}-2e3f4a5b.xml`,
    );
    expect(resultsDownloadName('😀'.repeat(70), runId, 'xml').name).toBe('results-2e3f4a5b.xml');
  });

  it('come with a content type for each format', () => {
    expect(resultContentTypes).toEqual({
      json: 'application/json; charset=utf-8',
      xml: 'application/xml; charset=utf-8',
      csv: 'text/csv; charset=utf-8; header=present',
    });
    const results = oneDocument(invoice);
    expect(formatResults(results, 'csv')).toBe(resultsToCsv(results));
    expect(formatResults(results, 'xml')).toBe(resultsToXml(results));
    expect(formatResults(results, 'json')).toBe(resultsToJson(results));
  });
});
