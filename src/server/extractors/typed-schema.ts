/**
 * `typedSchema`: the TypeScript type of an extractor's results, generated from its JSON
 * schema, so an integrator can paste it next to the code that reads the results.
 */
import { primaryType, typesOf, type TargetSchema } from '../../contract/json-schema.js';

export function typeNameFor(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Extraction${name}`;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Indentation grows with each nested object up to this many levels, then stays: a line's
 * length does not depend on its depth, so the text is linear in the schema's size. (With
 * indentation at every level, a schema nested 1,200 deep made 2.8 MB of text.) Schemas are
 * held to targetSchemaLimits.depth, so the nested objects are few past this level.
 */
const maxIndentLevels = 8;

function indentOf(level: number): string {
  return '  '.repeat(Math.min(level, maxIndentLevels));
}

function propertyKey(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name);
}

function docComment(schema: TargetSchema, level: number): string {
  const indent = indentOf(level);
  const lines = [schema.title, schema.description].filter((line): line is string => !!line?.trim());
  if (schema.format) lines.push(`Format: ${schema.format}`);
  if (lines.length === 0) return '';
  const body = lines
    .flatMap((line) => line.split('\n'))
    .map((line) => line.replace(/\*\//g, '*\\/'));
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */\n`;
}

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
    ? JSON.stringify(value)
    : 'unknown';
}

function typeOf(
  schema: TargetSchema | boolean,
  level: number,
  defsName: (ref: string) => string | undefined,
): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) return defsName(schema.$ref) ?? 'unknown';
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  const types = typesOf(schema);
  if (types.length === 0) return 'unknown';
  const rendered = types.map((type) => {
    switch (type) {
      case 'string':
        return 'string';
      case 'number':
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = schema.items ? typeOf(schema.items, level, defsName) : 'unknown';
        return /[|&\s]/.test(item) && !item.startsWith('{') ? `Array<${item}>` : `${item}[]`;
      }
      case 'object':
        return objectType(schema, level, defsName);
    }
  });
  return [...new Set(rendered)].join(' | ');
}

function objectType(
  schema: TargetSchema,
  level: number,
  defsName: (ref: string) => string | undefined,
): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return 'Record<string, unknown>';
  const inner = indentOf(level + 1);
  const required = new Set(schema.required ?? []);
  const lines = entries.map(([name, child]) => {
    const optional = required.has(name) ? '' : '?';
    const comment = typeof child === 'object' ? docComment(child, level + 1) : '';
    return `${comment}${inner}${propertyKey(name)}${optional}: ${typeOf(child, level + 1, defsName)};`;
  });
  return `{\n${lines.join('\n')}\n${indentOf(level)}}`;
}

/** The declarations of a schema: its `$defs` as named types, then the root type. */
export function typeScriptFromSchema(schema: TargetSchema, typeName: string): string {
  const defs = { ...schema.definitions, ...schema.$defs };
  const names = new Map<string, string>();
  for (const key of Object.keys(defs)) {
    const name = typeNameFor(key);
    names.set(`#/$defs/${key}`, name);
    names.set(`#/definitions/${key}`, name);
  }
  const defsName = (ref: string) => names.get(ref);
  const declarations = Object.entries(defs).map(
    ([key, child]) =>
      `${docComment(child, 0)}export type ${typeNameFor(key)} = ${typeOf(child, 0, defsName)};`,
  );
  const root =
    primaryType(schema) === 'object'
      ? `${docComment(schema, 0)}export interface ${typeName} ${objectType(schema, 0, defsName)}`
      : `${docComment(schema, 0)}export type ${typeName} = ${typeOf(schema, 0, defsName)};`;
  return [...declarations, root].join('\n\n') + '\n';
}
