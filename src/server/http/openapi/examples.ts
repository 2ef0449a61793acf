/**
 * The examples of the OpenAPI document's request bodies: what a partner's first requests
 * look like, one invoice extractor throughout. The contract test
 * (src/server/api-contract.test.ts) sends every one of them to the real service and checks
 * the answer against the document, so an example that stops being true fails there, not in
 * a partner's hands.
 */
import type { InputResourceKey } from './resources.js';

/**
 * Ids as the service makes them (UUID version 7). Nothing has them: a run or a session
 * example sent as it is answers 422 naming its references, until a reader puts theirs.
 */
const exampleBucketId = '0196a2c4-5e1f-7b3a-9c2d-4e5f6a7b8c9d';
const exampleExtractorId = '0196a2c4-4d0e-7a29-8b1c-3d4e5f6a7b8c';

/** The record an invoice extractor's schema describes. */
export const invoiceRecordExample = { invoice_number: 'F 1234/2025', total: 316.83 };

export const inputExamples: Record<InputResourceKey, Record<string, unknown>> = {
  bucket: { description: 'Invoices of March 2025' },
  extractor: {
    label: 'Invoices',
    jsonSchema: JSON.stringify({
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'As printed on the invoice' },
        total: { type: ['number', 'null'], description: 'Amount due, tax included' },
      },
      required: ['invoice_number'],
    }),
    strategy: 'local',
    allowDownload: true,
  },
  run: {
    bucket: `/api/buckets/${exampleBucketId}`,
    savedExtractor: `/api/extractors/${exampleExtractorId}`,
  },
  session: {
    savedExtractor: `/api/extractors/${exampleExtractorId}`,
    ttlSeconds: 3600,
    allowedOrigins: ['https://partner.example'],
  },
};

/** `PUT …/results`: a person's record for one document, named by its file. */
export const resultsEditExample = {
  documents: [
    {
      file: `/api/buckets/${exampleBucketId}/files/0196a2c4-6f20-7c4b-8d3e-5f6a7b8c9d0e`,
      data: invoiceRecordExample,
    },
  ],
};

/** A GraphQL query, as `POST /api/graphql` takes it and `GET` takes its `query`. */
export const graphqlQueryExample = '{ savedExtractors { items { id label } } }';
