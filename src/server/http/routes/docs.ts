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
import { pageCsp, renderPage } from '../page-layout.js';
import {
  operationsOf,
  httpMethods,
  type TagObject,
  type JsonSchema,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type Reference,
  type ResponseObject,
} from '../openapi.js';
import { notFound } from '../problem.js';
import { escapeHtml, jsonLdContext } from '../representations.js';

const documentMediaTypes = ['application/json', 'application/openapi+json'] as const;

// ---------------------------------------------------------------------------------------
// Text: the little Markdown the descriptions use (paragraphs, `## ` headings, `- ` lists,
// ``` fences, `code` and [links](/path)), always escaped before anything is marked up.

function renderInline(text: string): string {
  return escapeHtml(text)
    .replace(/\[([^\]]+)\]\(((?:\/|#)[^)\s]*)\)/g, '<a href="$2">$1</a>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
}

export function renderMarkdown(text: string): string {
  const html: string[] = [];
  const lines = text.split('\n');
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) html.push(`<p>${renderInline(paragraph.join(' '))}</p>`);
    if (list.length > 0)
      html.push(`<ul>${list.map((item) => `<li>${renderInline(item)}</li>`).join('')}</ul>`);
    paragraph = [];
    list = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      while (++index < lines.length && !lines[index]!.startsWith('```')) code.push(lines[index]!);
      html.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
    } else if (line.startsWith('## ')) {
      flush();
      html.push(`<h3>${renderInline(line.slice(3))}</h3>`);
    } else if (line.startsWith('- ')) {
      if (paragraph.length > 0) flush();
      list.push(line.slice(2));
    } else if (line.trim() === '') {
      flush();
    } else {
      if (list.length > 0) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return html.join('\n');
}

// ---------------------------------------------------------------------------------------
// Markup

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
const anchorLink = (anchor: string, html: string) => `<a href="#${escapeHtml(anchor)}">${html}</a>`;
const operationAnchor = (operationId: string) => `op-${operationId}`;

function table(headings: readonly string[], rows: readonly string[]): string {
  const head = headings.map((heading) => `<th scope="col">${heading}</th>`).join('');
  return (
    `<div class="scroll"><table><thead><tr>${head}</tr></thead>` +
    `<tbody>\n${rows.join('\n')}\n</tbody></table></div>`
  );
}

const row = (cells: readonly string[]) =>
  `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;

// ---------------------------------------------------------------------------------------
// Schemas

const componentPrefix = '#/components/schemas/';

function refName(ref: string): string {
  return ref.startsWith(componentPrefix) ? ref.slice(componentPrefix.length) : ref;
}

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeLabel(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
  }
  if (Array.isArray(schema.anyOf)) return schema.anyOf.filter(isRecord).map(typeLabel).join(' or ');
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum)) {
    return `one of ${schema.enum.map((value) => `<code>${escapeHtml(JSON.stringify(value))}</code>`).join(', ')}`;
  }
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'array' && isRecord(schema.items)) return `array of ${typeLabel(schema.items)}`;
      if (
        type === 'object' &&
        !isRecord(schema.properties) &&
        isRecord(schema.additionalProperties)
      ) {
        return `object of ${typeLabel(schema.additionalProperties)}`;
      }
      return escapeHtml(type);
    })
    .join(' or ');
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

function describeSchema(schema: JsonSchema): string {
  const text = [
    typeof schema.description === 'string' ? schema.description : '',
    constraintText(schema),
  ]
    .filter(Boolean)
    .join(' ');
  return renderInline(text);
}

/** Rows for the properties of an object schema, nested objects flattened with dotted names. */
function propertyRows(schema: JsonSchema, prefix = '', depth = 0): string[] {
  if (!isRecord(schema.properties) || depth > 4) return [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows: string[] = [];
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

function renderSchemaBody(schema: JsonSchema): string {
  const rows = propertyRows(schema);
  if (rows.length > 0) return table(['Field', 'Type', 'Required', 'Description'], rows);
  return `<p>${typeLabel(schema)}${schema.description ? `. ${describeSchema(schema)}` : ''}</p>`;
}

// ---------------------------------------------------------------------------------------
// Operations

function renderParameters(parameters: ParameterObject[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((parameter) =>
    row([
      code(parameter.name),
      escapeHtml(parameter.in),
      parameter.required ? 'yes' : '',
      typeLabel(parameter.schema),
      `${renderInline(parameter.description)} ${renderInline(constraintText(parameter.schema))}`,
    ]),
  );
  return `<h4>Parameters</h4>${table(['Name', 'In', 'Required', 'Type', 'Description'], rows)}`;
}

function renderContent(content: Record<string, MediaTypeObject> | undefined): string {
  if (!content) return '';
  const items = Object.entries(content).map(([type, media]) => {
    const { description, $ref } = media.schema;
    const note = typeof description === 'string' && !$ref ? ` — ${renderInline(description)}` : '';
    return `<li>${code(type)}: ${typeLabel(media.schema)}${note}</li>`;
  });
  return `<ul class="media">${items.join('')}</ul>`;
}

function isReference(value: ResponseObject | Reference): value is Reference {
  return '$ref' in value;
}

function renderResponses(responses: OperationObject['responses']): string {
  const rows = Object.entries(responses).map(([status, response]) => {
    if (isReference(response)) {
      const slug = response.$ref.split('/').pop()!;
      return row([
        escapeHtml(status),
        anchorLink(`problem-${slug}`, escapeHtml(slug)),
        `${code('application/problem+json')}: ${anchorLink('schema-Problem', 'Problem')}`,
      ]);
    }
    const headers = Object.entries(response.headers ?? {})
      .map(([name, header]) => `<br>Header ${code(name)}: ${renderInline(header.description)}`)
      .join('');
    return row([
      escapeHtml(status),
      `${renderInline(response.description)}${headers}`,
      renderContent(response.content),
    ]);
  });
  return `<h4>Responses</h4>${table(['Status', 'Meaning', 'Body'], rows)}`;
}

function accessText(operation: OperationObject): string {
  if (!operation.security) return 'Needs a bearer token.';
  if (operation.security.length === 0) return 'Public: no token needed.';
  return `Needs a bearer token, in the Authorization header or (an embed session token) as ${code('?access_token=')}.`;
}

function operationHeading(method: string, path: string): string {
  return `<h3><span class="method">${escapeHtml(method.toUpperCase())}</span> ${code(path)}</h3>`;
}

function renderOperation({ method, path, operation }: Listed): string {
  const body = operation.requestBody;
  return `<section class="operation" id="${escapeHtml(operationAnchor(operation.operationId))}">
${operationHeading(method, path)}
<p class="summary">${renderInline(operation.summary)}</p>
${operation.description ? renderMarkdown(operation.description) : ''}
<p class="access">${accessText(operation)}</p>
${renderParameters(operation.parameters)}
${body ? `<h4>Request body</h4>${body.description ? `<p>${renderInline(body.description)}</p>` : ''}` : ''}
${body ? renderContent(body.content) : ''}
${renderResponses(operation.responses)}
</section>`;
}

/** A second name of a resource: one line pointing at the operation under the first name. */
function renderAlias({ method, path, operation }: Listed, canonical: string): string {
  return `<section class="operation alias" id="${escapeHtml(operationAnchor(operation.operationId))}">
${operationHeading(method, path)}
<p>The same operation as ${anchorLink(operationAnchor(canonical), escapeHtml(canonical))}, under the resource's second name.</p>
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

function renderTag(
  tag: { name: string; description: string },
  tagged: Listed[],
  anchor: string,
): string {
  const parts = tagged
    .filter(({ operation }) => !operation['x-same-as'])
    .flatMap((listed) => [
      renderOperation(listed),
      ...tagged
        .filter((alias) => alias.operation['x-same-as'] === listed.operation.operationId)
        .map((alias) => renderAlias(alias, listed.operation.operationId)),
    ]);
  return `<section id="${escapeHtml(anchor)}"><h2>${escapeHtml(tag.name)}</h2>
${renderMarkdown(tag.description)}
${parts.join('\n')}
</section>`;
}

function renderTagNavigation(name: string, tagged: Listed[], anchor: string): string {
  const items = tagged
    .filter(({ operation }) => !operation['x-same-as'])
    .map(({ method, path, operation }) => {
      const label = escapeHtml(`${method.toUpperCase()} ${path}`);
      return `<li>${anchorLink(operationAnchor(operation.operationId), label)}</li>`;
    });
  return `<li>${anchorLink(anchor, escapeHtml(name))}<ul>${items.join('')}</ul></li>`;
}

function renderWebhook(name: string, operation: OperationObject): string {
  return `<section class="operation" id="webhook-${escapeHtml(name)}"><h3>${code(name)}</h3>
<p class="summary">${renderInline(operation.summary)}</p>
${renderMarkdown(operation.description ?? '')}
${renderParameters(operation.parameters)}
<h4>Body</h4>${renderContent(operation.requestBody?.content)}
</section>`;
}

/** One anchor per problem type: problem documents link their `type` here. */
function renderProblem(slug: string, response: ResponseObject): string {
  const media = response.content?.['application/problem+json'];
  const example = media?.example as { status?: number; title?: string } | undefined;
  const heading = `${code(slug)}: ${escapeHtml(`${example?.status ?? ''} ${example?.title ?? ''}`)}`;
  const sample = media
    ? `<pre><code>${escapeHtml(JSON.stringify(media.example, null, 2))}</code></pre>`
    : '';
  return `<section class="problem" id="problem-${escapeHtml(slug)}"><h3>${heading}</h3>
<p>${renderInline(response.description)}</p>
${sample}
</section>`;
}

function renderSchema(name: string, schema: JsonSchema): string {
  return `<section class="schema" id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>
${renderSchemaBody(schema)}
</section>`;
}

export function renderDocsPage(document: OpenApiDocument): string {
  const operations = listOperations(document);
  const sections: string[] = [];
  const navigation: string[] = [];
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
  ].map(([anchor, label]) => `<li>${anchorLink(anchor!, label!)}</li>`);

  const title = `${document.info.title} ${document.info.version}`;
  const body = `<header><h1>${escapeHtml(title)}</h1>
<p>OpenAPI ${escapeHtml(document.openapi)} document: <a href="/api/docs.json">/api/docs.json</a>.
Server: ${code(document.servers[0]?.url ?? '')}</p>
<nav aria-label="Contents"><ul>${navigation.join('')}${extraNavigation.join('')}</ul></nav>
</header>
<main>
<section id="overview"><h2>Overview</h2>
${renderMarkdown(document.info.description)}
</section>
${sections.join('\n')}
<section id="webhooks"><h2>Webhooks</h2>
${webhooks.join('\n')}
</section>
<section id="problems"><h2>Problem types</h2>
${problems.join('\n')}
</section>
<section id="schemas"><h2>Schemas</h2>
${schemas.join('\n')}
</section>
</main>`;
  return renderPage({ title, style: docsPageStyle, body });
}

const pages = new WeakMap<OpenApiDocument, string>();

export const aboutTag: TagObject = {
  name: 'About the API',
  description: 'This documentation and the JSON-LD contexts. They need no token.',
};

const operation = operationsOf(aboutTag);

/**
 * The routes about the API: `/docs.json`, `/docs` and `/contexts/{type}`, to be mounted
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
        const mediaType = negotiateOrThrow(c.req.header('accept'), documentMediaTypes);
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
        negotiateOrThrow(c.req.header('accept'), ['text/html'] as const);
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
