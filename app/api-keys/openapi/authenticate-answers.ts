// The answers of `POST /rpc/apiKey/authenticate` for the OpenAPI document, each as the server really
// gives it: found by calling the running server (the request edge's door and oRPC's path), and
// replayed against it by tests/integration/openapi-document.test.ts, which fails when an answer
// drifts from what is written here. Messages are the English texts from the locale (callers that
// send `Accept-Language: de` or the `lng=de` cookie get the German ones, same shapes).
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { fixedT } from "~/i18n/i18next.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "~/lib/database-unavailable.server";
import { MAX_REQUESTED_SCOPES } from "~/api-keys/schemas";
import type { ExampleObject, JsonSchema, ResponseObject } from "./openapi-types";

/** The issues a 400 lists at most (app/rpc/errors.server.ts). */
const MAX_REPORTED_ISSUES = 20;
export const MAX_BODY_BYTES = 64 * 1024;

const EXAMPLE_KEY_ID = "0b9e5a61-6a1f-4c4e-9a57-3f0f2f3c8d11";
const EXAMPLE_ORGANIZATION_ID = "5d2c6a0e-8f3b-4e1a-b7c9-1a2b3c4d5e6f";

const uuid: JsonSchema = { type: "string", format: "uuid" };
const scope: JsonSchema = { type: "string", enum: API_KEY_SCOPES, description: "A scope an API key can hold." };

export const schemas: Record<string, JsonSchema> = {
  Scope: scope,
  AuthenticateRequest: {
    type: "object",
    description: "oRPC's request envelope: the input sits under `json`. Nothing else may be sent in either object.",
    required: ["json"],
    additionalProperties: false,
    properties: {
      json: {
        type: "object",
        required: ["scopes"],
        additionalProperties: false,
        properties: {
          scopes: {
            type: "array",
            maxItems: MAX_REQUESTED_SCOPES,
            items: { $ref: "#/components/schemas/Scope" },
            description: "Scopes the key must all hold. An empty list only proves the key's identity.",
          },
        },
      },
    },
  },
  AuthenticatedKey: {
    type: "object",
    required: ["json"],
    additionalProperties: false,
    properties: {
      json: {
        type: "object",
        required: ["keyId", "organizationId", "scopes"],
        additionalProperties: false,
        properties: {
          keyId: { ...uuid, description: "The key's id (stable across rotations)." },
          organizationId: { ...uuid, description: "The organization the key belongs to: the tenant to serve." },
          scopes: { type: "array", items: { $ref: "#/components/schemas/Scope" }, description: "Every scope the key holds." },
        },
      },
    },
  },
  Error: {
    type: "object",
    description: "oRPC's error envelope. `code` and `status` are stable; `message` is for people and follows the caller's language.",
    required: ["json"],
    additionalProperties: false,
    properties: {
      json: {
        type: "object",
        required: ["defined", "code", "status", "message"],
        additionalProperties: false,
        properties: {
          defined: { const: false },
          code: {
            type: "string",
            enum: ["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "SERVICE_UNAVAILABLE"],
          },
          status: { type: "integer" },
          message: { type: "string" },
          data: {
            type: "object",
            additionalProperties: false,
            properties: {
              issues: {
                type: "array",
                maxItems: MAX_REPORTED_ISSUES,
                description: "What is wrong with the input, field by field (a path such as `scopes.0`; empty for the input itself).",
                items: {
                  type: "object",
                  required: ["path", "message"],
                  additionalProperties: false,
                  properties: { path: { type: "string" }, message: { type: "string" } },
                },
              },
              retryAfterSeconds: { type: "integer", minimum: 1, description: "The same number as the Retry-After header." },
            },
          },
        },
      },
    },
  },
};

/** The Error schema narrowed to one code and status, and to the `data` that answer always carries. */
function errorSchema(code: string, status: number, data?: "retryAfterSeconds"): JsonSchema {
  const properties: Record<string, JsonSchema> = { code: { const: code }, status: { const: status } };
  if (data) properties.data = { type: "object", required: [data], properties: { [data]: { type: "integer", minimum: 1 } } };
  const json: JsonSchema = { type: "object", properties, ...(data ? { required: ["data"] } : {}) };
  return { allOf: [{ $ref: "#/components/schemas/Error" }, { type: "object", properties: { json } }] };
}

function errorBody(code: string, status: number, message: string, data?: Record<string, unknown>) {
  return { json: { defined: false, code, status, message, ...(data ? { data } : {}) } };
}

/** The request bodies of the examples, by the example's name; a response example with the same name answers it. */
export const requestExamples: Record<string, ExampleObject> = {
  identity: { summary: "Prove the key's identity only", value: { json: { scopes: [] } } },
  scopesHeld: { summary: "Ask for a scope the key holds", value: { json: { scopes: ["organization:read"] } } },
  scopeNotHeld: { summary: "Ask for a scope the key does not hold", value: { json: { scopes: ["audit:view"] } } },
  unknownScope: { summary: "A scope that does not exist", value: { json: { scopes: ["organization:write"] } } },
  missingScopes: { summary: "No `scopes` field", value: { json: {} } },
  unexpectedField: {
    summary: "A field that is not part of the input",
    value: { json: { scopes: [], organizationId: EXAMPLE_ORGANIZATION_ID } },
  },
  notEnveloped: { summary: "The input without oRPC's `json` envelope", value: { scopes: [] } },
};

const identity = { keyId: EXAMPLE_KEY_ID, organizationId: EXAMPLE_ORGANIZATION_ID, scopes: ["organization:read", "member:read"] };

const json = (schema: JsonSchema, examples: Record<string, ExampleObject>) => ({ "application/json": { schema, examples } });
const requestId = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };

/** Every answer by status, with an example of each case (English messages, from the locale). */
export function authenticateResponses(): Record<string, ResponseObject> {
  const en = fixedT("en", "errors");
  const invalidInput = (path: string, message: string) =>
    errorBody("BAD_REQUEST", 400, en("invalidInput"), { issues: [{ path, message }] });
  return {
    "200": {
      description: "The key is active (neither expired nor revoked) and holds every requested scope. Its last use is recorded.",
      headers: requestId,
      content: json(
        { $ref: "#/components/schemas/AuthenticatedKey" },
        {
          identity: { summary: "Identity only", value: { json: identity } },
          scopesHeld: { summary: "The requested scopes are held", value: { json: identity } },
        },
      ),
    },
    "400": {
      description:
        "The body is not valid JSON, or not the input: an unknown scope, a missing or unexpected field, more than " +
        `${MAX_REQUESTED_SCOPES} scopes, a body without the \`json\` envelope. Fix the request; sending it again will not help.`,
      headers: requestId,
      content: json(errorSchema("BAD_REQUEST", 400), {
        unknownScope: {
          summary: "A scope that does not exist",
          value: invalidInput("scopes.0", en("apiKey.unknownScope")),
        },
        missingScopes: { summary: "No `scopes` field", value: invalidInput("scopes", en("field.required")) },
        unexpectedField: {
          summary: "A field that is not part of the input",
          value: invalidInput("organizationId", en("field.unexpected")),
        },
        notEnveloped: { summary: "The input without the `json` envelope", value: invalidInput("", en("field.invalidType")) },
        tooManyScopes: {
          summary: `More than ${MAX_REQUESTED_SCOPES} scopes`,
          value: invalidInput("scopes", en("apiKey.tooManyScopes", { max: MAX_REQUESTED_SCOPES })),
        },
        invalidJson: { summary: "A body that is not JSON", value: errorBody("BAD_REQUEST", 400, en("invalidJson")) },
      }),
    },
    "401": {
      description:
        "The `Authorization` header is missing, not `Bearer`, or its key is unknown, malformed (wrong length or checksum), expired or " +
        "revoked: one identical answer for all of them. Checked before the input, so a missing key is a 401 whatever the body says. " +
        "Refuse the request you are serving.",
      headers: requestId,
      content: json(errorSchema("UNAUTHORIZED", 401), {
        missingKey: { summary: "No Authorization header", value: errorBody("UNAUTHORIZED", 401, en("apiKey.unauthorized")) },
        revokedKey: {
          summary: "A revoked key (unknown, expired and malformed keys answer the same)",
          value: errorBody("UNAUTHORIZED", 401, en("apiKey.unauthorized")),
        },
      }),
    },
    "403": {
      description:
        "The key is valid but does not hold every requested scope. Refuse the request you are serving; the key's owner can issue a key with that scope.",
      headers: requestId,
      content: json(errorSchema("FORBIDDEN", 403), {
        scopeNotHeld: { summary: "A scope the key does not hold", value: errorBody("FORBIDDEN", 403, en("apiKey.missingScope")) },
      }),
    },
    "413": {
      description: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB. The connection is closed after the answer.`,
      headers: requestId,
      content: json(errorSchema("PAYLOAD_TOO_LARGE", 413), {
        tooLarge: { summary: "A body over 64 KiB", value: errorBody("PAYLOAD_TOO_LARGE", 413, en("payloadTooLarge")) },
      }),
    },
    "415": {
      description:
        "A `Content-Type` other than `application/json` (parameters such as `charset=utf-8` are fine; a body sent without " +
        "`Content-Type` is read as JSON). The connection is closed after the answer.",
      headers: requestId,
      content: json(errorSchema("UNSUPPORTED_MEDIA_TYPE", 415), {
        notJson: { summary: "Content-Type: text/plain", value: errorBody("UNSUPPORTED_MEDIA_TYPE", 415, en("unsupportedMediaType")) },
      }),
    },
    "503": {
      description:
        "KeyLedger cannot reach its database (down, restarting, out of connections). Nothing was decided about the key: " +
        "try again after `Retry-After` seconds; do not treat it as a refusal or as a success.",
      headers: {
        ...requestId,
        "Retry-After": {
          description: "Seconds to wait before trying again.",
          required: true,
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
      },
      content: json(errorSchema("SERVICE_UNAVAILABLE", 503, "retryAfterSeconds"), {
        databaseDown: {
          summary: "The database is unreachable",
          value: errorBody("SERVICE_UNAVAILABLE", 503, en("database.unavailable"), { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS }),
        },
      }),
    },
  };
}
