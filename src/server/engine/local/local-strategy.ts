/**
 * The `local` strategy: fills the target schema from a chunk's text by rules the schema
 * itself chooses, offline and without templates for particular senders.
 *
 * For each field: find the labels its concept is printed under (lexicon.ts), read the value
 * after the label on its line or, for a label that heads a column, under it; rank what was
 * found by how specific the label is and how close the value sits; record where it was.
 * Lists of objects are read from tables: a line whose cells are column labels of the item
 * properties is a header, and the lines under it are rows until a total or a gap ends it.
 * A value no rule finds stays missing (null in the final result): nothing is guessed.
 */
import type { TargetSchema } from '../../../contract/json-schema.js';
import { mergeExtractions } from '../merge.js';
import { ocr } from '../ocr/ocr.js';
import { sourceOf } from '../sources.js';
import type { Chunk, ChunkExtraction, ExtractionStrategy, ValueSource } from '../types.js';
import { tableConfidence } from './confidence.js';
import { documentCurrency } from './fallbacks.js';
import { planSchema, type FieldPlan, type SchemaPlan } from './fields.js';
import { findField } from './evidence.js';
import { labelsFor, valueNearLabel } from './labels.js';
import { findEmails, findIbans } from './parsers.js';
import { readChunkText, type Reading } from './reading.js';
import { readTables } from './tables.js';
import { toSchemaType, type ValueHit } from './values.js';

export function createLocalStrategy(): ExtractionStrategy {
  const plans = new WeakMap<TargetSchema, SchemaPlan>();
  return {
    async extractChunk(chunk, context) {
      let plan = plans.get(context.schema);
      if (!plan) plans.set(context.schema, (plan = planSchema(context.schema)));
      let result = extractFromText(chunk, plan);
      if (chunk.images?.length) {
        // Pictures sent along (includePageImages, includeEmbeddedImages) are read by OCR,
        // and fill what the text left open.
        const fromPictures = await extractFromPictures(chunk, plan, context.signal);
        result = { ...mergeExtractions(context.schema, result, fromPictures), usage: result.usage };
      }
      return result;
    },
  };
}

/** Rules over text only; exported for the tests and the benchmark. */
export function extractFromText(chunk: Chunk, plan: SchemaPlan): ChunkExtraction {
  const reading = readChunkText(chunk.text);
  const data: Record<string, unknown> = {};
  const sources: Record<string, ValueSource> = {};
  const record = (pointer: string, value: unknown, hit: ValueHit) => {
    setAt(data, pointer, value);
    const source = sourceOf(chunk, hit.start, hit.end);
    // A value read from a table row or a list is placed by its column: labelled, in effect.
    if (source) sources[pointer] = { ...source, confidence: hit.confidence ?? tableConfidence };
  };

  const found = new Map<FieldPlan, ValueHit>();
  for (const field of plan.fields) {
    if (field.kind === 'currency') continue; // after the amounts, which it leans on
    const hit = findField(field, reading);
    if (!hit) continue;
    const value = toSchemaType(field, hit.value);
    if (value === undefined) continue;
    found.set(field, hit);
    record(field.pointer, value, hit);
  }
  const amountHits = [...found].filter(([field]) => field.kind === 'amount').map(([, hit]) => hit);
  for (const field of plan.fields.filter((candidate) => candidate.kind === 'currency')) {
    const hit = findField(field, reading) ?? documentCurrency(field, reading, amountHits);
    const value = hit && toSchemaType(field, hit.value);
    if (hit && value !== undefined) record(field.pointer, value, hit);
  }
  for (const list of plan.lists) {
    const rows = readTables(list, reading);
    if (rows.length === 0) continue;
    setAt(
      data,
      list.pointer,
      rows.map(() => ({})),
    );
    rows.forEach((row, index) => {
      for (const [column, hit] of row) {
        const value = toSchemaType(column, hit.value);
        if (value !== undefined) record(`${list.pointer}/${index}${column.pointer}`, value, hit);
      }
    });
  }
  for (const field of plan.valueLists) {
    const hits = findAll(field, reading);
    if (hits.length === 0) continue;
    setAt(data, field.pointer, []);
    hits.forEach((hit, index) =>
      record(`${field.pointer}/${index}`, toSchemaType(field, hit.value) ?? hit.value, hit),
    );
  }
  return { data, sources, usage: { inputTokens: 0, outputTokens: 0 } };
}

async function extractFromPictures(
  chunk: Chunk,
  plan: SchemaPlan,
  signal: AbortSignal,
): Promise<ChunkExtraction> {
  const spans: Chunk['spans'] = [];
  let text = '';
  for (const image of chunk.images ?? []) {
    const recognised = await ocr.recognize(Buffer.from(image.data, 'base64'), {
      source: image.label,
      signal,
    });
    const owner =
      chunk.spans.find(
        (span) => image.offset >= span.pageStart && image.offset <= span.pageStart + span.length,
      ) ?? chunk.spans[0];
    if (!owner || recognised.text.trim() === '') continue;
    if (text !== '') text += '\n\n';
    spans.push({
      ...owner,
      chunkStart: text.length,
      pageStart: image.offset,
      length: recognised.text.length,
    });
    text += recognised.text;
  }
  const extraction = extractFromText({ index: chunk.index, text, spans }, plan);
  // What OCR read in a picture is not in the page's text; its source is the picture's place.
  for (const source of Object.values(extraction.sources)) {
    const span = spans.find(
      (candidate) => candidate.fileId === source.fileId && candidate.page === source.page,
    );
    if (span) source.offset = span.pageStart;
  }
  return extraction;
}

/** Every value for a list of plain values: one per label, or every email or IBAN. */
function findAll(field: FieldPlan, reading: Reading): ValueHit[] {
  const hits: ValueHit[] = [];
  for (const label of labelsFor(field, reading)) {
    const near = valueNearLabel(field, label, reading);
    if (near) hits.push(near.hit);
  }
  if (hits.length === 0 && (field.kind === 'email' || field.kind === 'iban')) {
    hits.push(...(field.kind === 'email' ? findEmails(reading.text) : findIbans(reading.text)));
  }
  const seen = new Set<string>();
  return hits.filter((hit) => {
    const key = JSON.stringify(hit.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------

function setAt(data: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  let target: Record<string, unknown> | unknown[] = data;
  tokens.forEach((token, index) => {
    const last = index === tokens.length - 1;
    const key = Array.isArray(target) ? Number(token) : token;
    const container = target as Record<string | number, unknown>;
    if (last) container[key] = value;
    else {
      if (typeof container[key] !== 'object' || container[key] === null) container[key] = {};
      target = container[key] as Record<string, unknown>;
    }
  });
}
