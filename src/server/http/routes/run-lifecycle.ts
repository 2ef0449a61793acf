/**
 * Starting and steering runs: create, pause/resume/cancel, the live event stream, the
 * results (read, edit) and the submission. Served under `/api/extraction_runs` and
 * `/api/runs` alike.
 */
import type { Hono } from 'hono';
import { runInputSchema } from '../../../contract/resources.js';
import type { RunCommand } from '../../../contract/run-status.js';
import { isFinalRunStatus, type RunStatus } from '../../../contract/run-status.js';
import { runEventData, runEventsAfter } from '../../runs/events.js';
import {
  formatResults,
  resultContentTypes,
  resultFormats,
  resultMediaTypes,
  resultsContentDisposition,
  type ResultFormat,
} from '../../runs/result-formats.js';
import { effectiveResultJson, findRun, runToWire } from '../../runs/runs.js';
import { readInput, readBodyText } from '../body.js';
import type { AppEnv } from '../context.js';
import { runKind, submissionKind } from '../kinds.js';
import { badQuery, badRequest, conflict, notAcceptable, unsupportedMediaType } from '../problem.js';
import { chooseRepresentation, sendResource } from '../respond.js';
import { essence, negotiate } from '../negotiation.js';
import { runCollections, visibleRun } from './runs.js';

const commands: RunCommand[] = ['pause', 'resume', 'cancel'];

/** `?format=` wins over `Accept`; `text/xml` is read as XML too. */
function chooseResultFormat(query: string | undefined, accept: string | undefined): ResultFormat {
  if (query !== undefined) {
    if (!resultFormats.includes(query as ResultFormat))
      throw badQuery('format', `must be one of ${resultFormats.join(', ')}`);
    return query as ResultFormat;
  }
  const offered = [...Object.values(resultMediaTypes), 'text/xml'] as const;
  const chosen = negotiate(accept, offered);
  if (!chosen) throw notAcceptable(offered);
  if (chosen === 'text/xml') return 'xml';
  return resultFormats.find((format) => resultMediaTypes[format] === chosen)!;
}

/** How long an idle stream waits before a heartbeat comment, and before looking again itself. */
const heartbeatMs = 15_000;
const pollMs = 2_000;

export function registerRunLifecycleRoutes(app: Hono<AppEnv>): void {
  for (const base of runCollections) {
    app.post(base, async (c) => {
      const mediaType = chooseRepresentation(c);
      const input = await readInput(c.req.raw, runInputSchema);
      const run = await c.get('services').runs.create(input, c.get('principal'));
      const wire = runToWire(run);
      return sendResource(runKind, wire, mediaType, {
        status: 201,
        headers: { Location: runKind.iri(wire) },
      });
    });

    for (const command of commands) {
      app.post(`${base}/:id/${command}`, async (c) => {
        const mediaType = chooseRepresentation(c);
        const run = await visibleRun(c);
        const updated = await c.get('services').runs.command(run, command);
        return sendResource(runKind, runToWire(updated), mediaType);
      });
    }

    app.get(`${base}/:id/results`, async (c) => {
      const format = chooseResultFormat(c.req.query('format'), c.req.header('accept'));
      const run = await visibleRun(c);
      const version = c.req.query('version') ?? 'current';
      if (version !== 'current' && version !== 'original') {
        throw badQuery('version', 'must be "current" (the default) or "original"');
      }
      const text = version === 'original' ? run.result_json : effectiveResultJson(run);
      if (text === null) {
        throw conflict(`The run is ${run.status}; it has no results yet.`, {
          currentStatus: run.status,
        });
      }
      const extractor = await c
        .get('services')
        .db.selectFrom('extractors')
        .select('label')
        .where('id', '=', run.extractor_id)
        .executeTakeFirst();
      return new Response(formatResults(JSON.parse(text) as unknown, format), {
        headers: {
          'Content-Type': resultContentTypes[format],
          'Content-Disposition': resultsContentDisposition(
            extractor?.label ?? 'results',
            run.id,
            format,
          ),
          Vary: 'Accept',
        },
      });
    });

    app.put(`${base}/:id/results`, async (c) => {
      const mediaType = chooseRepresentation(c);
      const run = await visibleRun(c);
      const type = essence(c.req.header('content-type'));
      if (type !== 'application/json') {
        throw unsupportedMediaType('Send the edited results as application/json.', [
          'application/json',
        ]);
      }
      const text = await readBodyText(c.req.raw);
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        throw badRequest(`The body is not valid JSON: ${(error as Error).message}.`);
      }
      const updated = await c.get('services').runs.saveEdits(run, data);
      return sendResource(runKind, runToWire(updated), mediaType);
    });

    app.post(`${base}/:id/submit`, async (c) => {
      const mediaType = chooseRepresentation(c);
      const run = await visibleRun(c);
      const submission = await c.get('services').runs.submit(run);
      return sendResource(submissionKind, submission, mediaType);
    });

    app.get(`${base}/:id/events`, async (c) => {
      if (!negotiate(c.req.header('accept'), ['text/event-stream']))
        throw notAcceptable(['text/event-stream']);
      const run = await visibleRun(c);
      const rawLastId = c.req.header('last-event-id') ?? c.req.query('lastEventId') ?? '0';
      if (!/^\d{1,15}$/.test(rawLastId))
        throw badRequest('Last-Event-ID must be the id of an earlier event.');
      const { db, signals } = c.get('services');
      const abort = new AbortController();
      c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
      const encoder = new TextEncoder();

      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          const send = (text: string) => controller.enqueue(encoder.encode(text));
          let lastId = Number(rawLastId);
          send(`retry: 2000\n\nevent: snapshot\ndata: ${JSON.stringify(runEventData(run))}\n\n`);
          try {
            let idleSince = Date.now();
            while (!abort.signal.aborted) {
              // The run before its events: a run seen final has committed all its events,
              // so they are all among those read next. (The other way round, the last one
              // could commit between the two reads and never be sent.)
              const current = await findRun(db, run.id);
              const events = await runEventsAfter(db, run.id, lastId);
              for (const event of events) {
                send(
                  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`,
                );
                lastId = event.id;
              }
              if (events.length > 0) idleSince = Date.now();
              // The stream ends once the run is final and every event up to it has been sent.
              if (
                !current ||
                (isFinalRunStatus(current.status as RunStatus) && events.length === 0)
              )
                break;
              if (Date.now() - idleSince >= heartbeatMs) {
                send(': keep-alive\n\n');
                idleSince = Date.now();
              }
              if (events.length === 0) await signals.waitForRun(run.id, pollMs, abort.signal);
            }
          } catch (error) {
            if (!abort.signal.aborted)
              c.get('services').logger.warn({ err: error, run: run.id }, 'event stream failed');
          }
          controller.close();
        },
        cancel() {
          abort.abort();
        },
      });
      return new Response(body, {
        headers: {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store',
          'X-Accel-Buffering': 'no',
        },
      });
    });
  }
}
