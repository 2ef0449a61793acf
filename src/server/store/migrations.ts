/**
 * Schema migrations, in order, one file each in migrations/. Each is written with Kysely's
 * schema builder and portable column types so the same migrations run on SQLite and
 * PostgreSQL. A migration that has shipped is frozen: never edit it, add the next one. It
 * imports nothing but Kysely (the lint holds it to that), so no change to the code of today
 * can change what it does to a store of yesterday.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { migration as initial } from './migrations/0001_initial.js';
import { migration as pagesAndChecks } from './migrations/0002_pages_and_checks.js';
import { migration as webhookOrder } from './migrations/0003_webhook_order.js';
import { migration as runDocuments } from './migrations/0004_run_documents.js';
import { migration as submissionAndSessions } from './migrations/0005_submission_and_sessions.js';
import { migration as documentPages } from './migrations/0006_document_pages.js';
import { migration as sessionLanguage } from './migrations/0007_session_language.js';
import { migration as documentErrorCodes } from './migrations/0008_document_error_codes.js';
import { migration as sessionRenewals } from './migrations/0009_session_renewals.js';
import { migration as previousWebhookSecret } from './migrations/0010_previous_webhook_secret.js';
import { migration as resultDrafts } from './migrations/0011_result_drafts.js';
import { migration as documentLanguages } from './migrations/0012_document_languages.js';

export type Dialect = 'sqlite' | 'postgres';

const migrationsFor = (dialect: Dialect): Record<string, Migration> => ({
  '0001_initial': initial(dialect),
  '0002_pages_and_checks': pagesAndChecks(dialect),
  '0003_webhook_order': webhookOrder(dialect),
  '0004_run_documents': runDocuments(dialect),
  '0005_submission_and_sessions': submissionAndSessions(dialect),
  '0006_document_pages': documentPages(dialect),
  '0007_session_language': sessionLanguage(dialect),
  '0008_document_error_codes': documentErrorCodes(dialect),
  '0009_session_renewals': sessionRenewals(dialect),
  '0010_previous_webhook_secret': previousWebhookSecret(dialect),
  '0011_result_drafts': resultDrafts(dialect),
  '0012_document_languages': documentLanguages(dialect),
});

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      return migrationsFor(dialect);
    },
  };
}
