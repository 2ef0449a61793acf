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

function propertyKey(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name);
}

function docComment(schema: TargetSchema, indent: string): string {
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
  indent: string,
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
        const item = schema.items ? typeOf(schema.items, indent, defsName) : 'unknown';
        return /[|&\s]/.test(item) && !item.startsWith('{') ? `Array<${item}>` : `${item}[]`;
      }
      case 'object':
        return objectType(schema, indent, defsName);
    }
  });
  return [...new Set(rendered)].join(' | ');
}

function objectType(
  schema: TargetSchema,
  indent: string,
  defsName: (ref: string) => string | undefined,
): string {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return 'Record<string, unknown>';
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = entries.map(([name, child]) => {
    const optional = required.has(name) ? '' : '?';
    const comment = typeof child === 'object' ? docComment(child, inner) : '';
    return `${comment}${inner}${propertyKey(name)}${optional}: ${typeOf(child, inner, defsName)};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
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
      `${docComment(child, '')}export type ${typeNameFor(key)} = ${typeOf(child, '', defsName)};`,
  );
  const root =
    primaryType(schema) === 'object'
      ? `${docComment(schema, '')}export interface ${typeName} ${objectType(schema, '', defsName)}`
      : `${docComment(schema, '')}export type ${typeName} = ${typeOf(schema, '', defsName)};`;
  return [...declarations, root].join('\n\n') + '\n';
}
