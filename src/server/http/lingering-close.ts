/**
 * Lingering close, as nginx does it (`lingering_close`): an answer sent before its
 * request's body has all arrived (a 413 for an upload far over the limit, a 400 for a form
 * the parser gave up on) and that closes the connection is followed by a half-close, and
 * what the client still sends is read and dropped until it has sent it all, for at most
 * `lingerMs` and `lingerBytes`. Closed at once instead, the connection's unread bytes make
 * the kernel reset it, and a client still writing its body (undici, browsers) gets a broken
 * pipe or a reset and never reads the answer that is waiting for it.
 *
 * Node closes such a connection through `socket.destroySoon()` once the answer is written
 * (and @hono/node-server, through the same call, once its own drain of an unread body gives
 * up after 500 ms or 64 MB): that call is what lingers, for the socket's current request.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** How long, and how much more, a client may go on sending after the answer (nginx: 30 s). */
export const lingering = { ms: 30_000, bytes: 1024 * 1024 * 1024 };

function lingerAfter(request: IncomingMessage, socket: Socket, closeNow: () => void): () => void {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    // The whole body has arrived: nothing is left to reset the connection.
    if (request.complete || socket.destroyed) {
      closeNow();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), lingering.ms);
    timer.unref();
    let dropped = 0;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    // Our answer, then end of our side; the client's side is read to its end.
    socket.end();
    request.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > lingering.bytes) finish();
    });
    request.once('end', finish);
    request.once('error', finish);
    socket.once('close', () => clearTimeout(timer));
    request.resume();
  };
}

/** Makes every connection of `server` that closes after an early answer linger. */
export function closeConnectionsLingering(server: Server): void {
  server.on('request', (request: IncomingMessage, _response: ServerResponse) => {
    const socket = request.socket;
    const closeNow = Socket.prototype.destroySoon.bind(socket);
    socket.destroySoon = lingerAfter(request, socket, closeNow);
  });
}
