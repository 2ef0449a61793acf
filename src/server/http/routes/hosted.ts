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
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import * as z from 'zod/mini';
import { verifyToken } from '../../tokens/tokens.js';
import { absentWhenEmpty, validateQuery } from '../body.js';
import { chooseEncoding, compressedFile, isCompressible } from '../compression.js';
import type { AppEnv } from '../context.js';
import { notFound } from '../problem.js';

/**
 * Where our Content-Type differs from Hono's table: extractor.d.ts holds TypeScript
 * declarations, readable in a browser tab (not an MPEG stream), and the answers for SVG,
 * JSON (custom-elements.json) and source maps stay as they were.
 */
const contentTypes: Record<string, string> = {
  '.ts': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const libraryFiles = new Set([
  'extractor.mjs',
  'extractor.js',
  'custom-elements.json',
  'extractor.d.ts',
  'embed.js',
]);
const isLibraryFile = (file: string): boolean =>
  libraryFiles.has(file) || /^locales\/[a-z]{2}\.js$/.test(file);
const publicFiles = new Set(['favicon.svg']);

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

async function readBuilt(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The query of the hosted pages: the embed session that opens them, if any. */
const hostedPageQuery = z.object({ session: absentWhenEmpty(z.optional(z.string())) });

/** The origins a session token allows to frame the embed page; none for anything else. */
async function framingOrigins(c: Context<AppEnv>): Promise<string[]> {
  const { session: token } = validateQuery(hostedPageQuery, c.req.queries());
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

/**
 * The files of the build in `folder`, by the request's path, through Hono's serveStatic
 * (which refuses `..`, encoded slashes and names the file system cannot hold). What the
 * build lacks goes on to the next handler.
 */
function builtFiles(folder: (c: Context<AppEnv>) => string): MiddlewareHandler<AppEnv> {
  return serveStatic<AppEnv>({ rewriteRequestPath: (path, c) => join(folder(c), path) });
}

/**
 * A found file of the build with `headers`, compressed
 * when the client accepts it and it is text (see compression.ts). `Vary` tells caches that
 * the answer depends on Accept-Encoding.
 */
function builtFileHeaders(headers: Record<string, string>): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    const contentType = contentTypes[extname(c.req.path)];
    if (contentType) c.header('Content-Type', contentType);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    if (!isCompressible(c.res.headers.get('Content-Type') ?? '')) return;
    c.header('Vary', 'Accept-Encoding', { append: true });
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (!encoding || c.req.method === 'HEAD') return;
    const content = Buffer.from(await c.res.arrayBuffer());
    const encoded = compressedFile(c.req.path, content, encoding);
    c.res = new Response(new Uint8Array(encoded ?? content), c.res);
    if (!encoded) return;
    c.res.headers.set('Content-Encoding', encoding);
    c.res.headers.set('Content-Length', String(encoded.length));
  });
}

const nothingHere = (): Response => {
  throw notFound();
};

const libraryHeaders = {
  // Module scripts from another origin need CORS; the library is public.
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  // Not content-hashed: partners link this address, so a new release must reach them.
  'Cache-Control': 'public, max-age=300',
};

export const hostedRoutes = new Hono<AppEnv>()
  .get('/x/:extractorId', page('page'))
  .get('/embed/:extractorId', page('embed'))
  .get(
    '/assets/:file',
    builtFileHeaders({ 'Cache-Control': 'public, max-age=31536000, immutable' }),
    builtFiles(appDirOf),
    nothingHere,
  )
  // The library and, beside it, its catalogues (a partner's page imports the one of its
  // locale). One route for both: beside `/sdk/:file`, a `/sdk/locales/:file` would cost
  // every request of the service Hono's fastest router (RegExpRouter refuses the pair).
  .get(
    '/sdk/:file{.+}',
    async (c, next) => {
      if (!isLibraryFile(c.req.param('file'))) throw notFound();
      await next();
    },
    builtFileHeaders(libraryHeaders),
    builtFiles(distDirOf),
    // A catalogue the build lacks is a locale we do not have, not an unfinished build.
    (c) => (c.req.param('file').startsWith('locales/') ? nothingHere() : notBuilt()),
  );

for (const file of publicFiles) {
  hostedRoutes.get(
    `/${file}`,
    builtFileHeaders({ 'Cache-Control': 'public, max-age=86400' }),
    builtFiles(appDirOf),
    nothingHere,
  );
}
