/**
 * Readers of the results downloads written with parsers nobody here wrote (fast-xml-parser,
 * csv-parse), following only what docs/api/results.md says of each format, so that a round trip
 * through them proves the formats lose nothing. Like any client, they learn the types of
 * the values (text, number, list) from outside the file: the XML reader from a value of the
 * same shape, the CSV reader from the targetSchema. Lengths, keys and text come from the
 * file alone.
 */
import { parse as parseCsvText } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import type { RunResults } from '../../contract/resources.js';
import { restoreCell } from '../formats/csv.js';

// ---- XML --------------------------------------------------------------------------------

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function elementsOf(nodes: OrderedNode[]): XmlElement[] {
  const elements: XmlElement[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ':@')!;
    if (name === '#text' || name.startsWith('?')) continue;
    const inner = node[name] as OrderedNode[];
    elements.push({
      name,
      attributes: node[':@'] ?? {},
      children: elementsOf(inner),
      text: inner.map((child) => (child['#text'] as string | undefined) ?? '').join(''),
    });
  }
  return elements;
}

/** The `<results>` element as fast-xml-parser reads it, in document order. */
function parseXmlResults(xml: string): XmlElement {
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    // Character references (`&#xD;`) are read only with this on.
    htmlEntities: true,
  });
  const root = elementsOf(parser.parse(xml) as OrderedNode[]).find(
    (element) => element.name === 'results',
  );
  if (!root) throw new Error('no <results> element');
  return root;
}

/** A value docs/api/results.md says is written as a JSON string literal when `escaped` names it. */
function carried(element: XmlElement, part: string, value: string): string {
  const escaped = (element.attributes.escaped ?? '').split(' ');
  return escaped.includes(part) ? (JSON.parse(value) as string) : value;
}

const keyOf = (element: XmlElement) =>
  element.attributes.key === undefined
    ? element.name
    : carried(element, 'key', element.attributes.key);

const isNil = (element: XmlElement) => element.attributes['xsi:nil'] === 'true';

/** The guide of a list's item: the item at the same place, or else the first. */
const itemGuide = (guide: unknown[], index: number): unknown => guide[index] ?? guide[0];

function readXmlValue(element: XmlElement, guide: unknown): unknown {
  if (isNil(element)) return null;
  if (Array.isArray(guide)) {
    // A list inside a list: one element, an <item> per item.
    return element.children.map((child, index) => readXmlValue(child, itemGuide(guide, index)));
  }
  if (typeof guide === 'object' && guide !== null) {
    return readXmlObject(element, guide as Record<string, unknown>);
  }
  const text = carried(element, 'content', element.text);
  if (typeof guide === 'number') return Number(text);
  if (typeof guide === 'boolean') return text === 'true';
  return text;
}

/** An object: its properties by `key` (or element name), a list's items repeated. */
function readXmlObject(element: XmlElement, guide: Record<string, unknown>): unknown {
  const byKey = new Map<string, XmlElement[]>();
  for (const child of element.children) {
    const key = keyOf(child);
    byKey.set(key, [...(byKey.get(key) ?? []), child]);
  }
  return Object.fromEntries(
    [...byKey].map(([key, elements]) => {
      const propertyGuide = guide[key];
      if (!Array.isArray(propertyGuide)) return [key, readXmlValue(elements[0]!, propertyGuide)];
      if (elements.length === 1 && elements[0]!.attributes.items === '0') return [key, []];
      return [
        key,
        elements.map((item, index) => readXmlValue(item, itemGuide(propertyGuide, index))),
      ];
    }),
  );
}

/** The results from their XML download; `like` gives the types of each document's data. */
export function readXmlResults(xml: string, like: RunResults): RunResults {
  const documents = parseXmlResults(xml).children.filter((child) => child.name === 'document');
  return {
    documents: documents.map((element, index) => {
      const attribute = (name: string) => carried(element, name, element.attributes[name]!);
      const { data, error } = readXmlObject(element, {
        data: like.documents[index]!.data,
        error: '',
      }) as { data: unknown; error: string | null };
      return {
        file: attribute('file'),
        ...(element.attributes.files === undefined ? {} : { files: attribute('files').split(' ') }),
        name: attribute('name'),
        status: attribute('status') as RunResults['documents'][number]['status'],
        data,
        error,
      };
    }),
  };
}

// ---- CSV --------------------------------------------------------------------------------

/** The part of a JSON Schema the CSV reader needs. */
export interface FieldSchema {
  type?: string | string[];
  properties?: Record<string, FieldSchema>;
  items?: FieldSchema;
}

type Cell = string | number | null;

const typeOf = (schema: FieldSchema) =>
  [schema.type].flat().find((type) => type !== 'null') ?? 'null';

class CsvDocument {
  constructor(
    private readonly header: Map<string, number>,
    readonly rows: Cell[][],
    private readonly rowArray: string | undefined,
  ) {}

  cell(label: string, row = 0): Cell {
    const index = this.header.get(label);
    return index === undefined ? null : (this.rows[row]![index] ?? null);
  }

  /** A value by the schema: objects from dotted columns, lists from JSON array text. */
  read(schema: FieldSchema, path: string[], row = 0): unknown {
    const label = path.length === 0 ? 'value' : path.join('.');
    const cell = this.cell(label, row);
    switch (typeOf(schema)) {
      case 'object': {
        if (cell === '{}') return {};
        const entries = Object.entries(schema.properties ?? {});
        return Object.fromEntries(
          entries.map(([key, field]) => [key, this.read(field, [...path, key], row)]),
        );
      }
      case 'array':
        if (label === this.rowArray) return this.readRowArray(schema.items!, path, label);
        return cell === null ? null : (JSON.parse(String(cell)) as unknown);
      case 'number':
      case 'integer':
        return cell === null ? null : Number(cell);
      case 'boolean':
        return cell === null ? null : cell === 'true';
      default:
        return cell === null ? null : restoreCell(String(cell));
    }
  }

  /** The list the rows split on: numbered in `<path>.#`, 0 when empty, empty when none. */
  private readRowArray(items: FieldSchema, path: string[], label: string): unknown {
    const number = this.cell(`${label}.#`);
    if (number === null)
      return this.cell(label) === null ? null : JSON.parse(String(this.cell(label)));
    if (Number(number) === 0) return [];
    return this.rows.map((_, row) => this.read(items, path, row));
  }
}

/**
 * The results from their CSV download, read with csv-parse: an empty unquoted field is null,
 * a quoted one is text (empty text too), and one leading apostrophe is dropped from text.
 */
export function readCsvResults(csv: string, schema: FieldSchema): RunResults {
  const [header = [], ...rows] = parseCsvText(csv, {
    cast: (value, context) =>
      context.header || context.quoting ? value : value === '' ? null : value,
  }) as Cell[][];
  const labels = new Map(header.map((label, index) => [restoreCell(String(label)), index]));
  const rowArray = [...labels.keys()].find((label) => label.endsWith('.#'))?.slice(0, -2);
  // A document's rows are consecutive and share its file.
  const groups: Cell[][][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last[0]![0] === row[0]) last.push(row);
    else groups.push([row]);
  }
  return {
    documents: groups.map((group) => {
      const document = new CsvDocument(labels, group, rowArray);
      const text = (label: string) => document.cell(label) as string | null;
      const status = text('status') as RunResults['documents'][number]['status'];
      return {
        file: text('file')!,
        name: restoreCell(text('name')!),
        status,
        data: status === 'completed' ? document.read(schema, []) : null,
        error: text('error') === null ? null : restoreCell(text('error')!),
      };
    }),
  };
}
