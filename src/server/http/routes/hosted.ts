/**
 * The built interface, served by the service itself (`npm run build` writes it to dist/):
 *
 *   /x/{extractorId}?session=…      the full page (dist/app/index.html)
 *   /embed/{extractorId}?session=…  the same page for an iframe, marked data-layout="embed"
 *   /assets/…                       its hashed scripts and styles, cached for good
 *   /sdk/extractor.mjs, .js         the custom element library, for partners' pages
 *   /sdk/custom-elements.json, /sdk/extractor.d.ts   its manifest and TypeScript declarations
 *   /sdk/embed.js                   the script that puts the iframe on a partner's page
 *
 * The pages carry a Content-Security-Policy without inline script and without
 * 'unsafe-inline' styles (Lit adopts constructed stylesheets, and sets styles through the
 * CSSOM, which CSP allows). The full page may not be framed at all; the embed page may be
 * framed by the origins its session allows, and by nobody when the session is missing or
 * not valid.
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Hono, type Context } from 'hono';
import { verifyToken } from '../../tokens/tokens.js';
import { chooseEncoding, compressedFile, isCompressible } from '../compression.js';
import type { AppEnv } from '../context.js';
import { notFound } from '../problem.js';

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  // extractor.d.ts: TypeScript declarations, readable in a browser tab.
  '.ts': 'text/plain; charset=utf-8',
};

const libraryFiles = new Set([
  'extractor.mjs',
  'extractor.js',
  'custom-elements.json',
  'extractor.d.ts',
  'embed.js',
]);
const publicFiles = new Set(['favicon.svg']);
const assetName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function contentSecurityPolicy(frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

const notBuilt = () =>
  new Response(
    'The interface has not been built yet. Run "npm run build", or restart with "npm start", which builds it.\n',
    {
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '30' },
    },
  );

/** What readFile says when there is no such file, however odd the name asked for. */
const missingFile = new Set(['ENOENT', 'ENAMETOOLONG', 'ENOTDIR', 'EISDIR']);

async function readBuilt(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (missingFile.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

/**
 * A file of the build, compressed when the client accepts it and it is text (see
 * compression.ts). `Vary` tells caches that the answer depends on Accept-Encoding.
 */
function sendBuiltFile(
  c: Context<AppEnv>,
  path: string,
  content: Buffer,
  headers: Record<string, string> & { 'Content-Type': string },
): Response {
  if (!isCompressible(headers['Content-Type']))
    return c.body(new Uint8Array(content), 200, headers);
  const encoding = chooseEncoding(c.req.header('accept-encoding'));
  const encoded = encoding && compressedFile(path, content, encoding);
  const varied = { ...headers, Vary: 'Accept-Encoding' };
  if (!encoded) return c.body(new Uint8Array(content), 200, varied);
  return c.body(new Uint8Array(encoded), 200, { ...varied, 'Content-Encoding': encoding });
}

/** The origins a session token allows to frame the embed page; none for anything else. */
async function framingOrigins(c: Context<AppEnv>): Promise<string[]> {
  const token = c.req.query('session');
  if (!token) return [];
  const verification = await verifyToken(c.get('services').db, token);
  if (!verification.ok || verification.principal.kind !== 'session') return [];
  return verification.principal.allowedOrigins;
}

/** Where `npm run build` put the interface (config.distDir), and the hosted app in it. */
const distDirOf = (c: Context<AppEnv>) => c.get('services').config.distDir;
const appDirOf = (c: Context<AppEnv>) => join(distDirOf(c), 'app');

function page(layout: 'page' | 'embed') {
  return async (c: Context<AppEnv>) => {
    const html = await readBuilt(join(appDirOf(c), 'index.html'));
    if (!html) return notBuilt();
    const ancestors = layout === 'embed' ? await framingOrigins(c) : [];
    let body = html.toString('utf8');
    if (layout === 'embed') body = body.replace(/<html\b/i, '<html data-layout="embed"');
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy(ancestors),
      'Referrer-Policy': 'no-referrer',
      // The address carries a session: nothing may keep the page.
      'Cache-Control': 'no-store',
    };
    // For browsers that predate frame-ancestors.
    if (layout === 'page') headers['X-Frame-Options'] = 'DENY';
    return c.body(body, 200, headers);
  };
}

/** A file of the build with `headers`, or what `missing` answers when the build has no such file. */
async function serveBuilt(
  c: Context<AppEnv>,
  path: string,
  headers: Record<string, string>,
  missing: () => Response,
): Promise<Response> {
  const content = await readBuilt(path);
  if (!content) return missing();
  return sendBuiltFile(c, path, content, {
    'Content-Type': contentTypes[extname(path)] ?? 'application/octet-stream',
    ...headers,
  });
}

const nothingHere = (): Response => {
  throw notFound();
};

export const hostedRoutes = new Hono<AppEnv>()
  .get('/x/:extractorId', page('page'))
  .get('/embed/:extractorId', page('embed'))
  .get('/assets/:file', (c) => {
    const file = c.req.param('file');
    if (!assetName.test(file)) throw notFound();
    const cache = { 'Cache-Control': 'public, max-age=31536000, immutable' };
    return serveBuilt(c, join(appDirOf(c), 'assets', file), cache, nothingHere);
  })
  .get('/sdk/:file', (c) => {
    const file = c.req.param('file');
    if (!libraryFiles.has(file)) throw notFound();
    return serveBuilt(
      c,
      join(distDirOf(c), 'sdk', file),
      {
        // Module scripts from another origin need CORS; the library is public.
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
        // Not content-hashed: partners link this address, so a new release must reach them.
        'Cache-Control': 'public, max-age=300',
      },
      notBuilt,
    );
  });

for (const file of publicFiles) {
  hostedRoutes.get(`/${file}`, (c) =>
    serveBuilt(
      c,
      join(appDirOf(c), file),
      { 'Cache-Control': 'public, max-age=86400' },
      nothingHere,
    ),
  );
}
