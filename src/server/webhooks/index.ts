/**
 * The webhooks module as the rest of the service sees it: the run lifecycle enqueues in its
 * transactions, the service starts one dispatcher and kicks it after each commit.
 */
export { enqueueWebhook } from './outbox.js';
export { startWebhookDispatcher, type WebhookDispatcher } from './dispatcher.js';
export { webhookUrlProblem } from './address-policy.js';
