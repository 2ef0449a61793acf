/**
 * Answers written together at the end of an event-loop turn.
 *
 * Under load one turn reads many requests (the poll phase), and the service answers most
 * of them without waiting on anything outside the process. Written the moment each is
 * ready, every answer's system call falls between two requests' work, and on loopback or
 * a small machine each one wakes the client up again; held until the turn's check phase
 * (setImmediate), the answers of the turn go out back to back. That halves the service's
 * CPU time per request in `npm run bench -- http`. A quiet server holds an answer only for
 * the rest of the turn it is in.
 */
import { atEndOfTurn } from '../end-of-turn.js';

let turnEnd: Promise<void> | undefined;

/** Settles at the end of the current event-loop turn, once for every caller. */
export function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise((resolve) =>
    atEndOfTurn(() => {
      turnEnd = undefined;
      resolve();
    }),
  );
  return turnEnd;
}

/** `fetch`, with each answer held until the end of the turn in which it was ready. */
export function answerAtEndOfTurn<Env>(
  fetch: (request: Request, env: Env) => Response | Promise<Response>,
): (request: Request, env: Env) => Promise<Response> {
  return async (request, env) => {
    const response = await fetch(request, env);
    await endOfTurn();
    return response;
  };
}
