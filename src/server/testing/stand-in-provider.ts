/**
 * A local stand-in for an OpenAI-compatible provider, speaking the chat-completions
 * protocol, so the browser and e2e tests can hold a run in `running` long enough to pause
 * it, watch it or reload the page in the middle of it.
 *
 *   - model `stand-in-slow` answers every chunk after a pause with nothing found;
 *   - model `stand-in-stalled` holds every chunk for a minute, as a provider writing a long
 *     answer does, so a run stays at its first chunk whatever the machine's load: a test
 *     looks at a reading run, pauses or cancels it without racing the run to its end;
 *   - model `stand-in-refusing` answers 400, as a provider with a wrong key does.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const standInModels = {
  slow: 'stand-in-slow',
  stalled: 'stand-in-stalled',
  refusing: 'stand-in-refusing',
} as const;

const stalledMs = 60_000;

export async function startStandInProvider(
  delayMs: number,
): Promise<{ server: Server; baseUrl: string }> {
  const answers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (part: Buffer) => (body += part.toString()));
    request.on('end', () => {
      const model = (JSON.parse(body || '{}') as { model?: string }).model;
      if (request.url !== '/chat/completions' || model === standInModels.refusing) {
        response.writeHead(400, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'Incorrect API key provided.' } }));
        return;
      }
      const answer = setTimeout(
        () => {
          answers.delete(answer);
          response.writeHead(200, { 'Content-Type': 'application/json' });
          response.end(
            JSON.stringify({
              choices: [{ message: { content: '{}' }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 10, completion_tokens: 2 },
            }),
          );
        },
        model === standInModels.stalled ? stalledMs : delayMs,
      );
      answers.add(answer);
      // A client that gave up (a cancelled run) gets no answer.
      response.on('close', () => {
        clearTimeout(answer);
        answers.delete(answer);
      });
    });
  }).listen(0, '127.0.0.1');
  server.on('close', () => answers.forEach((answer) => clearTimeout(answer)));
  if (!server.listening) await once(server, 'listening');
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
