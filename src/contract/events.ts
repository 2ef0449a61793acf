/**
 * What a run tells the world while it works: the Server-Sent Events of
 * `GET /api/extraction_runs/{id}/events` and the webhook events POSTed to an extractor's
 * webhookUrl carry the same kinds and the same run snapshot.
 */
import * as z from 'zod/mini';
import { documentSummarySchema } from './resources.js';
import { runStatuses } from './run-status.js';

export const runEventTypes = [
  'extraction_run.started',
  'extraction_run.progress',
  'extraction_run.paused',
  'extraction_run.resumed',
  'extraction_run.completed',
  'extraction_run.partially_completed',
  'extraction_run.failed',
  'extraction_run.cancelled',
  'extraction_run.document_queued',
  'extraction_run.document_completed',
  'extraction_run.document_failed',
  'extraction_run.results_changed',
  'extraction_run.submitted',
] as const;
export type RunEventType = (typeof runEventTypes)[number];

/**
 * The webhook events, as issues #3 and #11 name them; `resumed`, `document_queued` and
 * `results_changed` are stream-only.
 */
export const webhookEventTypes = [
  'extraction_run.started',
  'extraction_run.progress',
  'extraction_run.paused',
  'extraction_run.completed',
  'extraction_run.partially_completed',
  'extraction_run.document_completed',
  'extraction_run.document_failed',
  'extraction_run.failed',
  'extraction_run.cancelled',
  'extraction_run.submitted',
] as const satisfies readonly RunEventType[];
export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * The `data` of every run event: enough to redraw a run without fetching it. A document
 * event (`document_queued`, `document_completed`, `document_failed`) also carries the
 * `document` it is about, with that document's data.
 */
export const runEventDataSchema = z.object({
  run: z.string(),
  status: z.enum(runStatuses),
  chunksCompleted: z.number(),
  chunksTotal: z.nullable(z.number()),
  partialResultJson: z.nullable(z.string()),
  error: z.nullable(z.string()),
  documents: z.array(documentSummarySchema),
  document: z.optional(
    z.extend(documentSummarySchema, {
      data: z
        .nullable(z.unknown())
        .check(
          z.describe("The document's record (a person's edits included); null until it completed."),
        ),
    }),
  ),
});
export type RunEventData = z.infer<typeof runEventDataSchema>;

/** A webhook delivery's body (Standard Webhooks: `type`, `timestamp`, `data`). */
export const webhookPayloadSchema = z.object({
  type: z.enum(webhookEventTypes),
  // A date-time for the OpenAPI document; the browser's build leaves the format out.
  timestamp: z.string().check(z.meta({ format: 'date-time' })),
  data: z.object({
    ...runEventDataSchema.shape,
    bucket: z.string(),
    savedExtractor: z.string(),
    resultJson: z.nullable(z.string()),
    redirectUrl: z.optional(z.string()),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
