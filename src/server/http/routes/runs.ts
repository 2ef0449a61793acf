/**
 * Extraction runs, served under both `/api/runs` and `/api/extraction_runs` (the app mounts
 * these routes twice): the list and one run, starting and steering runs, the live event
 * stream, the results (read, edit, per document too), extracting a failed document again
 * (retry, replace its file) and the submission. The filter parameters the spec lists on
 * the single-run path have no effect there (it names one run).
 */
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import * as z from 'zod/mini';
import { runEventTypes } from '../../../contract/events.js';
import { idFromReference } from '../../../contract/iri.js';
import { isPlainObject } from '../../../contract/json-schema.js';
import {
  documentEditSchema,
  resultsEditSchema,
  runInputSchema,
  strategies,
  type RunResults,
} from '../../../contract/resources.js';
import {
  finalRunStatuses,
  reopenableRunStatuses,
  runCommandSources,
  runCommands,
  runStatuses,
  runTransitions,
  type RunCommand,
} from '../../../contract/run-status.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { runEventData } from '../../runs/events.js';
import {
  formatResults,
  resultContentTypes,
  resultFormats,
  resultMediaTypes,
  resultsDownloadName,
  type ResultFormat,
} from '../../runs/result-formats.js';
import {
  effectiveResultJson,
  findRun,
  listRuns,
  runToWire,
  type RunFilters,
  type RunRow,
} from '../../runs/runs.js';
import { startWatch, watchRun } from '../../run-lifecycle/watch.js';
import { extractorColumns } from '../../extractors/extractors.js';
import { pageWindow, type PageWindow } from '../../store/paging.js';
import { canSeeRun, checkDownloadAllowed } from '../../access/token-scopes.js';
import { tokenEnd } from '../../tokens/tokens.js';
import { accessTokenQuery } from '../auth.js';
import {
  absentWhenEmpty,
  ignoreServiceFields,
  parseJsonBody,
  readBodyText,
  readInput,
  serviceOrigins,
  validateHeaders,
  validateInput,
  validateQuery,
} from '../body.js';
import { contentDisposition } from '../content-disposition.js';
import type { AppEnv } from '../context.js';
import { runKind, submissionKind } from '../kinds.js';
import { localReference, lowerCaseIds } from '../references.js';
import { receivedFiles } from './files.js';
import { essence, negotiateOrThrow } from '../negotiation.js';
import {
  codeList,
  contentDispositionHeader,
  operationsOf,
  creationOf,
  listOf,
  readingOf,
  ignoredParameters,
  type TagObject,
} from '../openapi.js';
import { invoiceRecordExample, resultsEditExample } from '../openapi/examples.js';
import { schemaRef, type JsonSchema } from '../openapi/objects.js';
import { badRequest, tooManyRequests, unsupportedMediaType } from '../problem.js';
import {
  negotiated,
  pageNumber,
  personalOnly,
  sendCreated,
  sendPage,
  sendResource,
} from '../respond.js';
import { eventStreamsPerToken } from '../stream-slots.js';

/** The run state machine in words, from the tables of contract/run-status.ts. */
export function runLifecycleText(): string {
  const arrows = runStatuses
    .filter((status) => runTransitions[status].length > 0)
    .map((status) => `- \`${status}\` → ${codeList(runTransitions[status])}`);
  const commands = (Object.keys(runCommands) as RunCommand[]).map(
    (command) =>
      `- \`POST …/{id}/${command}\`: ${codeList(runCommandSources[command], ' or ')} → \`${runCommands[command]}\``,
  );
  return [
    `A run is \`${runStatuses[0]}\` when it is created. It moves only along these arrows; ` +
      `${codeList(finalRunStatuses)} are settled (the worker is done and the event stream ends).`,
    arrows.join('\n'),
    "A run's documents are the files of its bucket, each extracted on its own (with the " +
      "extractor's `combineFiles`, all of them as one document). The worker moves a run from " +
      '`queued` to `running`, then to `completed` when every document completed, to ' +
      '`partially_completed` when some completed and some failed (the completed records are ' +
      'there, and `error` says which documents failed and why), or to `failed` when every ' +
      'document failed or the run could not be worked at all. People and programs use the ' +
      'commands:',
    commands.join('\n'),
    `- \`POST …/{id}/documents/{fileId}/retry\` or \`…/replace\`: ${codeList(reopenableRunStatuses, ' or ')} → \`queued\`, ` +
      'for a failed document of a run not submitted; the worker then extracts just the documents ' +
      "that are not completed, and the others' records and a person's edits stay.",
    'A command the current status does not allow answers 409 with `currentStatus`. A pause ' +
      'takes effect between chunks; a resumed run is queued again and continues with the chunk ' +
      'after the last one done. `completed` and `cancelled` never change again; to run again, ' +
      'create a new run over the same bucket.',
  ].join('\n\n');
}

export const runsTag: TagObject = {
  name: 'Extraction runs',
  description:
    'Runs, at /api/runs and /api/extraction_runs (one resource under two names).\n\n' +
    runLifecycleText(),
};

const operation = operationsOf(runsTag);

/** The filters of the list: query parameters, and the properties they filter (Hydra). */
export const runFilterParameters = [
  { variable: 'result_json', property: 'resultJson' },
  { variable: 'partial_result_json', property: 'partialResultJson' },
  { variable: 'error', property: 'error' },
  { variable: 'model', property: 'model' },
  { variable: 'saved_extractor_id', property: 'savedExtractor' },
  { variable: 'strategy', property: 'strategy' },
  { variable: 'status', property: 'status' },
] as const;

const contains = (field: string) =>
  `Only runs whose ${field} contains this text (case-insensitive).`;

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(', ')}` });

/** Text a filter may leave out or leave empty, described. */
const optionalText = (description: string) =>
  absentWhenEmpty(z.optional(z.string())).check(z.describe(description));

/** The filters of `GET /api/runs`, in the order of the Hydra search template. */
const runFilters = z.object({
  result_json: optionalText(contains('resultJson')),
  partial_result_json: optionalText(contains('partialResultJson')),
  error: optionalText(contains('error')),
  model: optionalText('Only runs with this model (exact).'),
  saved_extractor_id: absentWhenEmpty(
    z.optional(
      z.pipe(
        z.string(),
        z.transform((reference, context) => {
          const id = idFromReference('extractor', lowerCaseIds(reference));
          if (id) return id;
          context.issues.push({
            code: 'custom',
            message: 'must be an extractor id or IRI',
            input: reference,
          });
          return z.NEVER;
        }),
      ),
    ),
  ).check(z.describe('Only runs of this extractor: its id or IRI (exact).')),
  strategy: absentWhenEmpty(z.optional(z.enum(strategies, oneOf(strategies)))).check(
    z.describe('Only runs with this strategy (exact).'),
  ),
  status: absentWhenEmpty(z.optional(z.enum(runStatuses, oneOf(runStatuses)))).check(
    z.describe('Only runs in this status (exact).'),
  ),
});

/** The query of `GET /api/runs`: the page and the filters. */
const runListQuery = z.object({ page: pageNumber, ...runFilters.shape });

function readRunListQuery(c: Context<AppEnv>): { window: PageWindow; filters: RunFilters } {
  const query = validateQuery(runListQuery, c.req.queries());
  return {
    window: pageWindow(query.page),
    filters: {
      resultJson: query.result_json,
      partialResultJson: query.partial_result_json,
      error: query.error,
      model: query.model,
      savedExtractorId: query.saved_extractor_id,
      strategy: query.strategy,
      status: query.status,
    },
  };
}

/** The run named in the path, if the caller may see it. */
async function visibleRun(c: Context<AppEnv>): Promise<RunRow> {
  const run = await findRun(c.get('services').db, c.req.param('id')!);
  if (!run || !canSeeRun(c.get('principal'), run)) throw new NotFoundError();
  return run;
}

/** The body of a PUT as JSON; 415 for another media type, 400 for JSON that does not parse. */
async function readJsonBody(c: Context<AppEnv>, what: string): Promise<unknown> {
  if (essence(c.req.header('content-type')) !== 'application/json') {
    throw unsupportedMediaType(`Send ${what} as application/json.`, ['application/json']);
  }
  return parseJsonBody(await readBodyText(c.req.raw));
}

/** What GET …/results writes in each document beside `file` and `data`. */
const serviceResultFields = ['files', 'name', 'status', 'error'] as const;

/**
 * Edited results without what the service writes in them: a client may send back
 * GET …/results as it read it, with only the records changed (`ignoreServiceFields`), and
 * its files' IRIs made paths.
 */
function withoutServiceResultFields(c: Context<AppEnv>, body: unknown): unknown {
  if (!isPlainObject(body) || !Array.isArray(body.documents)) return body;
  const origins = serviceOrigins(c);
  const documents = body.documents.map((document: unknown, index) => {
    if (!isPlainObject(document)) return document;
    const edit = ignoreServiceFields(
      c,
      document,
      documentEditSchema,
      serviceResultFields,
      (field) => `/documents/${index}/${field}`,
    );
    // A file's IRI may come absolute, as a JSON-LD client holds it.
    if (typeof edit.file === 'string')
      edit.file = localReference(edit.file, c.req.url, origins) ?? edit.file;
    return edit;
  });
  return { ...body, documents };
}

const resultQuery = z.object({
  format: absentWhenEmpty(z.optional(z.enum(resultFormats, oneOf(resultFormats)))).check(
    z.describe('The format; overrides Accept (where `text/xml` counts as XML).'),
  ),
  version: absentWhenEmpty(
    z._default(
      z.enum(['current', 'original'], {
        error: 'must be "current" (the default) or "original"',
      }),
      'current',
    ),
  ).check(
    z.describe(
      "`current` (the default): the results with a person's edits, if any; `original`: " +
        "the machine's results.",
    ),
  ),
});

/**
 * When a token refused another stream may try again. A stream's place is free as soon as its
 * client goes; a browser that reloads frees the old page's at once.
 */
const streamRetrySeconds = 5;

/** An event id to resume after, as Last-Event-ID or `?lastEventId=` carries it. */
const eventId = z
  .string()
  .check(z.regex(/^\d{1,15}$/, { error: 'must be the id of an earlier event' }));

/** The query of the event stream: EventSource can send neither a token nor Last-Event-ID. */
const eventStreamQuery = z.object({
  ...accessTokenQuery.shape,
  lastEventId: z
    .optional(eventId)
    .check(z.describe('Resume after this event id, for clients that cannot send Last-Event-ID.')),
});

const eventStreamHeaders = z.object({
  'Last-Event-ID': z.optional(eventId).check(z.describe('Resume after this event id.')),
});

/**
 * XML under its other name (RFC 7303 makes `text/xml` and `application/xml` one type):
 * offered to Accept and documented, and answered under the name that was asked for.
 */
const textXml = 'text/xml';

/** `?format=` wins over `Accept`; `text/xml` is read as XML too. */
function chooseResultFormat(c: Context<AppEnv>): { format: ResultFormat; contentType: string } {
  const { format } = validateQuery(z.pick(resultQuery, { format: true }), c.req.queries());
  if (format) return { format, contentType: resultContentTypes[format] };
  const offered = [...Object.values(resultMediaTypes), textXml] as const;
  const chosen = negotiateOrThrow(c, offered);
  if (chosen === textXml) return { format: 'xml', contentType: `${textXml}; charset=utf-8` };
  const negotiated = resultFormats.find((candidate) => resultMediaTypes[candidate] === chosen)!;
  return { format: negotiated, contentType: resultContentTypes[negotiated] };
}

const resultSchemas: Record<ResultFormat, JsonSchema> = {
  json: schemaRef('RunResults'),
  xml: {
    type: 'string',
    description:
      'The documents as XML 1.0: `<results>` holding a `<document file="…" name="…" ' +
      'status="…">` per document with its `<data>` and `<error>`. Lists repeat their ' +
      'element, an empty list is one element with `items="0"`, null is `xsi:nil="true"`; ' +
      'text XML 1.0 cannot carry is its JSON string literal, marked `escaped="content"` ' +
      '(or, for an attribute, `escaped` naming it). docs/api/results.md.',
  },
  csv: {
    type: 'string',
    description:
      'The documents as CSV with a header row: `file`, `name`, `status`, `error`, then the ' +
      'fields; a row per document (per item of its list of objects, numbered in ' +
      '`<list>.#`, 0 when the list is empty). Null is an empty field, empty text `""`; ' +
      'other lists are JSON array text. docs/api/results.md.',
  },
};

/** A document of the run named in the path: its file's id. */
const documentPath = '/:id/documents/:fileId';

const commandSummaries: Record<RunCommand, string> = {
  pause: 'Pause a run',
  resume: 'Resume a paused run',
  cancel: 'Cancel a run',
};

export const runRoutes = new Hono<AppEnv>()
  .get(
    '/',
    operation('listRuns', 'List extraction runs', {
      description:
        'Newest first. Personal access tokens only. Filters are exact for ids and ' +
        'enumerations, substrings for text.',
      query: runListQuery,
      ...listOf('run'),
    }),
    personalOnly,
    negotiated,
    async (c) => {
      const { window: page, filters } = readRunListQuery(c);
      const { rows, total } = await listRuns(c.get('services').db, filters, page);
      return sendPage(
        c,
        runKind,
        rows.map(runToWire),
        { window: page, total },
        { filters: runFilterParameters, plainJsonApiArray: true },
      );
    },
  )
  .post(
    '/',
    operation('createRun', 'Start an extraction run', {
      description:
        "A `queued` run of the extractor over the bucket, with the extractor's settings unless " +
        "the body overrides them. The run copies the extractor's jsonSchema into targetSchema " +
        'now. A bucket without files answers 422. An embed session token runs with the ' +
        "extractor's settings: setting any of them answers 403 naming each.",
      ...creationOf('run'),
      problems: [...creationOf('run').problems, 403],
    }),
    negotiated,
    async (c) => {
      const input = await readInput(c, runInputSchema, { kind: runKind });
      const run = await c.get('services').runs.create(input, c.get('principal'));
      const wire = runToWire(run);
      return sendCreated(c, runKind, wire);
    },
  )
  .get(
    '/:id',
    operation('getRun', 'Retrieve an extraction run', {
      description: 'Polling this is an alternative to the event stream.',
      query: ignoredParameters(runFilters, 'on a single run'),
      ...readingOf('run'),
    }),
    negotiated,
    async (c) => sendResource(c, runKind, runToWire(await visibleRun(c))),
  );

for (const command of Object.keys(runCommands) as RunCommand[]) {
  runRoutes.post(
    `/:id/${command}`,
    operation(`${command}Run`, commandSummaries[command], {
      description:
        `Moves the run to \`${runCommands[command]}\`; ` +
        'any other status answers 409 with `currentStatus`.',
      answer: { status: 200, resource: 'run', description: 'The run after the change.' },
      problems: [404, 406, 409],
    }),
    negotiated,
    async (c) => {
      const run = await visibleRun(c);
      const updated = await c.get('services').runs.command(run, command);
      return sendResource(c, runKind, runToWire(updated));
    },
  );
}

runRoutes
  .get(
    '/:id/results',
    operation('getResults', 'Download the results of a run', {
      description:
        'One entry per document, in the order of the bucket (a one-file bucket gives one): ' +
        '`{"documents": [{file, name, status, data, error}]}`. As JSON, XML (element names ' +
        'made valid, arrays as repeated elements, an empty one as `items="0"`, text XML ' +
        'cannot carry as a JSON literal marked `escaped`) or CSV (RFC 4180; a `file` column ' +
        'first; nested objects as dotted columns; lists as JSON array text; null an empty ' +
        'field, empty text `""`; one row per document, or per item of its array of objects, ' +
        'numbered in `<list>.#`; cells that a spreadsheet would read as a formula, after ' +
        'leading blanks and in full-width forms too, are neutralised). Read with the types ' +
        'of targetSchema, XML and CSV give back the JSON exactly. ' +
        'Chosen by `format`, else by Accept. ' +
        '409 until a document has completed; 403 to an embed session token when the ' +
        "extractor's allowDownload is off.",
      query: resultQuery,
      answer: {
        status: 200,
        description: 'The results, as a download.',
        content: {
          ...Object.fromEntries(
            resultFormats.map((format) => [
              resultMediaTypes[format],
              { schema: resultSchemas[format] },
            ]),
          ),
          [textXml]: { schema: resultSchemas.xml },
        },
        headers: { 'Content-Disposition': contentDispositionHeader },
      },
      problems: [400, 403, 404, 406, 409],
    }),
    async (c) => {
      const { format, contentType } = chooseResultFormat(c);
      const run = await visibleRun(c);
      const { version } = validateQuery(resultQuery, c.req.queries());
      const text = version === 'original' ? run.result_json : effectiveResultJson(run);
      if (text === null)
        throw new ConflictError(`The run is ${run.status}; it has no results yet.`, run.status);
      const extractor = await extractorColumns(c.get('services').db, run.extractor_id, [
        'label',
        'allow_download',
      ]);
      checkDownloadAllowed(c.get('principal'), extractor);
      const label = extractor?.label ?? 'results';
      const { name, asciiName } = resultsDownloadName(label, run.id, format);
      return new Response(formatResults(JSON.parse(text) as RunResults, format), {
        headers: {
          'Content-Type': contentType,
          'Content-Disposition': contentDisposition(name, { asciiName }),
          Vary: 'Accept',
        },
      });
    },
  )
  .put(
    '/:id/results',
    operation('saveResults', 'Save results edited by a person', {
      description:
        '`{"documents": [{file, data}]}`: each record replaces the record of the completed ' +
        'document whose `file` (IRI or id) it names; a document left out keeps its record. ' +
        'Each is validated against targetSchema (422 with a JSON pointer for each violation) ' +
        "and replaces its document's draft, if any. " +
        "The machine's original stays readable as resultJson and with `?version=original`. " +
        '409 unless the run is completed or partially_completed, or after submission.',
      body: {
        description: 'The edited records, by document.',
        content: {
          'application/json': { schema: schemaRef('ResultsEdit'), example: resultsEditExample },
        },
      },
      answer: {
        status: 200,
        resource: 'run',
        description: 'The run with the edits (editedResultJson, data).',
      },
      problems: [400, 404, 406, 408, 409, 413, 415, 422],
    }),
    negotiated,
    async (c) => {
      const run = await visibleRun(c);
      const body = await readJsonBody(c, 'the edited results');
      const edit = validateInput(resultsEditSchema, withoutServiceResultFields(c, body));
      const updated = await c.get('services').runs.saveEdits(run, edit);
      return sendResource(c, runKind, runToWire(updated));
    },
  )
  .put(
    `${documentPath}/results`,
    operation('saveDocumentResults', "Save one document's record edited by a person", {
      description:
        'The record of the completed document of this file as a person edited it, saved ' +
        'whether or not targetSchema accepts it yet (so work in progress survives a reload). ' +
        "One the schema accepts becomes the document's record (editedResultJson, data, " +
        "results) and ends its draft; one it does not accept yet is kept as the person's " +
        'draft in draftResultJson, the records keeping the last one the schema accepted, and ' +
        'submission answers 422 with a JSON pointer for each violation. The other ' +
        'documents keep theirs. 404 ' +
        'for a file that is not a document of the run; 409 unless the run is completed or ' +
        'partially_completed and the document completed, or after submission.',
      body: {
        description: "The edited record, shaped by the run's targetSchema.",
        content: {
          'application/json': {
            schema: { description: 'Any JSON value valid against targetSchema.' },
            example: invoiceRecordExample,
          },
        },
      },
      answer: {
        status: 200,
        resource: 'run',
        description: 'The run with the edit (a record, or a draft in draftResultJson).',
      },
      problems: [400, 404, 406, 409, 413, 415],
    }),
    negotiated,
    async (c) => {
      const run = await visibleRun(c);
      const data = await readJsonBody(c, 'the edited record');
      const updated = await c
        .get('services')
        .runs.saveDocumentEdit(run, c.req.param('fileId'), data);
      return sendResource(c, runKind, runToWire(updated));
    },
  )
  .post(
    `${documentPath}/retry`,
    operation('retryDocument', 'Extract a failed document again', {
      description:
        'For a document that failed for a passing reason (the model provider was down). The ' +
        'run goes back to `queued` and the worker extracts just the documents that are not ' +
        "completed; the other documents' records and a person's edits stay. 404 for a file " +
        'that is not a document of the run; 409 (`currentStatus`) unless the run is ' +
        'partially_completed or failed, not submitted, and the document failed.',
      answer: { status: 202, resource: 'run', description: 'The run, queued again.' },
      problems: [404, 406, 409],
    }),
    negotiated,
    async (c) => {
      const run = await visibleRun(c);
      const updated = await c.get('services').runs.extractAgain(run, c.req.param('fileId'));
      return sendResource(c, runKind, runToWire(updated), { status: 202 });
    },
  )
  .post(
    `${documentPath}/replace`,
    operation('replaceDocument', "Replace a failed document's file and extract it", {
      description:
        'One `file` part, checked as uploads are. The new file is stored in the bucket, the ' +
        'old one removed, the document reads the new file in the same place, and the run ' +
        'goes back to `queued` to extract it; the other documents and their edits stay. 404 ' +
        'for a file that is not a document of the run; 409 (`currentStatus`) unless the run ' +
        'is partially_completed or failed, not submitted, and the document failed, and ' +
        'while another queued, running or paused run of the bucket is to read the old file ' +
        '(removing it is refused then too).',
      body: {
        description: 'multipart/form-data with one `file` part.',
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                file: { type: 'string', contentMediaType: 'application/octet-stream' },
              },
              required: ['file'],
            },
          },
        },
      },
      answer: { status: 202, resource: 'run', description: 'The run, queued again.' },
      problems: [400, 404, 406, 408, 409, 413, 415],
    }),
    negotiated,
    async (c) => {
      const run = await visibleRun(c);
      const received = await receivedFiles(
        c,
        'Send the new file as multipart/form-data in one part named "file".',
      );
      const { storage } = c.get('services');
      if (received.length !== 1) {
        await Promise.all(received.map((file) => storage.discard(file.tempPath)));
        throw badRequest('Send exactly one file to put in place of the document.');
      }
      const updated = await c
        .get('services')
        .runs.extractAgain(run, c.req.param('fileId'), received[0]);
      return sendResource(c, runKind, runToWire(updated), { status: 202 });
    },
  )
  .post(
    '/:id/submit',
    operation('submitResults', 'Submit the results', {
      description:
        'Once per run (again answers 409), and once per bucket unless the extractor sets ' +
        '`allowResubmission` (another run over a submitted bucket answers 409). A run with a ' +
        "person's draft (draftResultJson: a record targetSchema does not accept) answers 422 " +
        'with a pointer into it (`/documents/{i}/data/...`). Fires `extraction_run.submitted` ' +
        "and answers with the extractor's redirectUrl.",
      answer: { status: 200, resource: 'submission' },
      problems: [404, 406, 409, 422],
    }),
    negotiated,
    async (c) => {
      const run = await visibleRun(c);
      const submission = await c.get('services').runs.submit(run);
      return sendResource(c, submissionKind, submission);
    },
  )
  .get(
    '/:id/events',
    operation('streamRunEvents', 'Follow a run live (Server-Sent Events)', {
      description:
        'First a `snapshot` event with the run as it is, then the events ' +
        `${codeList(runEventTypes)} as they happen, each with a RunEvent as \`data\` ` +
        'and an `id` to resume after with Last-Event-ID. Without Last-Event-ID (or with one ' +
        "past the run's last event, which no stream of it gave out) the snapshot stands for " +
        "the run's history: it carries the id of the run's last event, and only later events " +
        'follow (Last-Event-ID `0` replays them all). With Last-Event-ID the snapshot carries ' +
        'no id and every event after that one follows. The stream ends once the run is ' +
        'final, and when the token is revoked or expires (within five seconds). Resuming ' +
        'after the last event of a final run answers 204, which tells EventSource to stop ' +
        `reconnecting. A token holds at most ${eventStreamsPerToken.session} open streams ` +
        `(an embed session) or ${eventStreamsPerToken.personal} (a personal access token) ` +
        'in one process; another answers 429 with Retry-After. An embed session token may ' +
        'come as `?access_token=` because EventSource cannot send headers; a personal access ' +
        'token may not.',
      query: eventStreamQuery,
      headers: eventStreamHeaders,
      answer: {
        status: 200,
        description: 'An event stream that stays open while the run can still change.',
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: 'Events whose data is a RunEvent.' },
          },
        },
      },
      problems: [400, 404, 406, 429],
      otherResponses: {
        '204': {
          description:
            'The run is final and nothing happened after Last-Event-ID: there is nothing more ' +
            'to follow.',
        },
      },
      access: 'bearer-or-query',
    }),
    async (c) => {
      negotiateOrThrow(c, ['text/event-stream']);
      const run = await visibleRun(c);
      // The header, when there is one, is what EventSource sends on reconnecting.
      const lastSeen =
        validateHeaders(eventStreamHeaders, c.req.raw.headers)['Last-Event-ID'] ??
        validateQuery(eventStreamQuery, c.req.queries()).lastEventId;
      const { db, signals, logger, streamSlots } = c.get('services');
      const start = await startWatch(
        db,
        run,
        lastSeen === undefined ? undefined : Number(lastSeen),
      );
      // An EventSource reconnects whenever a stream ends: after the end of a run, this
      // answer is what stops it, rather than a new snapshot every few seconds forever.
      if (start.kind === 'settled') return c.body(null, 204);
      const principal = c.get('principal');
      const releaseSlot = streamSlots.take(principal);
      if (!releaseSlot)
        throw tooManyRequests(
          `This token already has ${eventStreamsPerToken[principal.kind]} event streams open, ` +
            'the most it may; close one first.',
          streamRetrySeconds,
        );
      const abort = new AbortController();
      c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
      // A stream outlives no token: revoking it, or its expiry, ends the stream.
      tokenEnd(db, principal.tokenId, abort.signal).addEventListener('abort', () => abort.abort(), {
        once: true,
      });
      const response = streamSSE(c, async (stream) => {
        stream.onAbort(() => abort.abort());
        try {
          // A snapshot that stands for the events so far carries the last one's id, so a
          // client that reconnects resumes after it; one sent on resuming carries none.
          const snapshot = start.kind === 'snapshot' ? start.run : run;
          await stream.writeSSE({
            event: 'snapshot',
            data: JSON.stringify(runEventData(snapshot)),
            ...(start.kind === 'snapshot' ? { id: String(start.after) } : {}),
            retry: 2000,
          });
          const items = watchRun(db, signals, run.id, start.after, { signal: abort.signal });
          for await (const item of items) {
            if (item.kind === 'idle') await stream.write(': keep-alive\n\n');
            else {
              const { id, type, data } = item.event;
              await stream.writeSSE({ id: String(id), event: type, data: JSON.stringify(data) });
            }
          }
        } catch (error) {
          if (!abort.signal.aborted)
            logger.warn({ err: error, run: run.id }, 'event stream failed');
        } finally {
          abort.abort();
          releaseSlot();
        }
      });
      // The stream's own headers: never stored by any cache, and not held back by a proxy.
      response.headers.set('Content-Type', 'text/event-stream; charset=utf-8');
      response.headers.set('Cache-Control', 'no-store');
      response.headers.set('X-Accel-Buffering', 'no');
      return response;
    },
  );
