// Reading the served OpenAPI document for tests/integration/openapi-document.test.ts: the examples
// of the integrator call by name, and a validator for each answer's schema (JSON Schema 2020-12,
// the dialect of OpenAPI 3.1, through Ajv in strict mode, so a schema with a typo fails to compile).
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS with its function as `default` on the exports object.
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

interface MediaType {
  schema: object;
  examples?: Record<string, { value: unknown }>;
}

interface Operation {
  requestBody: { content: Record<string, MediaType> };
  responses: Record<string, { headers?: Record<string, { required?: boolean; schema: object }>; content?: Record<string, MediaType> }>;
}

export interface OpenApiSpec {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, { post: Operation }>;
}

export interface ResponseExample {
  name: string;
  status: number;
  value: unknown;
  /** Validates a body against the answer's schema. */
  validate: ValidateFunction;
  /** Header names (lower case) the document says the answer always carries, with their schemas. */
  requiredHeaders: Record<string, ValidateFunction>;
}

export interface ReadDocument {
  valid: boolean;
  errors: unknown;
  version: string | undefined;
  /** The operation's answers' examples, by example name (names are unique across statuses). */
  responses: Map<string, ResponseExample>;
  /** The request body's examples, by name, and its schema's validator. */
  requests: Map<string, unknown>;
  validateRequest: ValidateFunction;
}

/** Validates `document` as OpenAPI and compiles what the replay needs for `path`'s POST. */
export async function readDocument(document: unknown, path: string): Promise<ReadDocument> {
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  const resolved = validator.resolveRefs() as unknown as OpenApiSpec;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const operation = resolved.paths[path]!.post;
  const responses = new Map<string, ResponseExample>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const media = response.content?.["application/json"];
    if (!media) throw new Error(`${status}: no application/json content`);
    const validate = ajv.compile(media.schema);
    const requiredHeaders = Object.fromEntries(
      Object.entries(response.headers ?? {})
        .filter(([, header]) => header.required)
        .map(([name, header]) => [name.toLowerCase(), ajv.compile(header.schema)]),
    );
    for (const [name, example] of Object.entries(media.examples ?? {})) {
      if (responses.has(name)) throw new Error(`The example name ${name} is used twice`);
      responses.set(name, { name, status: Number(status), value: example.value, validate, requiredHeaders });
    }
  }
  const requestMedia = operation.requestBody.content["application/json"]!;
  const requests = new Map(Object.entries(requestMedia.examples ?? {}).map(([name, example]) => [name, example.value]));
  return {
    valid: result.valid,
    errors: result.errors,
    version: validator.version,
    responses,
    requests,
    validateRequest: ajv.compile(requestMedia.schema),
  };
}
