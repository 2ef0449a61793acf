/**
 * A Vite plugin that forwards the service's paths (`/api`, `/sdk`) from the Vite server to
 * a running service, so the interface in `npm run dev` and the browser tests talk to the
 * real service from their own origin, with no CORS in between. The target is read on each
 * request: the browser tests' global setup starts the service on a free port and sets
 * EXTRACTOR_SERVICE_URL after Vite has started.
 */
import { request } from 'node:http';
import type { Plugin } from 'vite';

export const serviceUrlVariable = 'EXTRACTOR_SERVICE_URL';

const forwardedPaths = /^\/(api|sdk)(\/|$)/;

function serviceUrl(): string {
  return process.env[serviceUrlVariable] ?? `http://localhost:${process.env.PORT ?? 8787}`;
}

export function serviceProxy(): Plugin {
  return {
    name: 'extractor-service-proxy',
    configureServer(server) {
      server.middlewares.use((incoming, outgoing, next) => {
        if (!incoming.url || !forwardedPaths.test(incoming.url)) return next();
        const target = new URL(incoming.url, serviceUrl());
        const upstream = request(
          target,
          { method: incoming.method, headers: { ...incoming.headers, host: target.host } },
          (response) => {
            outgoing.writeHead(response.statusCode ?? 502, response.headers);
            // Event streams must reach the browser as they are written, not when they end.
            outgoing.flushHeaders();
            response.pipe(outgoing);
          },
        );
        upstream.on('error', () => {
          if (outgoing.headersSent) return outgoing.destroy();
          outgoing.writeHead(502, { 'Content-Type': 'text/plain' });
          outgoing.end(
            `The Extractor service is not reachable at ${serviceUrl()}. Start it with "npm start".`,
          );
        });
        incoming.on('aborted', () => upstream.destroy());
        outgoing.on('close', () => upstream.destroy());
        incoming.pipe(upstream);
      });
    },
  };
}
