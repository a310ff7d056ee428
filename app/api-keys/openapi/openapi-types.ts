// The parts of an OpenAPI 3.1 document that the integrator document uses, typed so that a misspelt
// field fails the type-check rather than the validator test (tests/integration/openapi-document.test.ts
// still validates the whole document against the official 3.1 schema).

/** A JSON Schema (2020-12, the dialect OpenAPI 3.1 uses): the keywords written here, and only those. */
export interface JsonSchema {
  $ref?: string;
  type?: "object" | "array" | "string" | "integer" | "boolean" | "null";
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: readonly (string | number)[];
  const?: string | number | boolean;
  format?: "uuid";
  pattern?: string;
  minimum?: number;
  allOf?: JsonSchema[];
  examples?: unknown[];
}

export interface ExampleObject {
  summary: string;
  description?: string;
  value: unknown;
}

export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaTypeObject {
  schema: JsonSchema;
  examples?: Record<string, ExampleObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: "header" | "cookie";
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags?: string[];
  security: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody: { required: boolean; description: string; content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  openapi: "3.1.1";
  info: { title: string; version: string; summary: string; description: string };
  externalDocs: { description: string; url: string };
  jsonSchemaDialect: string;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, { summary: string; description: string; post: OperationObject }>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, HeaderObject>;
    securitySchemes: Record<string, { type: "http"; scheme: "bearer"; bearerFormat: string; description: string }>;
  };
}
