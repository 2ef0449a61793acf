/**
 * What the local strategy looks for, derived from the target schema alone: for each
 * property, the concept its name and title mean (which gives the labels to look for) and
 * the kind of value its JSON type and format call for (which gives the parser).
 */
import {
  primaryType,
  resolveRef,
  typesOf,
  type TargetSchema,
} from '../../../contract/json-schema.js';
import { encodePointerToken } from '../../../contract/json-schema.js';
import { conceptFor, rangeWords, wordsOf, type Concept, type ValueKind } from './lexicon.js';

export interface FieldPlan {
  /** JSON pointer of the value in the result, relative to the object the field is in. */
  pointer: string;
  name: string;
  schema: TargetSchema;
  kind: ValueKind | 'enum';
  concept: Concept | undefined;
  /** Labels from the property's own name and title, for fields no concept knows. */
  ownLabels: string[];
  /** A currency field that wants an ISO 4217 code rather than the sign as written. */
  wantsCurrencyCode: boolean;
  /** Labels from the description's short phrases ("wage tax, PAYE"), weaker than ownLabels. */
  hintLabels?: string[];
  /** Which date of a period the field wants ("period_start", "period_end"). */
  range?: 'start' | 'end';
  /** The numbered box or line of a form the field names ("Line 1: …", `box_1_amount`). */
  box?: string;
}

export interface ListPlan {
  pointer: string;
  name: string;
  /** The columns: one plan per property of the items. */
  columns: FieldPlan[];
}

export interface SchemaPlan {
  fields: FieldPlan[];
  /** Lists of objects, read from tables. */
  lists: ListPlan[];
  /** Lists of plain values (a list of emails), gathered from every label's value. */
  valueLists: FieldPlan[];
}

export function planSchema(root: TargetSchema): SchemaPlan {
  const plan: SchemaPlan = { fields: [], lists: [], valueLists: [] };
  visitObject(root, root, '', [], plan);
  // A box several fields name (a street, a city, a country under "3 Permanent address")
  // is the first one's: the others have captions of their own inside it, or nothing.
  const boxes = new Set<string>();
  for (const field of plan.fields) {
    const box = boxNumberOf(field.name, field.schema.title, field.schema.description);
    if (!box || boxes.has(box)) continue;
    boxes.add(box);
    field.box = box;
  }
  return plan;
}

function visitObject(
  rawSchema: TargetSchema,
  root: TargetSchema,
  pointer: string,
  context: string[],
  plan: SchemaPlan,
): void {
  const schema = resolveRef(rawSchema, root);
  for (const [name, rawChild] of Object.entries(schema.properties ?? {})) {
    const child = resolveRef(rawChild, root);
    const childPointer = `${pointer}/${encodePointerToken(name)}`;
    const type = primaryType(child);
    if (type === 'object' || (type === undefined && child.properties)) {
      // A nested object's fields carry its name as context ("seller" + "name").
      visitObject(child, root, childPointer, [...context, name, child.title ?? ''], plan);
    } else if (type === 'array') {
      const items = child.items ? resolveRef(child.items, root) : {};
      if (primaryType(items) === 'object' || items.properties) {
        const columns = Object.entries(items.properties ?? {}).map(([column, columnSchema]) =>
          planField(
            column,
            resolveRef(columnSchema, root),
            `/${encodePointerToken(column)}`,
            [],
            'item',
          ),
        );
        plan.lists.push({ pointer: childPointer, name, columns });
      } else {
        plan.valueLists.push(planField(name, items, childPointer, context, 'document', child));
      }
    } else {
      plan.fields.push(planField(name, child, childPointer, context, 'document'));
    }
  }
}

function planField(
  name: string,
  schema: TargetSchema,
  pointer: string,
  context: string[],
  scope: 'item' | 'document',
  outer?: TargetSchema,
): FieldPlan {
  const title = [...context, outer?.title ?? '', schema.title ?? ''].join(' ');
  const description = outer?.description ?? schema.description;
  // The property's own name speaks first ("iban" inside "seller"); its parents' names
  // help only when it says nothing known ("name" inside "seller").
  // A word of documents in general ("name") gives way to its parent's meaning ("seller").
  const own = conceptFor(name, schema.title, undefined, scope);
  const inContext =
    !own || own.general
      ? conceptFor(`${context.join(' ')} ${name}`, title, description, scope)
      : undefined;
  const concept = inContext && !inContext.general ? inContext : (own ?? inContext);
  const words = wordsOf(`${name}`).join(' ');
  const ownLabels = [
    ...new Set(
      [words, schema.title?.toLowerCase()].filter(
        (label): label is string => !!label && label.length > 1,
      ),
    ),
  ];
  const nameWords = wordsOf(name);
  const range =
    concept?.id === 'period'
      ? rangeWords.start.some((word) => nameWords.includes(word))
        ? 'start'
        : rangeWords.end.some((word) => nameWords.includes(word))
          ? 'end'
          : undefined
      : undefined;
  return {
    pointer,
    name,
    schema,
    kind: range ? 'date' : kindOf(schema, `${name} ${title}`, concept),
    concept,
    ownLabels,
    hintLabels: descriptionLabels(description).filter((label) => !ownLabels.includes(label)),
    wantsCurrencyCode: wantsCode(schema),
    ...(range ? { range } : {}),
  };
}

/**
 * Short phrases of a description that may be printed as the field's label: the parts
 * between brackets, commas, slashes and "or" of one to three words ("Income tax withheld
 * (wage tax, PAYE)" gives "wage tax" and "paye"), leaving out sentences and examples.
 */
function descriptionLabels(description: string | undefined): string[] {
  if (!description) return [];
  const text = description.replace(/e\.g\..*$|"[^"]*"|\bas printed\b.*$/giu, ' ');
  return [
    ...new Set(
      text
        .split(/[(),/;:]|\bor\b|\.\s/u)
        .map((part) =>
          part
            .trim()
            .toLowerCase()
            .replace(/[.\s]+$/, ''),
        )
        .filter((part) => {
          const count = part.split(/\s+/).length;
          return (
            part.length > 2 &&
            count <= 3 &&
            /\p{L}{3}/u.test(part) &&
            !/^(the|a|an|of|in|when|if)\b/.test(part)
          );
        }),
    ),
  ];
}

function kindOf(
  schema: TargetSchema,
  words: string,
  concept: Concept | undefined,
): ValueKind | 'enum' {
  const types = typesOf(schema).filter((type) => type !== 'null');
  const has = (pattern: RegExp) => pattern.test(words.toLowerCase());
  if (schema.enum) return 'enum';
  if (types.includes('boolean') && types.length === 1) return 'boolean';
  if (types.includes('number') || types.includes('integer')) {
    if (concept && ['amount', 'number', 'percent'].includes(concept.kind)) return concept.kind;
    if (has(/percent|pct|rate|%/)) return 'percent';
    if (has(/quantity|qty|count|number of|pieces/)) return 'number';
    return types.includes('integer') ? 'integer' : 'amount';
  }
  switch (schema.format) {
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime';
    case 'email':
      return 'email';
    case 'iban':
      return 'iban';
    case 'uri':
      return 'url';
  }
  if (concept)
    return concept.kind === 'number' || concept.kind === 'integer' ? 'text' : concept.kind;
  if (has(/\bdate\b|datum/)) return 'date';
  if (has(/e-?mail/)) return 'email';
  if (has(/\biban\b/)) return 'iban';
  if (has(/currency/)) return 'currency';
  if (has(/phone|telephone|\btel\b/)) return 'phone';
  if (has(/website|\burl\b|homepage|linkedin|github|web address|profile address/)) return 'url';
  if (has(/\b(number|no|nr|id|code|reference|ref)\b/)) return 'identifier';
  return 'text';
}

/** A pattern of three capitals, a length of three, or words saying ISO 4217 or code. */
function wantsCode(schema: TargetSchema): boolean {
  if (schema.pattern && /\[A-Z\]\{3\}/.test(schema.pattern)) return true;
  if (schema.maxLength === 3 || schema.minLength === 3) return true;
  if (schema.enum?.every((option) => typeof option === 'string' && /^[A-Z]{3}$/.test(option)))
    return true;
  return /iso\s?4217|\bcode\b/i.test(`${schema.title ?? ''} ${schema.description ?? ''}`);
}

/** "Line 1", "line 2a", "Box 12", "box_1_amount": the number a field's words give its box. */
const boxWords = /(?<![\p{L}\p{N}])(?:line|box)[\s_]*(\d{1,2}[a-z]?)(?![\p{L}\p{N}])/iu;

/** The box or line number a field's words name, lower case; undefined for most fields. */
export function boxNumberOf(
  name: string,
  title?: string,
  description?: string,
): string | undefined {
  for (const text of [name, title ?? '', description ?? '']) {
    const match = boxWords.exec(text);
    if (match) return match[1]!.toLowerCase();
  }
  return undefined;
}
