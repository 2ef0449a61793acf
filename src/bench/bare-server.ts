/**
 * The baselines the HTTP benchmarks measure the service against: node:http and nothing
 * else, in a process of its own like the service. It prints the port it listens on.
 *
 *   bare-server.ts answer FILE [MICROSECONDS]
 *                                answers every request with the status, headers and body
 *                                recorded in FILE (JSON: { status, headers, body }), after
 *                                keeping the CPU busy for MICROSECONDS (default 0): the
 *                                calibration of what a little work per request costs
 *   bare-server.ts store DIR     streams each request body into a new file in DIR, flushes
 *                                it to disk (as the service does before its 201), answers 201
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function answer(file: string, workMicroseconds: number): RequestListener {
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as RecordedAnswer;
  const body = Buffer.from(recorded.body);
  return (request, response) => {
    request.resume();
    const until = performance.now() + workMicroseconds / 1000;
    while (performance.now() < until);
    response.writeHead(recorded.status, { ...recorded.headers, 'Content-Length': body.length });
    response.end(body);
  };
}

function store(directory: string): RequestListener {
  let count = 0;
  return (request, response) => {
    pipeline(
      request,
      createWriteStream(join(directory, `upload-${count++}`), { flush: true }),
    ).then(
      () => {
        response.writeHead(201, { 'Content-Type': 'application/json' });
        response.end('{}');
      },
      () => {
        response.writeHead(400);
        response.end();
      },
    );
  };
}

const [mode, target, work = '0'] = process.argv.slice(2);
if (!target || (mode !== 'answer' && mode !== 'store')) {
  process.stderr.write('Usage: bare-server.ts answer FILE [MICROSECONDS] | store DIR\n');
  process.exit(2);
}
const server = createServer(
  { keepAlive: true },
  mode === 'answer' ? answer(target, Number(work)) : store(target),
);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
