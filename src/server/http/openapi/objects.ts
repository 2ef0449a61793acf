/**
 * The parts of OpenAPI 3.1 this service uses, as the document (openapi/document.ts) and
 * the routes' own declarations (http/openapi.ts) write them.
 */

export type JsonSchema = { [keyword: string]: unknown };
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
export const httpMethods: readonly HttpMethod[] = ['get', 'post', 'put', 'delete'];

export interface Reference {
  $ref: string;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  description: string;
  required: boolean;
  schema: JsonSchema;
  allowEmptyValue?: boolean;
}

export interface MediaTypeObject {
  schema: JsonSchema;
  example?: unknown;
  encoding?: Record<string, { contentType: string }>;
}

export interface HeaderObject {
  description: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface RequestBodyObject {
  description?: string;
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Reference>;
  security?: Record<string, string[]>[];
  /** On a path that is a second name of a resource: the operationId of the first. */
  'x-same-as'?: string;
}

export type PathItem = Partial<Record<HttpMethod, OperationObject>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  webhooks: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): Reference => ({
  $ref: `#/components/responses/${name}`,
});
