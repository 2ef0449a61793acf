import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../tools/project-root.js';
import {
  createCustomElementsManifest,
  type CustomElementsManifest,
} from '../../../tools/manifest/custom-elements-manifest.js';
import { writePartnerGuide } from '../../../tools/docs/partner-guide.js';
import { adminToken, startTestService, type TestService } from '../../testing/test-service.js';
import { partnerGuideFile, type GuidePart } from '../partner-guide.js';
import { problemTypes } from '../problem.js';

let service: TestService;
let manifest: CustomElementsManifest;
let guide: GuidePart[];

interface AppDeclaration {
  tagName?: string;
  events: { name: string }[];
  cssParts: { name: string }[];
  cssProperties: { name: string; default: string }[];
}

const appOf = (built: CustomElementsManifest) =>
  built.modules
    .flatMap((module) => (module.declarations ?? []) as unknown as AppDeclaration[])
    .find((declaration) => declaration.tagName === 'extractor-app')!;

const writeManifest = (content: unknown) =>
  writeFileSync(
    join(service.config.distDir, 'sdk', 'custom-elements.json'),
    JSON.stringify(content),
  );

const getPage = () => service.request('/developers', { token: null });

beforeAll(async () => {
  service = await startTestService();
  manifest = await createCustomElementsManifest(projectRoot);
  writeManifest(manifest);
  // As `npm run build` does: the guide of docs/partners/guide.md, into the build.
  guide = writePartnerGuide(projectRoot, service.config.distDir);
});

afterAll(() => service.dispose());

describe('GET /developers', () => {
  it('is an HTML page with no inline script, under a policy that allows only its own stylesheet and script files', async () => {
    const response = await getPage();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).toMatch(/script-src 'self';/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await response.text();
    // One script element, a file of the page's own origin, with nothing inline.
    expect(html.match(/<script\b[^>]*>[^<]*<\/script>/gi)).toEqual([
      '<script src="/developers/copy-buttons.js" defer></script>',
    ]);
    const style = /<style>([^<]*)<\/style>/.exec(html)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(policy).toContain(`style-src 'sha256-${hash}'`);

    const script = await service.request('/developers/copy-buttons.js', { token: null });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('navigator.clipboard.writeText');
  });

  it('opens with the partner guide of docs/partners/: quick start, troubleshooting, verifying webhooks', async () => {
    const html = await (await getPage()).text();
    const parts = guide;
    expect(parts.map((part) => part.id)).toEqual([
      'quick-start',
      'troubleshooting',
      'verifying-webhooks',
    ]);
    for (const part of parts)
      expect(html).toContain(`<section id="${part.id}"><h2>${part.title}</h2>`);
    expect(html.indexOf('id="quick-start"')).toBeLessThan(html.indexOf('id="ways-in"'));
    expect(html).toContain('npm run --silent token -- create --name &quot;quick start&quot;');
    expect(html).toContain("import { Webhook } from 'standardwebhooks';");
    // Every problem type the API answers with is explained in the troubleshooting.
    for (const slug of Object.keys(problemTypes))
      expect(parts[1]!.body, slug).toContain(`| \`${slug}\``);
    // What goes wrong when embedding, each with what to do, and embed.js's error codes.
    for (const topic of [
      '**The frame stays empty, or shows the browser',
      '**CORS errors with the custom element**',
      '**Dark mode.**',
      '**An expired session.**',
      '**What an API error means.**',
    ])
      expect(parts[1]!.body, topic).toContain(topic);
    for (const code of ['origin-not-allowed', 'session-ended', 'unreachable', 'timeout'])
      expect(parts[1]!.body, code).toContain(`\`${code}\``);
    // Its tables scroll in their own box on a narrow screen, as the page's own do.
    expect(html).toMatch(/<div class="scroll"><table>\s*<thead>\s*<tr>\s*<th>Type<\/th>/);
  });

  it('shows the guide the build wrote, not a Markdown file read at run time, and the rest without one', async () => {
    const guideFile = join(service.config.distDir, partnerGuideFile);
    try {
      writeFileSync(
        guideFile,
        JSON.stringify([{ id: 'built-part', title: 'Built part', body: 'As **built**.\n' }]),
      );
      const built = await (await getPage()).text();
      expect(built).toContain('<section id="built-part"><h2>Built part</h2>');
      expect(built).toContain('<strong>built</strong>');
      expect(built).not.toContain('id="quick-start"');

      // Before a build has written a guide: the page without it, still whole.
      rmSync(guideFile);
      const unbuilt = await getPage();
      expect(unbuilt.status).toBe(200);
      const html = await unbuilt.text();
      expect(html).not.toContain('id="quick-start"');
      expect(html).toContain('id="ways-in"');
    } finally {
      writePartnerGuide(projectRoot, service.config.distDir);
    }
  });
});

describe('GET /developers: what the page holds', () => {
  it('has each section a partner needs, with snippets for this service’s address', async () => {
    const html = await (await getPage()).text();
    for (const id of [
      'ways-in',
      'hosted-link',
      'iframe',
      'custom-element',
      'sessions',
      'protocol',
      'events',
      'theming',
      'tokens',
      'parts',
      'csp',
    ])
      expect(html, id).toContain(`id="${id}"`);
    expect(html).toContain('&lt;script src=&quot;http://extractor.test/sdk/embed.js&quot;&gt;');
    expect(html).toContain(
      '&lt;script type=&quot;module&quot; src=&quot;http://extractor.test/sdk/extractor.mjs&quot;&gt;',
    );
    expect(html).toContain('curl -X POST http://extractor.test/api/embed_sessions');
    // The scheme is chosen, light by default: no advice to pin it with CSS any more.
    expect(html).not.toContain('color-scheme: light }');
    expect(html).toMatch(/session(&#39;|')s <code>colorScheme<\/code>/);
    expect(html).toContain('await fetch(&#39;http://extractor.test/api/embed_sessions&#39;');
    for (const message of [
      'extractor:ready',
      'extractor:resize',
      'extractor:session-expiring',
      'extractor:set-theme',
      'extractor:go-to-step',
      'extractor:refresh-session',
    ])
      expect(html, message).toContain(message);
    expect(html).toContain('frame-src http://extractor.test');
    expect(html).toContain('connect-src http://extractor.test');
  });

  it('lists every event, custom property (with its default) and part of the built manifest', async () => {
    const html = await (await getPage()).text();
    const app = appOf(manifest);
    expect(app.events.length).toBeGreaterThan(10);
    for (const event of app.events)
      expect(html, event.name).toContain(`<code>${event.name}</code>`);
    for (const property of app.cssProperties) {
      expect(html, property.name).toContain(`<code>${property.name}</code>`);
      expect(html, property.name).toContain(
        `<code>${property.default.replace(/'/g, '&#39;')}</code>`,
      );
    }
    for (const part of app.cssParts) expect(html, part.name).toContain(`<code>${part.name}</code>`);
  });

  it('gives away no secret: no access token, no session token', async () => {
    const html = await (await getPage()).text();
    expect(html).not.toContain(adminToken);
    expect(html).not.toMatch(/xpat_[A-Za-z0-9]/);
    expect(html).not.toMatch(/xses_[A-Za-z0-9]/);
  });

  it('links the manifest and the declarations, which /sdk serves for any page to read', async () => {
    const html = await (await getPage()).text();
    expect(html).toContain('href="/sdk/custom-elements.json"');
    expect(html).toContain('href="/sdk/extractor.d.ts"');
    writeFileSync(
      join(service.config.distDir, 'sdk', 'extractor.d.ts'),
      'export type Step = string;\n',
    );
    const served = await service.request('/sdk/custom-elements.json', { token: null });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(served.headers.get('access-control-allow-origin')).toBe('*');
    expect(appOf((await served.json()) as CustomElementsManifest).tagName).toBe('extractor-app');
    const declarations = await service.request('/sdk/extractor.d.ts', { token: null });
    expect(declarations.status).toBe(200);
    expect(declarations.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await declarations.text()).toBe('export type Step = string;\n');
  });

  it('writes the manifest’s text as text', async () => {
    const tampered = structuredClone(manifest);
    appOf(tampered).events[0]!.name = '<img src=x onerror=alert(1)>';
    writeManifest(tampered);
    try {
      const html = await (await getPage()).text();
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    } finally {
      writeManifest(manifest);
    }
  });
});
