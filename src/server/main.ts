/** Binds the service to its port. Everything else happens in service.ts. */
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from './config.js';
import { answerAtEndOfTurn } from './http/answers-per-turn.js';
import { createService } from './service.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const service = await createService(config);
  const server = serve({ fetch: answerAtEndOfTurn(service.app.fetch), port: config.port }, () => {
    const lines = [
      `Extractor is running at ${config.publicBaseUrl}`,
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
  const shutdown = (signal: string) => {
    service.services.logger.info({ signal }, 'shutting down');
    server.close(() => {
      void service.close().then(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error))}\n`,
  );
  process.exit(1);
});
