/**
 * Issue 24: the languages an extractor's documents are written in (`documentLanguages`, a
 * JSON list of ISO 639-1 codes; `[]`: OCR finds each page's language itself), kept on the
 * extractor and copied onto each run when it starts, like the content options. Frozen:
 * it imports nothing but Kysely.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export function migration(dialect: 'sqlite' | 'postgres'): Migration {
  // Text as every text column of the store: the "C" collation on PostgreSQL.
  const text = dialect === 'sqlite' ? 'text' : sql`text collate "C"`;
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['extractors', 'runs'])
        await db.schema
          .alterTable(table)
          .addColumn('document_languages', text, (col) => col.notNull().defaultTo('[]'))
          .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['runs', 'extractors'])
        await db.schema.alterTable(table).dropColumn('document_languages').execute();
    },
  };
}
