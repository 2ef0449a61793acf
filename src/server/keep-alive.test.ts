/**
 * Idle connections stay open longer than a load balancer keeps its own (60 s for the
 * common ones), so the balancer, never the service, closes them: on the real server, as
 * `npm start` runs it, with one socket driven by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRealServer, type RealServer } from './testing/real-server.js';

const servers: RealServer[] = [];
const dataDirs: string[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<RealServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-keep-alive-'));
  dataDirs.push(dataDir);
  const server = await startRealServer({ dataDir, env });
  servers.push(server);
  return server;
}

/** One connection to the server, its requests written by hand, its answers read whole. */
async function openConnection(server: RealServer) {
  const socket: Socket = connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return {
    isClosed: () => closed,
    /** `GET /healthz` on this connection: the answer's head, once its body is in. */
    async getHealth(): Promise<string> {
      received = '';
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(received);
        if (end >= 0 && length && received.length >= end + 4 + Number(length[1]))
          return received.slice(0, end);
        if (closed) throw new Error(`the connection closed; it had sent: ${received}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => socket.destroy(),
  };
}

describe('idle connections, on the real server', () => {
  it('keep a connection open 65 s by default, and say so in Keep-Alive', async () => {
    const connection = await openConnection(await start());
    const head = await connection.getHealth();
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).toMatch(/^keep-alive: timeout=65$/im);
    connection.close();
  });

  it('answer a second request on a connection idle past Node’s 5 s default', async () => {
    // Ten seconds configured, six waited: past Node's own 5 s, well inside the setting.
    const connection = await openConnection(await start({ HTTP_KEEP_ALIVE_SECONDS: '10' }));
    expect(await connection.getHealth()).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(connection.isClosed()).toBe(false);
    const second = await connection.getHealth();
    expect(second).toMatch(/^HTTP\/1\.1 200/);
    expect(second).toMatch(/^keep-alive: timeout=10$/im);
    connection.close();
  }, 30_000);
});
