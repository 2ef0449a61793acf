/**
 * A partner's web site on another origin than the service: a plain HTTP server on its own
 * port (and, with `host: '127.0.0.2'`, its own address too) that serves the pages a test
 * gives it. Used for the iFrame and custom-element pages of the e2e suite.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PartnerSite {
  origin: string;
  /** Serves `body` at `path` (HTML unless another content type is given). */
  page(path: string, body: string, contentType?: string): string;
  close(): Promise<void>;
}

export async function startPartnerSite(options: { host?: string } = {}): Promise<PartnerSite> {
  const pages = new Map<string, { body: string; contentType: string }>();
  const server: Server = createServer((request, response) => {
    const found = pages.get(new URL(request.url ?? '/', 'http://partner').pathname);
    if (!found) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(200, { 'Content-Type': found.contentType, 'Cache-Control': 'no-store' })
      .end(found.body);
  });
  server.listen(0, options.host ?? '127.0.0.1');
  if (!server.listening) await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  const origin = `http://${address}:${port}`;
  return {
    origin,
    page(path, body, contentType = 'text/html; charset=utf-8') {
      pages.set(path, { body, contentType });
      return `${origin}${path}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
