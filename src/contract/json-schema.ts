/**
 * The part of JSON Schema (2020-12) that target schemas of saved extractors may use: its
 * types, reading a schema, and walking it. The validator is in schema-validation.ts, which
 * only the results editor and the server load.
 *
 * Supported: type (one or a list), properties, required, additionalProperties (boolean),
 * items, enum, const, format (date, date-time, time, email, uri, iban), minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength, pattern, minItems,
 * maxItems, title, description, default, examples, and `$ref` into `#/$defs` or
 * `#/definitions`. Other keywords are ignored, as JSON Schema says unknown keywords are.
 */

export const jsonTypes = [
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'null',
] as const;
export type JsonType = (typeof jsonTypes)[number];

export interface TargetSchema {
  type?: JsonType | JsonType[];
  title?: string;
  description?: string;
  properties?: Record<string, TargetSchema>;
  required?: string[];
  additionalProperties?: boolean | TargetSchema;
  items?: TargetSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  examples?: unknown[];
  $ref?: string;
  $defs?: Record<string, TargetSchema>;
  definitions?: Record<string, TargetSchema>;
}

export type ParsedSchema = { ok: true; schema: TargetSchema } | { ok: false; message: string };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How large a target schema may be. Everything that reads a schema (the checks below, the
 * validator, typedSchema, the engines) walks it, most of them recursively, so a schema nested
 * a thousand deep overflowed their stacks: it failed each run and broke every list that
 * showed it. 64 levels of objects and arrays is the bound of a request body too
 * (src/server/http/body.ts); it leaves room for fields nested 31 objects deep, each field's
 * schema sitting inside its parent's `properties`. Real schemas are a few kilobytes and a
 * few hundred values.
 */
export const targetSchemaLimits = {
  /** Levels of nested objects and arrays; the whole schema is the first. */
  depth: 64,
  /** UTF-8 bytes of the serialized schema. */
  bytes: 256 * 1024,
  /** JSON values in it: each object, array, string, number, boolean and null counts one. */
  values: 10_000,
} as const;

/** Reads a target schema from its serialized form (the `jsonSchema` field). */
export function parseTargetSchema(text: string): ParsedSchema {
  const bytes = text.length > targetSchemaLimits.bytes ? text.length : utf8Length(text);
  if (bytes > targetSchemaLimits.bytes)
    return {
      ok: false,
      message: `is ${bytes} bytes long; the limit is ${targetSchemaLimits.bytes} bytes`,
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'is not valid JSON' };
  }
  const problem = describeSizeProblem(value) ?? describeSchemaProblem(value, '');
  if (problem) return { ok: false, message: problem };
  const schema = value as TargetSchema;
  if (typesOf(schema)[0] !== 'object' || !schema.properties) {
    return { ok: false, message: 'must describe an object ("type": "object") with "properties"' };
  }
  return { ok: true, schema };
}

/**
 * Reads a target schema the service has accepted already: a run's `targetSchema` (or its
 * extractor's `jsonSchema`), which passed parseTargetSchema when the extractor was saved.
 * It is read without checking it again, so the interface, which reads schemas only so,
 * carries none of the checks and their words. Undefined for text that is no object schema.
 */
export function readTargetSchema(text: string): TargetSchema | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) && isPlainObject(value.properties)
      ? (value as TargetSchema)
      : undefined;
  } catch {
    return undefined;
  }
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      bytes += 4; // a surrogate pair: one code point of four bytes
      index++;
    } else bytes += 3;
  }
  return bytes;
}

interface Visit {
  value: unknown;
  depth: number;
  parent?: Visit;
  key?: string;
}

/** The JSON pointer of a visited value, made only when a problem names it. */
function pointerOf(visit: Visit): string {
  const tokens: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent)
    tokens.push(encodePointerToken(at.key!));
  return tokens
    .reverse()
    .map((token) => `/${token}`)
    .join('');
}

/**
 * Whether a parsed schema passes the depth or the count of targetSchemaLimits: one walk
 * without recursion, which stops at the first value past a limit.
 */
function describeSizeProblem(root: unknown): string | undefined {
  const pending: Visit[] = [{ value: root, depth: 1 }];
  let values = 0;
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (++values > targetSchemaLimits.values)
      return `holds more than ${targetSchemaLimits.values} JSON values (objects, arrays, strings, numbers, booleans and nulls)`;
    if (typeof visit.value !== 'object' || visit.value === null) continue;
    if (visit.depth > targetSchemaLimits.depth)
      return `nests objects and arrays deeper than ${targetSchemaLimits.depth} levels, at ${pointerOf(visit)}`;
    for (const [key, value] of Object.entries(visit.value))
      pending.push({ value, depth: visit.depth + 1, parent: visit, key });
  }
  return undefined;
}

function describeSchemaProblem(value: unknown, at: string): string | undefined {
  if (typeof value === 'boolean') return undefined;
  if (!isPlainObject(value)) return `${at || 'the schema'} must be an object`;
  const where = at || 'the schema';
  const type = value.type;
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    const unknown = list.find((t) => !jsonTypes.includes(t as JsonType));
    if (list.length === 0 || unknown !== undefined) {
      return `${where} has an unknown type ${JSON.stringify(unknown ?? type)}; use one of ${jsonTypes.join(', ')}`;
    }
  }
  if (value.properties !== undefined) {
    if (!isPlainObject(value.properties)) return `${where}.properties must be an object`;
    for (const [name, child] of Object.entries(value.properties)) {
      const problem = describeSchemaProblem(child, `${at}/properties/${name}`);
      if (problem) return problem;
    }
  }
  if (value.required !== undefined) {
    if (!Array.isArray(value.required) || value.required.some((r) => typeof r !== 'string')) {
      return `${where}.required must be a list of property names`;
    }
  }
  if (value.items !== undefined) {
    const problem = describeSchemaProblem(value.items, `${at}/items`);
    if (problem) return problem;
  }
  if (value.enum !== undefined && (!Array.isArray(value.enum) || value.enum.length === 0)) {
    return `${where}.enum must be a non-empty list`;
  }
  if (value.pattern !== undefined) {
    if (typeof value.pattern !== 'string') return `${where}.pattern must be a string`;
    try {
      new RegExp(value.pattern, 'u');
    } catch {
      return `${where}.pattern is not a valid regular expression`;
    }
  }
  for (const defs of ['$defs', 'definitions'] as const) {
    const group = value[defs];
    if (group === undefined) continue;
    if (!isPlainObject(group)) return `${where}.${defs} must be an object`;
    for (const [name, child] of Object.entries(group)) {
      const problem = describeSchemaProblem(child, `${at}/${defs}/${name}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The types a schema allows, in the order it lists them; no `type` means any. */
export function typesOf(schema: TargetSchema): JsonType[] {
  if (schema.type === undefined) {
    if (schema.properties) return ['object'];
    if (schema.items) return ['array'];
    if (schema.enum) return [...new Set(schema.enum.map(typeOfValue))];
    return [];
  }
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** The main type of a schema, ignoring `null` (a nullable string is a string). */
export function primaryType(schema: TargetSchema): JsonType | undefined {
  return typesOf(schema).find((type) => type !== 'null');
}

export function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** Follows a local `$ref`; other references are left as they are. */
export function resolveRef(schema: TargetSchema, root: TargetSchema): TargetSchema {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 32; depth++) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
    const target = match
      ? root[match[1] as '$defs' | 'definitions']?.[decodePointerToken(match[2]!)]
      : undefined;
    if (!target) break;
    current = target;
  }
  return current;
}

export function encodePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function decodePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
