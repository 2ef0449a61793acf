/**
 * The `webhooks` of the OpenAPI document: what the service POSTs to an extractor's
 * webhookUrl (webhooks/), one operation per event type.
 */
import { webhookEventTypes, type WebhookEventType } from '../../../contract/events.js';
import { schemaRef, type ParameterObject, type PathItem } from './objects.js';

const webhookSummaries: Record<WebhookEventType, string> = {
  'extraction_run.started': 'A run started working',
  'extraction_run.progress': 'A run finished a chunk',
  'extraction_run.paused': 'A run was paused',
  'extraction_run.completed': 'A run completed: every document has its record',
  'extraction_run.partially_completed':
    'A run ended with some documents completed and some failed; `error` says which and why',
  'extraction_run.document_completed':
    'A document of a run completed: `document.data` is its record',
  'extraction_run.document_failed': 'A document of a run failed; `document.error` says why',
  'extraction_run.failed':
    'A run failed: every document failed, or it could not be worked at all; `error` says why',
  'extraction_run.cancelled': 'A run was cancelled',
  'extraction_run.submitted': 'A person submitted the results',
};

export function webhookOperations(): Record<string, PathItem> {
  const header = (name: string, description: string): ParameterObject => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return Object.fromEntries(
    webhookEventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\W/g, '_')}`,
          summary: webhookSummaries[type],
          description:
            "POSTed to the extractor's webhookUrl when enableWebhook is on, signed as Standard " +
            'Webhooks says. Deliveries come from a durable outbox and are retried with ' +
            'exponential backoff and jitter.',
          tags: ['Webhooks'],
          parameters: [
            header('webhook-id', 'The message id: the same on every attempt of one delivery.'),
            header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'),
            header(
              'webhook-signature',
              '`v1,` then the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the ' +
                "extractor's webhookSecret.",
            ),
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaRef('WebhookPayload') } },
          },
          responses: {
            '2XX': { description: 'Received. Any other answer, or none, is retried later.' },
          },
        },
      },
    ]),
  );
}
