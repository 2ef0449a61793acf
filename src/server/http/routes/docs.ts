/**
 * The API's own documentation, public like the JSON-LD contexts: `GET /api/docs.json` is
 * the OpenAPI document, `GET /api/docs` the same document as a page people can read
 * without JavaScript. Problem documents link their `type` to `/api/docs#problem-<slug>`,
 * so the page has one anchor per problem type.
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../context.js';
import { resourceKinds } from '../kinds.js';
import { negotiateOrThrow } from '../negotiation.js';
import {
  markdown,
  markdownInline,
  markup,
  pageCsp,
  renderPage,
  type Markup,
} from '../page-layout.js';
import { operationsOf, type TagObject } from '../openapi.js';
import {
  httpMethods,
  type JsonSchema,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type Reference,
  type ResponseObject,
} from '../openapi/objects.js';
import { notFound } from '../problem.js';
import { jsonLdContext } from '../representations.js';
import { vocabularyDocument, vocabularyPage, vocabularyPageCsp } from '../vocabulary.js';

const documentMediaTypes = ['application/json', 'application/openapi+json'] as const;
const vocabularyMediaTypes = ['application/ld+json', 'application/json', 'text/html'] as const;

// ---------------------------------------------------------------------------------------
// Markup

const code = (text: string) => markup`<code>${text}</code>`;
const anchorLink = (anchor: string, content: Markup | string) =>
  markup`<a href="#${anchor}">${content}</a>`;
const operationAnchor = (operationId: string) => `op-${operationId}`;

function table(headings: readonly string[], rows: readonly Markup[]): Markup {
  const head = headings.map((heading) => markup`<th scope="col">${heading}</th>`);
  return markup`<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>
${rows.map((cells, index) => (index === 0 ? cells : markup`\n${cells}`))}
</tbody></table></div>`;
}

const row = (cells: readonly (Markup | string)[]) =>
  markup`<tr>${cells.map((cell) => markup`<td>${cell}</td>`)}</tr>`;

// ---------------------------------------------------------------------------------------
// Schemas

const componentPrefix = '#/components/schemas/';

function refName(ref: string): string {
  return ref.startsWith(componentPrefix) ? ref.slice(componentPrefix.length) : ref;
}

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Items separated by `separator`, as markup. */
const joined = (items: readonly (Markup | string)[], separator: string) =>
  items.map((item, index) => (index === 0 ? item : markup`${separator}${item}`));

function typeLabel(schema: JsonSchema): Markup | string {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return markup`<a href="#schema-${name}">${name}</a>`;
  }
  if (Array.isArray(schema.anyOf))
    return markup`${joined(schema.anyOf.filter(isRecord).map(typeLabel), ' or ')}`;
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map((value) => code(JSON.stringify(value)));
    return markup`one of ${joined(values, ', ')}`;
  }
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  if (types.length === 0) return 'any';
  const labels = types.map((type) => {
    if (type === 'array' && isRecord(schema.items))
      return markup`array of ${typeLabel(schema.items)}`;
    if (type === 'object' && !isRecord(schema.properties) && isRecord(schema.additionalProperties))
      return markup`object of ${typeLabel(schema.additionalProperties)}`;
    return type;
  });
  return markup`${joined(labels, ' or ')}`;
}

/** Bounds zod writes for every integer; they say nothing a reader needs. */
const safeIntegerBounds = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function constraintText(schema: JsonSchema): string {
  const notes: string[] = [];
  const variants = [schema, ...(Array.isArray(schema.anyOf) ? schema.anyOf.filter(isRecord) : [])];
  for (const { minLength, maxLength, minimum, maximum, maxItems, pattern } of variants) {
    if (typeof minLength === 'number') notes.push(`At least ${counted(minLength, 'character')}.`);
    if (typeof maxLength === 'number') notes.push(`At most ${counted(maxLength, 'character')}.`);
    if (typeof minimum === 'number' && !safeIntegerBounds.has(minimum))
      notes.push(`Minimum ${minimum}.`);
    if (typeof maximum === 'number' && !safeIntegerBounds.has(maximum))
      notes.push(`Maximum ${maximum}.`);
    if (typeof maxItems === 'number') notes.push(`At most ${counted(maxItems, 'item')}.`);
    if (typeof pattern === 'string') notes.push(`Matches \`${pattern}\`.`);
  }
  if (schema.default !== undefined) notes.push(`Default \`${JSON.stringify(schema.default)}\`.`);
  return notes.join(' ');
}

function describeSchema(schema: JsonSchema): Markup {
  const text = [
    typeof schema.description === 'string' ? schema.description : '',
    constraintText(schema),
  ]
    .filter(Boolean)
    .join(' ');
  return markdownInline(text);
}

/** Rows for the properties of an object schema, nested objects flattened with dotted names. */
function propertyRows(schema: JsonSchema, prefix = '', depth = 0): Markup[] {
  if (!isRecord(schema.properties) || depth > 4) return [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows: Markup[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    const path = `${prefix}${name}`;
    rows.push(
      row([
        code(path),
        typeLabel(property),
        required.has(name) ? 'yes' : '',
        describeSchema(property),
      ]),
    );
    if (isRecord(property.properties)) rows.push(...propertyRows(property, `${path}.`, depth + 1));
    else if (isRecord(property.items) && isRecord(property.items.properties)) {
      rows.push(...propertyRows(property.items, `${path}[].`, depth + 1));
    } else if (
      isRecord(property.additionalProperties) &&
      isRecord(property.additionalProperties.properties)
    ) {
      rows.push(...propertyRows(property.additionalProperties, `${path}.*.`, depth + 1));
    }
  }
  return rows;
}

function renderSchemaBody(schema: JsonSchema): Markup {
  const rows = propertyRows(schema);
  if (rows.length > 0) return table(['Field', 'Type', 'Required', 'Description'], rows);
  return markup`<p>${typeLabel(schema)}${schema.description && markup`. ${describeSchema(schema)}`}</p>`;
}

// ---------------------------------------------------------------------------------------
// Operations

function renderParameters(parameters: ParameterObject[]): Markup | string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((parameter) =>
    row([
      code(parameter.name),
      parameter.in,
      parameter.required ? 'yes' : '',
      typeLabel(parameter.schema),
      markup`${markdownInline(parameter.description)} ${markdownInline(constraintText(parameter.schema))}`,
    ]),
  );
  return markup`<h4>Parameters</h4>${table(['Name', 'In', 'Required', 'Type', 'Description'], rows)}`;
}

function renderContent(content: Record<string, MediaTypeObject> | undefined): Markup | string {
  if (!content) return '';
  const items = Object.entries(content).map(([type, media]) => {
    const { description, $ref } = media.schema;
    const note =
      typeof description === 'string' && !$ref && markup` — ${markdownInline(description)}`;
    return markup`<li>${code(type)}: ${typeLabel(media.schema)}${note}</li>`;
  });
  return markup`<ul class="media">${items}</ul>`;
}

function isReference(value: ResponseObject | Reference): value is Reference {
  return '$ref' in value;
}

function renderResponses(responses: OperationObject['responses']): Markup {
  const rows = Object.entries(responses).map(([status, response]) => {
    if (isReference(response)) {
      const slug = response.$ref.split('/').pop()!;
      return row([
        status,
        anchorLink(`problem-${slug}`, slug),
        markup`${code('application/problem+json')}: ${anchorLink('schema-Problem', 'Problem')}`,
      ]);
    }
    const headers = Object.entries(response.headers ?? {}).map(
      ([name, header]) => markup`<br>Header ${code(name)}: ${markdownInline(header.description)}`,
    );
    return row([
      status,
      markup`${markdownInline(response.description)}${headers}`,
      renderContent(response.content),
    ]);
  });
  return markup`<h4>Responses</h4>${table(['Status', 'Meaning', 'Body'], rows)}`;
}

function accessText(operation: OperationObject): Markup | string {
  if (!operation.security) return 'Needs a bearer token.';
  if (operation.security.length === 0) return 'Public: no token needed.';
  return markup`Needs a bearer token, in the Authorization header or (an embed session token) as ${code('?access_token=')}.`;
}

function operationHeading(method: string, path: string): Markup {
  return markup`<h3><span class="method">${method.toUpperCase()}</span> ${code(path)}</h3>`;
}

// Sent as written: Prettier would reflow the markup.
// prettier-ignore
function renderOperation({ method, path, operation }: Listed): Markup {
  const body = operation.requestBody;
  return markup`<section class="operation" id="${operationAnchor(operation.operationId)}">
${operationHeading(method, path)}
<p class="summary">${markdownInline(operation.summary)}</p>
${operation.description && markdown(operation.description)}
<p class="access">${accessText(operation)}</p>
${renderParameters(operation.parameters)}
${body && markup`<h4>Request body</h4>${body.description && markup`<p>${markdownInline(body.description)}</p>`}`}
${body && renderContent(body.content)}
${renderResponses(operation.responses)}
</section>`;
}

/** A second name of a resource: one line pointing at the operation under the first name. */
// prettier-ignore
function renderAlias({ method, path, operation }: Listed, canonical: string): Markup {
  return markup`<section class="operation alias" id="${operationAnchor(operation.operationId)}">
${operationHeading(method, path)}
<p>The same operation as ${anchorLink(operationAnchor(canonical), canonical)}, under the resource's second name.</p>
</section>`;
}

interface Listed {
  method: string;
  path: string;
  operation: OperationObject;
}

function listOperations(document: OpenApiDocument): Listed[] {
  const listed: Listed[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of httpMethods) {
      const operation = item[method];
      if (operation) listed.push({ method, path, operation });
    }
  }
  return listed;
}

// ---------------------------------------------------------------------------------------
// The page

const docsPageStyle = [
  'body{font:15px/1.55 system-ui,sans-serif;margin:0;color:#1d2330;background:#fff}',
  'header,main{max-width:72rem;margin:0 auto;padding:1rem 2rem}',
  'h1{margin-bottom:.25rem}',
  'h2{border-bottom:2px solid #d5d9e0;padding-bottom:.25rem;margin-top:3rem}',
  'h3{margin-top:2rem}h4{margin:1rem 0 .25rem}',
  'code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}',
  'pre{background:#f4f6f9;padding:.75rem;overflow-x:auto;border-radius:4px}',
  'table{border-collapse:collapse;width:100%}',
  'th,td{border:1px solid #d5d9e0;padding:.3rem .5rem;vertical-align:top;text-align:left;overflow-wrap:anywhere}',
  '.scroll{overflow-x:auto}td:first-child{white-space:nowrap}',
  '.method{display:inline-block;min-width:4.5rem;font-weight:700}',
  '.operation{border-top:1px solid #d5d9e0}.alias{color:#4a5262}.summary{font-weight:600}',
  'ul.media{margin:0;padding-left:1.1rem}nav ul{columns:2 18rem}',
  ':target{outline:3px solid #8fb4ff;outline-offset:4px}',
  '@media (prefers-color-scheme:dark){body{background:#12151b;color:#e6e8ec}a{color:#8fb4ff}',
  'th,td,h2,.operation{border-color:#39404d}pre{background:#1c2029}.alias{color:#a9b0bd}}',
].join('');

export const docsPageCsp = pageCsp(docsPageStyle);

const lines = (parts: readonly Markup[]) => joined(parts, '\n');

// prettier-ignore
function renderTag(
  tag: { name: string; description: string },
  tagged: Listed[],
  anchor: string,
): Markup {
  const parts = tagged
    .filter(({ operation }) => !operation['x-same-as'])
    .flatMap((listed) => [
      renderOperation(listed),
      ...tagged
        .filter((alias) => alias.operation['x-same-as'] === listed.operation.operationId)
        .map((alias) => renderAlias(alias, listed.operation.operationId)),
    ]);
  return markup`<section id="${anchor}"><h2>${tag.name}</h2>
${markdown(tag.description)}
${lines(parts)}
</section>`;
}

function renderTagNavigation(name: string, tagged: Listed[], anchor: string): Markup {
  const items = tagged
    .filter(({ operation }) => !operation['x-same-as'])
    .map(({ method, path, operation }) => {
      const label = `${method.toUpperCase()} ${path}`;
      return markup`<li>${anchorLink(operationAnchor(operation.operationId), label)}</li>`;
    });
  return markup`<li>${anchorLink(anchor, name)}<ul>${items}</ul></li>`;
}

// prettier-ignore
function renderWebhook(name: string, operation: OperationObject): Markup {
  return markup`<section class="operation" id="webhook-${name}"><h3>${code(name)}</h3>
<p class="summary">${markdownInline(operation.summary)}</p>
${markdown(operation.description ?? '')}
${renderParameters(operation.parameters)}
<h4>Body</h4>${renderContent(operation.requestBody?.content)}
</section>`;
}

/** One anchor per problem type: problem documents link their `type` here. */
// prettier-ignore
function renderProblem(slug: string, response: ResponseObject): Markup {
  const media = response.content?.['application/problem+json'];
  const example = media?.example as { status?: number; title?: string } | undefined;
  const heading = markup`${code(slug)}: ${`${example?.status ?? ''} ${example?.title ?? ''}`}`;
  const sample = media && markup`<pre><code>${JSON.stringify(media.example, null, 2)}</code></pre>`;
  return markup`<section class="problem" id="problem-${slug}"><h3>${heading}</h3>
<p>${markdownInline(response.description)}</p>
${sample}
</section>`;
}

// prettier-ignore
function renderSchema(name: string, schema: JsonSchema): Markup {
  return markup`<section class="schema" id="schema-${name}"><h3>${name}</h3>
${renderSchemaBody(schema)}
</section>`;
}

// prettier-ignore
export function renderDocsPage(document: OpenApiDocument): string {
  const operations = listOperations(document);
  const sections: Markup[] = [];
  const navigation: Markup[] = [];
  for (const tag of document.tags) {
    const tagged = operations.filter(({ operation }) => operation.tags.includes(tag.name));
    if (tagged.length === 0) continue;
    const anchor = `tag-${tag.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    sections.push(renderTag(tag, tagged, anchor));
    navigation.push(renderTagNavigation(tag.name, tagged, anchor));
  }
  const webhooks = Object.entries(document.webhooks).flatMap(([name, item]) =>
    httpMethods.flatMap((method) => (item[method] ? [renderWebhook(name, item[method])] : [])),
  );
  const problems = Object.entries(document.components.responses).map(([slug, response]) =>
    renderProblem(slug, response),
  );
  const schemas = Object.entries(document.components.schemas).map(([name, schema]) =>
    renderSchema(name, schema),
  );
  const extraNavigation = [
    ['webhooks', 'Webhooks'],
    ['problems', 'Problem types'],
    ['schemas', 'Schemas'],
  ].map(([anchor, label]) => markup`<li>${anchorLink(anchor!, label!)}</li>`);

  const title = `${document.info.title} ${document.info.version}`;
  const body = markup`<header><h1>${title}</h1>
<p>OpenAPI ${document.openapi} document: <a href="/api/docs.json">/api/docs.json</a>.
Server: ${code(document.servers[0]?.url ?? '')}</p>
<nav aria-label="Contents"><ul>${navigation}${extraNavigation}</ul></nav>
</header>
<main>
<section id="overview"><h2>Overview</h2>
${markdown(document.info.description)}
</section>
${lines(sections)}
<section id="webhooks"><h2>Webhooks</h2>
${lines(webhooks)}
</section>
<section id="problems"><h2>Problem types</h2>
${lines(problems)}
</section>
<section id="schemas"><h2>Schemas</h2>
${lines(schemas)}
</section>
</main>`;
  return renderPage({ title, style: docsPageStyle, body });
}

const pages = new WeakMap<OpenApiDocument, string>();

export const aboutTag: TagObject = {
  name: 'About the API',
  description: 'This documentation, and the JSON-LD contexts and vocabulary. They need no token.',
};

const operation = operationsOf(aboutTag);

/**
 * The routes about the API: `/docs.json`, `/docs`, `/contexts/{type}` and `/vocab`, to be mounted
 * at `/api`. `document` gives the OpenAPI document of the app that serves them.
 */
export function docsRoutes(
  document: (serverUrl: string) => Promise<OpenApiDocument>,
): Hono<AppEnv> {
  const of = (c: Context<AppEnv>) => document(c.get('services').config.publicBaseUrl);
  return new Hono<AppEnv>()
    .get(
      '/contexts/:type',
      operation('getJsonLdContext', 'The JSON-LD context of a resource type', {
        answer: {
          status: 200,
          description: 'The context that `@context` of the JSON-LD representations points to.',
          content: {
            'application/ld+json': { schema: { type: 'object', required: ['@context'] } },
          },
        },
        problems: [404],
        access: 'public',
      }),
      (c) => {
        const kind = resourceKinds.find((candidate) => candidate.type === c.req.param('type'));
        if (!kind) throw notFound();
        return c.body(JSON.stringify(jsonLdContext(kind)), 200, {
          'Content-Type': 'application/ld+json',
        });
      },
    )
    .get(
      '/vocab',
      operation('getVocabulary', 'The vocabulary of the JSON-LD representations', {
        description:
          'Each type (`/api/vocab#SavedExtractor`) and each term of a type ' +
          '(`/api/vocab#SavedExtractor.label`) that the contexts expand to, described: as ' +
          'JSON-LD (RDF Schema classes and properties) or as a page whose fragments are the terms.',
        answer: {
          status: 200,
          description: 'The vocabulary.',
          content: {
            'application/ld+json': { schema: { type: 'object', required: ['@graph'] } },
            'application/json': { schema: { type: 'object', required: ['@graph'] } },
            'text/html': { schema: { type: 'string' } },
          },
        },
        problems: [406],
        access: 'public',
      }),
      (c) => {
        const mediaType = negotiateOrThrow(c, vocabularyMediaTypes);
        const headers = { Vary: 'Accept', 'Cache-Control': 'no-cache' };
        if (mediaType === 'text/html')
          return c.body(vocabularyPage(), 200, {
            ...headers,
            'Content-Type': 'text/html; charset=utf-8',
            'Content-Security-Policy': vocabularyPageCsp,
          });
        return c.body(JSON.stringify(vocabularyDocument()), 200, {
          ...headers,
          'Content-Type': `${mediaType}; charset=utf-8`,
        });
      },
    )
    .get(
      '/docs.json',
      operation('getOpenApiDocument', 'This OpenAPI document', {
        answer: {
          status: 200,
          description: 'The OpenAPI 3.1 document, generated from the contract schemas.',
          content: {
            'application/openapi+json': { schema: { type: 'object' } },
            'application/json': { schema: { type: 'object' } },
          },
        },
        problems: [406],
        access: 'public',
      }),
      async (c) => {
        const mediaType = negotiateOrThrow(c, documentMediaTypes);
        return c.body(JSON.stringify(await of(c)), 200, {
          'Content-Type': `${mediaType}; charset=utf-8`,
          Vary: 'Accept',
          'Cache-Control': 'no-cache',
        });
      },
    )
    .get(
      '/docs',
      operation('getDocsPage', 'This documentation as a web page', {
        answer: {
          status: 200,
          description:
            'Every operation, schema and problem type of this document, readable without ' +
            'JavaScript.',
          content: { 'text/html': { schema: { type: 'string' } } },
        },
        problems: [406],
        access: 'public',
      }),
      async (c) => {
        negotiateOrThrow(c, ['text/html'] as const);
        const openApi = await of(c);
        let page = pages.get(openApi);
        if (page === undefined) {
          page = renderDocsPage(openApi);
          pages.set(openApi, page);
        }
        return c.body(page, 200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': docsPageCsp,
          'Cache-Control': 'no-cache',
          Vary: 'Accept',
        });
      },
    );
}
