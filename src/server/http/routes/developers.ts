/**
 * `GET /developers`: the page for partners who put the interface in their product. It has
 * copy-paste snippets for the three ways in (a link to the hosted page, an iframe sized by
 * /sdk/embed.js, the <extractor-app> custom element), minting an embed session on the
 * partner's server, the iframe's message protocol, the element's events, the theming
 * tokens and parts, and the Content-Security-Policy entries a partner's page needs.
 *
 * The snippets use this service's own address: PUBLIC_BASE_URL when it is set, else the
 * origin the page was asked at (not the default http://localhost:8787, which works only
 * on the machine the service runs on), in the guide's quick start too. The element's events,
 * parts and custom properties come from the shipped custom-elements.json, so the page says
 * what the build says. The partner guide at its top (a quick start, troubleshooting,
 * verifying webhooks) is docs/partners/guide.md, cut into its parts when the interface is
 * built (src/tools/docs/partner-guide.ts) and read from the build like the manifest, so there
 * is one text of it (e2e/partner-guide.spec.ts runs its quick start).
 * The page runs no inline script: its one script file adds the copy buttons, and its one
 * stylesheet is allowed by hash; nothing on it is secret.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import {
  frameCommandNames,
  frameEventNames,
  frameMessagePrefix,
  frameProtocolVersion,
  type FrameCommandName,
  type FrameEventName,
} from '../../../contract/frame-messages.js';
import type { AppEnv } from '../context.js';
import { readPartnerGuide, type GuidePart } from '../partner-guide.js';
import {
  markdown,
  markdownInline,
  markup,
  pageCsp,
  renderPage,
  type Markup,
} from '../page-layout.js';
import { copyButtonsScript } from './copy-buttons.js';

interface DocumentedItem {
  name: string;
  description?: string;
  default?: string;
  fieldName?: string;
  type?: { text: string };
}

interface ElementDescription {
  attributes: DocumentedItem[];
  events: DocumentedItem[];
  cssParts: DocumentedItem[];
  cssProperties: DocumentedItem[];
}

/** The <extractor-app> entry of the built custom-elements.json, or nothing before a build. */
async function describeApp(distDir: string): Promise<ElementDescription | undefined> {
  let text: string;
  try {
    text = await readFile(join(distDir, 'sdk', 'custom-elements.json'), 'utf8');
  } catch {
    return undefined;
  }
  const manifest = JSON.parse(text) as {
    modules: { declarations?: (Partial<ElementDescription> & { tagName?: string })[] }[];
  };
  const app = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .find((declaration) => declaration.tagName === 'extractor-app');
  if (!app) return undefined;
  return {
    attributes: app.attributes ?? [],
    events: app.events ?? [],
    cssParts: app.cssParts ?? [],
    cssProperties: app.cssProperties ?? [],
  };
}

// ---------------------------------------------------------------------------------------
// Markup: Hono's `html` (page-layout.ts) escapes every text; descriptions may hold `code`.

const codeBlock = (text: string) => markup`<pre><code>${text.trim()}</code></pre>`;
const code = (text: string) => markup`<code>${text}</code>`;

type Cell = Markup | string;

function table(headings: readonly string[], rows: readonly (readonly Cell[])[]): Markup {
  const head = headings.map((heading) => markup`<th scope="col">${heading}</th>`);
  const body = rows.map(
    (cells, index) =>
      markup`${index === 0 ? '' : '\n'}<tr>${cells.map((cell) => markup`<td>${cell}</td>`)}</tr>`,
  );
  return markup`<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

const section = (id: string, title: string, body: Markup) =>
  markup`<section id="${id}"><h2>${title}</h2>\n${body}\n</section>`;

// ---------------------------------------------------------------------------------------
// Sections

function renderWaysIn(service: string): Markup {
  const link = `<a href="${service}/x/EXTRACTOR_ID?session=xses_…">Send us your invoices</a>`;
  const frame = `
<div id="extractor"></div>
<script src="${service}/sdk/embed.js"></script>
<script>
  const frame = ExtractorEmbed.mount(document.getElementById('extractor'), {
    url: embeddedUrlFromYourServer, // ${service}/embed/EXTRACTOR_ID?session=xses_…
    theme: { 'color-accent': '#0b7a75' },
    onEvent: (name, payload) => console.log(name, payload),
  });
  frame.on('results-submitted', (payload) => console.log(payload.submission));
  // A minute before the session ends: mint a new one on your server and hand it over.
  frame.on('session-expiring', async () => frame.refreshSession(await freshTokenFromYourServer()));
</script>`;
  const element = `
<script type="module" src="${service}/sdk/extractor.mjs"></script>

<extractor-app base-url="${service}" session="xses_…"></extractor-app>

<script type="module">
  const app = document.querySelector('extractor-app');
  app.addEventListener('extractor-step-changed', (event) => console.log(event.detail.step));
  app.addEventListener('extractor-submit-requested', (event) => {
    event.preventDefault(); // take the submit over: nothing is submitted by the element
    mySubmit(event.detail.data);
  });
</script>`;
  const react = `
// React 19 sets properties on custom elements and listens with on<event-name> props.
import '${service}/sdk/extractor.mjs'; // or a <script type="module"> in the page

export function Invoices({ session }) {
  return (
    <extractor-app
      baseUrl="${service}"
      session={session}
      onextractor-results-submitted={(event) => console.log(event.detail.submission)}
    />
  );
}`;
  const vue = `
// vite.config: vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('extractor-') } } })
<extractor-app
  :baseUrl="'${service}'"
  :session="session"
  @extractor-step-changed="(event) => (step = event.detail.step)"
/>`;
  return section(
    'ways-in',
    'Three ways in',
    markup`<p>Every way needs an <a href="#sessions">embed session</a> minted on your server. The
session is what the browser gets: it sees one extractor and one bucket, and expires.</p>
<h3 id="hosted-link">A link to the hosted page</h3>
<p>The simplest: send people to <code>fullPageUrl</code> from the session. The page takes the
session out of its address at once.</p>
${codeBlock(link)}
<h3 id="iframe">An iframe, sized by <code>/sdk/embed.js</code></h3>
<p>A small script (no dependencies) makes the frame inside your container, sizes it to its
content (no scrollbar), and turns the frame's messages into callbacks and its commands into
methods (<code>setTheme</code>, <code>goToStep</code>, <code>refreshSession</code>). Add your page's origin to the session's <code>allowedOrigins</code>: the frame may be
shown only there.</p>
${codeBlock(frame)}
<h3 id="custom-element">The <code>&lt;extractor-app&gt;</code> custom element</h3>
<p>The interface in your own page, themed by your CSS. Every attribute has a property
(<code>base-url</code> is <code>baseUrl</code>), the events are DOM events that bubble out of
the element, and the module can be imported during server-side rendering (it touches no
<code>window</code> or <code>document</code> then, and registers nothing). Its API is in
<a href="/sdk/custom-elements.json"><code>/sdk/custom-elements.json</code></a> and its TypeScript
declarations in <a href="/sdk/extractor.d.ts"><code>/sdk/extractor.d.ts</code></a>
(<code>HTMLElementTagNameMap</code> and the event map included). The session must list your
page's origin in <code>allowedOrigins</code>: the API answers the browser (CORS) only then.</p>
${codeBlock(element)}
<h4>React 19</h4>
${codeBlock(react)}
<h4>Vue 3</h4>
${codeBlock(vue)}`,
  );
}

function renderSessions(service: string): Markup {
  const curl = `
curl -X POST ${service}/api/embed_sessions \\
  -H "Authorization: Bearer $EXTRACTOR_TOKEN" \\
  -H 'Content-Type: application/json' \\
  -d '{
    "savedExtractor": "/api/extractors/EXTRACTOR_ID",
    "allowedOrigins": ["https://partner.example"],
    "ttlSeconds": 3600,
    "theme": { "color-accent": "#0b7a75", "radius": "4px" }
  }'`;
  const node = `
// On your server (Node 18+): the personal access token never leaves it.
const response = await fetch('${service}/api/embed_sessions', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.EXTRACTOR_TOKEN}\`,
    'Content-Type': 'application/json',
  },
  body: JSON.stringify({
    savedExtractor: '/api/extractors/EXTRACTOR_ID',
    allowedOrigins: ['https://partner.example'],
  }),
});
if (!response.ok) throw new Error(\`Extractor answered \${response.status}\`);
const { token, embeddedUrl, fullPageUrl, expiresAt } = await response.json();
// Give the page token (or embeddedUrl / fullPageUrl), never EXTRACTOR_TOKEN.`;
  return section(
    'sessions',
    'Minting a session on your server',
    markup`<p>With a personal access token (<code>xpat_…</code>), which stays on your server, ask
for an embed session (<code>xses_…</code>) for each person. The answer has the
<code>token</code>, <code>expiresAt</code>, the <code>bucket</code>, and
<code>embeddedUrl</code> and <code>fullPageUrl</code> that already carry the session.</p>
${codeBlock(curl)}
${codeBlock(node)}
${table(
  ['Field', 'Meaning'],
  [
    [code('savedExtractor'), 'Required: the id or IRI of the extractor.'],
    [code('bucket'), 'Optional: an existing bucket; without it a new one is made.'],
    [code('ttlSeconds'), 'Optional: 60 to 86400, default 3600.'],
    [
      code('allowedOrigins'),
      'The origins of your pages: they may frame the embed page and call the API with this session.',
    ],
    [
      code('theme'),
      markup`Optional: <code>--extractor-*</code> token names without the prefix, and CSS values (see <a href="#theming">Theming</a>).`,
    ],
    [
      code('colorScheme'),
      'Optional: light (the default), dark or auto (the person’s system). The element’s color-scheme attribute and embed.js’s colorScheme come first.',
    ],
    [
      code('maxLifetimeSeconds'),
      'Optional: how long from now the session may be renewed for (at least ttlSeconds, at most 86400; by default the larger of ttlSeconds and 4 hours).',
    ],
    [
      code('locale'),
      'Optional: a BCP 47 tag (de, pt-BR, ar). A language without a translation is kept; the interface falls back to the browser’s languages, then English.',
    ],
    [
      code('strings'),
      'Optional: your text for built-in messages by id (at most 500), shown as plain text. The extractor’s own labels still win.',
    ],
  ],
)}`,
  );
}

/** What each message of the iFrame protocol (src/contract/frame-messages.ts) carries. */
const frameEventText: Record<FrameEventName, string> = {
  ready: 'The flow is loaded and takes commands: `step`, `savedExtractor`, `bucket`, `expiresAt`.',
  'step-changed': '`step`, `previous`',
  'files-uploaded': '`files`',
  'run-started': '`run`',
  'run-progress': '`run`: `run.chunksCompleted` of `run.chunksTotal`',
  'run-completed': '`run`',
  'run-failed': '`run`; `run.error` says why',
  'results-changed': 'Edited results were saved: `run`, `data`',
  'results-submitted': '`run`, `submission` (with the extractor’s `redirectUrl`)',
  resize: '`height`: the content’s height in CSS pixels; size the frame to it',
  'session-expiring': '`expiresAt`: a minute or less is left; answer with `refresh-session`',
  'session-expired':
    '`expiresAt`: the session has ended, the work is saved; answer with `refresh-session` (a new session for the same bucket) and the person goes on where they were',
};

const frameCommandText: Record<FrameCommandName, string> = {
  'set-theme': '`theme`: tokens as in a session; replaces the theme set before',
  'go-to-step':
    '`step`: `introduction`, `bucket`, `extraction` or `results`, when the state allows it',
  'refresh-session': '`token`: a new session token for the same extractor and bucket',
  'set-strings': '`strings`: your texts for built-in messages by id, over the session’s',
};

function renderProtocol(): Markup {
  const row = (name: string, direction: string, text: string) => [
    code(`${frameMessagePrefix}${name}`),
    direction,
    markdownInline(text),
  ];
  return section(
    'protocol',
    'The iframe’s message protocol',
    markup`<p>The embed page and your page talk with <code>window.postMessage</code>; /sdk/embed.js
does it for you. Every message is
<code>{ type: 'extractor:&lt;name&gt;', version: ${frameProtocolVersion}, instanceId, payload }</code>;
<code>instanceId</code> names the frame (embed.js gives each frame its own), so two frames on
one page do not mix. The frame posts only to an origin its session allows, never to
<code>"*"</code>, and takes commands only from its parent window at an allowed origin;
embed.js takes events only from its own frame. Anything else is ignored.</p>
${table(
  ['Message', 'Direction', 'Payload'],
  [
    ...frameEventNames.map((name) => row(name, 'frame → your page', frameEventText[name])),
    ...frameCommandNames.map((name) => row(name, 'your page → frame', frameCommandText[name])),
  ],
)}`,
  );
}

function renderEvents(app: ElementDescription | undefined): Markup {
  const rows = (app?.events ?? []).map((event) => [
    code(event.name),
    code(event.type?.text ?? 'CustomEvent'),
    markdownInline(event.description ?? ''),
  ]);
  const attributes = (app?.attributes ?? []).map((attribute) => [
    code(attribute.name),
    code(attribute.fieldName ?? attribute.name),
    code(attribute.default ?? ''),
    markdownInline(attribute.description ?? ''),
  ]);
  return section(
    'events',
    'The element’s attributes and events',
    markup`${table(['Attribute', 'Property', 'Default', 'Meaning'], attributes)}
<p>Every event is a <code>CustomEvent</code> that bubbles and is composed (it leaves the
shadow root), with a typed <code>detail</code>. <code>extractor-submit-requested</code> is
cancelable: call <code>preventDefault()</code> and the element submits nothing, so your page
can take the submit over.</p>
${table(['Event', 'Type', 'When'], rows)}`,
  );
}

function renderTheming(app: ElementDescription | undefined): Markup {
  const tokens = (app?.cssProperties ?? []).map((property) => [
    code(property.name),
    code(property.default ?? ''),
    markdownInline(property.description ?? ''),
  ]);
  const parts = (app?.cssParts ?? []).map((part) => [
    code(part.name),
    markdownInline(part.description ?? ''),
  ]);
  const css = `
extractor-app {
  --extractor-color-accent: #0b7a75;
  --extractor-radius: 4px;
  --extractor-font-family: 'Inter', sans-serif;
}
extractor-app::part(submit-button) {
  text-transform: uppercase;
}`;
  return section(
    'theming',
    'Theming: tokens and parts',
    markup`<p>Set the <code>--extractor-*</code> custom properties on the element (or on anything
above it); in a session's <code>theme</code>, or the iframe's <code>set-theme</code>, use
their names without <code>--extractor-</code>. Colours are <code>light-dark()</code> pairs,
drawn light by default whatever the person's system prefers. Choose the scheme with the
session's <code>colorScheme</code> (<code>light</code>, <code>dark</code> or
<code>auto</code> to follow the system), the element's <code>color-scheme</code> attribute, or
embed.js's <code>colorScheme</code> option; the attribute and the option come before the
session's. Text keeps at least 4.5:1 contrast whatever the theme. Anything else can be
restyled through the parts, as <code>extractor-app::part(name)</code>.</p>
${codeBlock(css)}
<h3 id="tokens">Custom properties</h3>
${table(['Property', 'Default', 'What it colours or sizes'], tokens)}
<h3 id="parts">Parts</h3>
${table(['Part', 'What it is'], parts)}`,
  );
}

function renderCsp(service: string): Markup {
  return section(
    'csp',
    'Content-Security-Policy entries for your page',
    markup`<p>If your page sends a Content-Security-Policy, add these. Nothing needs
<code>'unsafe-inline'</code> or <code>'unsafe-eval'</code>: the element's styles are
constructed stylesheets and CSSOM properties, which a policy does not block.</p>
${table(
  ['Way in', 'Directives'],
  [
    ['Link to the hosted page', 'Nothing.'],
    [
      'iframe with /sdk/embed.js',
      markup`<code>script-src ${service}</code>; <code>frame-src ${service}</code>`,
    ],
    [
      'Custom element',
      markup`<code>script-src ${service}</code>; <code>connect-src ${service}</code> (the API and its live updates); <code>img-src blob:</code> (result downloads)`,
    ],
  ],
)}
<p>On our side, the session's <code>allowedOrigins</code> decide who may frame the embed page
(its <code>frame-ancestors</code>) and which pages the API answers (CORS). The hosted pages
send <code>frame-ancestors 'none'</code> for the full page, run no inline script, and send
<code>Referrer-Policy: no-referrer</code> and <code>X-Content-Type-Options: nosniff</code>.</p>`,
  );
}

const developersPageStyle = [
  ':root{color-scheme:light dark}',
  'body{margin:0 auto;max-width:60rem;padding:1.5rem;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2230;background:#fff}',
  'h1{font-size:2rem;margin:.5rem 0 1rem}h2{margin-top:2.5rem;padding-top:1rem;border-top:1px solid #d3d9e2}',
  'h3{margin-top:1.75rem}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}',
  'pre{overflow:auto;padding:.9rem 1rem;border-radius:.5rem;background:#f3f5f9}pre code{font-size:.85rem}',
  '.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;margin:1rem 0}',
  'th,td{border:1px solid #d3d9e2;padding:.4rem .6rem;text-align:left;vertical-align:top}th{background:#f3f5f9}',
  // Two columns of contents where each fits on a line, one on a phone.
  'a{color:#2b59c3}nav ul{columns:2 16rem;padding-left:1.2rem}',
  // The button sits over the block's top right corner: the first line keeps clear of it,
  // beside it on a wide screen, below it on a narrow one (where first lines scroll under it).
  '.code{position:relative}.code pre{padding-right:4.75rem}.copy{position:absolute;top:.45rem;right:.45rem;font:inherit;font-size:.8rem;',
  'padding:.2rem .6rem;border:1px solid #c3cad6;border-radius:.35rem;background:#fff;color:inherit;cursor:pointer}',
  '.copy:focus-visible{outline:2px solid #2b59c3;outline-offset:2px}',
  '@media (max-width:48rem){.code pre{padding:2.5rem 1rem .9rem}th,td{padding:.35rem}}',
  '@media (prefers-color-scheme:dark){body{background:#12151b;color:#e6e8ec}a{color:#8fb4ff}',
  'pre,th{background:#1c2029}th,td,h2{border-color:#39404d}.copy{background:#12151b;border-color:#39404d}}',
].join('');

export const developersPageCsp = pageCsp(developersPageStyle, { scripts: true });

const copyButtonsPath = '/developers/copy-buttons.js';

/**
 * The guide's quick start sets the service's address as `npm start` on one's own machine
 * has it; on this page, it is the address of the service that serves the page.
 */
const guideServiceVariable = 'EXTRACTOR=http://localhost:8787';

// prettier-ignore
export function renderDevelopersPage(
  service: string,
  app: ElementDescription | undefined,
  guide: readonly GuidePart[] = [],
): string {
  const navigation = [
    ...guide.map((part) => [part.id, part.title]),
    ['ways-in', 'Three ways in'],
    ['sessions', 'Minting a session'],
    ['protocol', 'The iframe’s message protocol'],
    ['events', 'The element’s attributes and events'],
    ['theming', 'Theming: tokens and parts'],
    ['csp', 'Content-Security-Policy entries'],
  ].map(([id, label]) => markup`<li><a href="#${id}">${label}</a></li>`);
  const missing =
    !app &&
    markup`<p><strong>The element’s manifest has not been built yet: run <code>npm run build</code> to fill the tables of events, tokens and parts.</strong></p>`;
  const body = markup`<header><h1>Extractor for partners</h1>
<p>Put document data extraction in your product: people upload their documents, check what
was read, and submit it, without leaving your site. Service address:
<code>${service}</code>. The REST API is described at <a href="/api/docs">/api/docs</a>.</p>
${missing}
<nav aria-label="On this page"><ul>${navigation}</ul></nav></header>
<main>
${guide.map((part) => section(part.id, part.title, markdown(part.body)))}
${renderWaysIn(service)}
${renderSessions(service)}
${renderProtocol()}
${renderEvents(app)}
${renderTheming(app)}
${renderCsp(service)}
</main>`;
  return renderPage({
    title: 'Extractor for partners',
    style: developersPageStyle,
    body,
    noReferrer: true,
    scripts: [copyButtonsPath],
  });
}

export const developersRoutes = new Hono<AppEnv>()
  .get('/developers', async (c) => {
    const { publicBaseUrl, publicBaseUrlConfigured, distDir } = c.get('services').config;
    const service = publicBaseUrlConfigured ? publicBaseUrl : new URL(c.req.url).origin;
    const guide = (await readPartnerGuide(distDir)).map((part) => ({
      ...part,
      body: part.body.replaceAll(guideServiceVariable, `EXTRACTOR=${service}`),
    }));
    const html = renderDevelopersPage(service, await describeApp(distDir), guide);
    return c.body(html, 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': developersPageCsp,
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'public, max-age=300',
    });
  })
  .get(copyButtonsPath, (c) =>
    c.body(copyButtonsScript, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    }),
  );
