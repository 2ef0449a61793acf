/**
 * The target schema as a `response_format` for chat-completions providers.
 *
 * OpenAI's strict structured outputs (and the grammar-based modes of vLLM, llama.cpp and
 * Ollama that imitate it) accept a subset of JSON Schema: every object must list all its
 * properties in `required` and set `additionalProperties: false`, and keywords such as
 * `format`, `pattern` and `minimum` are refused or ignored, depending on the provider and
 * model. So the schema is rewritten:
 *  - every property becomes required, and one the target schema did not require becomes
 *    nullable, which is how strict mode says "optional" (null is what "not found" is in
 *    our results anyway);
 *  - `additionalProperties: false` on every object;
 *  - the constraints strict mode may refuse move into the description, where the model
 *    still reads them ("format: date (YYYY-MM-DD)"); our own validator checks them after.
 * A schema that cannot be put that way (a free-form map through `additionalProperties`, a
 * property with no type at all) is sent as it is with `strict: false`: the provider then
 * aims for it without guaranteeing it, and our validator reports what does not fit.
 */
import { resolveRef, typesOf, type TargetSchema } from '../../../contract/json-schema.js';

export interface ResponseSchema {
  name: string;
  schema: Record<string, unknown>;
  strict: boolean;
}

class NotStrict extends Error {}

export function responseSchemaFor(schema: TargetSchema): ResponseSchema {
  const name =
    (schema.title ?? 'extraction')
      .replace(/[^a-zA-Z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 64) || 'extraction';
  try {
    return {
      name,
      schema: strictNode(schema, schema, true) as Record<string, unknown>,
      strict: true,
    };
  } catch (error) {
    if (!(error instanceof NotStrict)) throw error;
    return { name, schema: looseNode(schema), strict: false };
  }
}

const moved: Record<string, (value: unknown) => string> = {
  format: (value) =>
    `format: ${value === 'date' ? 'date (YYYY-MM-DD)' : value === 'date-time' ? 'date and time (ISO 8601)' : String(value)}`,
  pattern: (value) => `pattern: ${String(value)}`,
  minimum: (value) => `at least ${String(value)}`,
  maximum: (value) => `at most ${String(value)}`,
  exclusiveMinimum: (value) => `more than ${String(value)}`,
  exclusiveMaximum: (value) => `less than ${String(value)}`,
  multipleOf: (value) => `a multiple of ${String(value)}`,
  minLength: (value) => `at least ${String(value)} characters`,
  maxLength: (value) => `at most ${String(value)} characters`,
  minItems: (value) => `at least ${String(value)} items`,
  maxItems: (value) => `at most ${String(value)} items`,
};

function describe(schema: TargetSchema): string | undefined {
  const notes = Object.entries(moved)
    .filter(([key]) => schema[key as keyof TargetSchema] !== undefined)
    .map(([key, say]) => say(schema[key as keyof TargetSchema]));
  const words = [schema.title, schema.description].filter((part): part is string => !!part?.trim());
  const text = words
    .map((part, index) =>
      index < words.length - 1 ? part.trim().replace(/[.:]$/, '') : part.trim(),
    )
    .join('. ');
  const withNotes = notes.length
    ? `${text}${text && !/[.!?]$/.test(text) ? '.' : ''} (${notes.join('; ')})`.trim()
    : text;
  return withNotes || undefined;
}

function strictNode(
  rawSchema: TargetSchema,
  root: TargetSchema,
  required: boolean,
  depth = 0,
): unknown {
  const schema = resolveRef(rawSchema, root);
  const types = typesOf(schema);
  // No type means anything goes; a schema that refers to itself would unfold forever.
  if (types.length === 0 || depth > 16) throw new NotStrict();
  const nullable = types.includes('null') || !required;
  const main = types.filter((type) => type !== 'null');
  const node: Record<string, unknown> = {};
  const description = describe(schema);
  if (description) node.description = description;
  if (schema.enum)
    node.enum = nullable && !schema.enum.includes(null) ? [...schema.enum, null] : schema.enum;
  if (schema.const !== undefined) node.const = schema.const;
  node.type = nullable ? [...main, 'null'] : main.length === 1 ? main[0] : main;
  if (main.includes('object')) {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
      throw new NotStrict();
    const properties = schema.properties ?? {};
    const requiredNames = new Set(schema.required ?? []);
    node.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [
        name,
        strictNode(child, root, requiredNames.has(name), depth + 1),
      ]),
    );
    node.required = Object.keys(properties);
    node.additionalProperties = false;
  }
  if (main.includes('array'))
    node.items = schema.items ? strictNode(schema.items, root, true, depth + 1) : throwNotStrict();
  return node;
}

function throwNotStrict(): never {
  throw new NotStrict();
}

/** The schema as the user wrote it, with references resolved (some providers do not follow them). */
function looseNode(
  schema: TargetSchema,
  root: TargetSchema = schema,
  depth = 0,
): Record<string, unknown> {
  const resolved = resolveRef(schema, root);
  if (depth > 32) return {};
  const {
    $defs: _defs,
    definitions: _definitions,
    $ref: _ref,
    properties,
    items,
    ...rest
  } = resolved;
  const node: Record<string, unknown> = { ...rest };
  if (properties)
    node.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, looseNode(child, root, depth + 1)]),
    );
  if (items) node.items = looseNode(items, root, depth + 1);
  return node;
}
