/**
 * The envelope of GraphQL over HTTP at `/api/graphql`: what a client sends and what it
 * gets back (the GraphQL-over-HTTP draft). The fields inside `data` are the GraphQL
 * schema's own business; the server prints that schema in its API documentation.
 */
import * as z from 'zod/mini';

export const graphqlRequestSchema = z.object({
  query: z
    .string()
    .check(z.describe('The GraphQL document, e.g. `{ savedExtractors { items { id label } } }`.')),
  variables: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  operationName: z.optional(z.nullable(z.string())),
});
export type GraphqlRequest = z.infer<typeof graphqlRequestSchema>;

export const graphqlErrorSchema = z.object({
  message: z.string(),
  locations: z.optional(z.array(z.object({ line: z.int(), column: z.int() }))),
  path: z.optional(z.array(z.union([z.string(), z.int()]))),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});
export type GraphqlError = z.infer<typeof graphqlErrorSchema>;

export const graphqlResponseSchema = z.object({
  data: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  errors: z.optional(z.array(graphqlErrorSchema)),
});
export type GraphqlResponse = z.infer<typeof graphqlResponseSchema>;
