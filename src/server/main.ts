/** Binds the service to its port. Everything else happens in service.ts. */
import { Server, type ServerOptions } from 'node:http';
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from './config.js';
import { answerAtEndOfTurn } from './http/answers-per-turn.js';
import { closeConnectionsLingering } from './http/lingering-close.js';
import { createService } from './service.js';

/** Node's default for the time a whole request may take (`requestTimeout`). */
const nodeRequestTimeoutMs = 300_000;

/**
 * How long connections wait. Node closes an idle connection after 5 s by default, before a
 * load balancer (60 s for the common ones) or a client pool stops reusing it: a request sent
 * on it as it closes is lost (a 502 at the balancer; an upload the client cannot tell
 * happened). Kept open longer than they keep it, the balancer always closes first.
 * `headersTimeout` is above the idle time, as Node's documentation asks, so an idle socket
 * is never taken for a slow request; Node refuses a `requestTimeout` below it.
 */
function connectionTimeouts(keepAliveMs: number): ServerOptions {
  const headersTimeout = keepAliveMs + 1_000;
  return {
    keepAliveTimeout: keepAliveMs,
    headersTimeout,
    requestTimeout: Math.max(nodeRequestTimeoutMs, headersTimeout),
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const service = await createService(config);
  const serverOptions = connectionTimeouts(config.httpKeepAliveMs);
  const listening = {
    fetch: answerAtEndOfTurn(service.app.fetch),
    port: config.port,
    serverOptions,
  };
  const server = serve(listening, () => {
    const lines =
      config.role === 'worker'
        ? [`Extractor worker is running (health: http://localhost:${config.port}/healthz)`]
        : [
            `Extractor is running at ${config.publicBaseUrl}${config.role === 'api' ? ' (API only: runs are worked by worker processes)' : ''}`,
            `  API:  ${config.publicBaseUrl}/api  (docs: ${config.publicBaseUrl}/api/docs)`,
          ];
    if (service.firstToken) {
      lines.push(
        '',
        'Your personal access token (shown only this once; keep it somewhere safe):',
        `  ${service.firstToken}`,
        '',
        `Try: curl -H "Authorization: Bearer ${service.firstToken}" ${config.publicBaseUrl}/api/extractors`,
      );
    }
    process.stdout.write(lines.join('\n') + '\n');
  });
  if (server instanceof Server) closeConnectionsLingering(server);
  let shuttingDown = false;
  /**
   * Takes no new connections, hands back the work in progress (the chunks in flight get
   * SHUTDOWN_GRACE_SECONDS to finish), lets the requests under way end, then closes what is
   * open. Event streams do not end by themselves: they are cut once the work is handed
   * back, and their clients reconnect elsewhere with Last-Event-ID.
   */
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    service.services.logger.info({ signal }, 'shutting down');
    // Whatever hangs past the grace and a little more is not waited for.
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 15_000).unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    await service.stopWork();
    const requestsEnded = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref()),
    ]);
    if (!requestsEnded && 'closeAllConnections' in server) {
      server.closeAllConnections();
      await closed;
    }
    await service.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error))}\n`,
  );
  process.exit(1);
});
