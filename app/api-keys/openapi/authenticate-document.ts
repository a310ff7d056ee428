// The OpenAPI 3.1 document served at GET /api/openapi.json: the integrator call, and nothing else.
// Hand-written, not generated from the router: oRPC's OpenAPI generator would describe the
// procedure's documentation path (`/api-keys/authenticate`, a route that does not exist; the product
// rules say that path is documentation only) with oRPC's OpenAPI encoding instead of the RPC
// envelope the one real route takes, and none of the answers the request edge gives itself (413,
// 415, 503). This describes exactly what `POST /rpc/apiKey/authenticate` serves (decision 0056).
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { CURRENT_SECRET, LEGACY_SECRET } from "~/api-keys/secret-format";
import { authenticateResponses, requestExamples, schemas, MAX_BODY_BYTES } from "./authenticate-answers";
import type { OpenApiDocument } from "./openapi-types";

export const AUTHENTICATE_DOCUMENT_PATH = "/rpc/apiKey/authenticate";
/** The integrator page (app/routes/docs.authenticate.tsx) the document points people to. */
export const INTEGRATOR_PAGE_PATH = "/docs/authenticate";

const DESCRIPTION = `Your service receives requests that carry a KeyLedger API key. Send that key to KeyLedger with the
scopes the request needs; KeyLedger answers who the key belongs to, or why it is refused. The guide (see
externalDocs) has examples in several languages, the secret format for secret scanners and advice on caching.`;

const PATH_DESCRIPTION = `The one route of this call (the procedure \`apiKey.authenticate\` of the RPC layer at \`/rpc\`).
Only \`POST\` is served: \`OPTIONS\` answers 204 with \`Allow: POST, OPTIONS\`, any other method 405 with the
same \`Allow\` header and the error envelope (\`code\` \`METHOD_NOT_SUPPORTED\`). Checks run in this order, and a
request failing several gets the first: method (405), \`Content-Type\` (415), size (413), JSON syntax (400),
the key (401), the input (400), the scopes (403).`;

/** The document for an instance whose public origin is `origin` (APP_ORIGIN, else the request's). */
export function authenticateOpenApiDocument(origin: string): OpenApiDocument {
  return {
    openapi: "3.1.1",
    info: {
      title: "KeyLedger: authenticate an API key",
      version: "1.0.0",
      summary: "The call an integrator's service makes to check a KeyLedger API key and its scopes.",
      description: DESCRIPTION,
    },
    externalDocs: { description: "Guide for integrators", url: `${origin}${INTEGRATOR_PAGE_PATH}` },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    servers: [{ url: origin, description: "This KeyLedger instance" }],
    tags: [{ name: "API keys", description: "Checking the keys your callers present." }],
    paths: {
      [AUTHENTICATE_DOCUMENT_PATH]: {
        summary: "Authenticate an API key",
        description: PATH_DESCRIPTION,
        post: {
          operationId: "authenticateApiKey",
          summary: "Prove an API key's identity and, optionally, its scopes",
          description:
            "Send the key your caller presented as a Bearer token, and the scopes your endpoint needs. " +
            `An empty list only proves identity. Scopes: ${API_KEY_SCOPES.map((scope) => `\`${scope}\``).join(", ")}. ` +
            "No audit event is recorded; the key's last use is. Answers are JSON in oRPC's envelope: `{\"json\": …}`. " +
            "Every answer carries `X-Request-Id`; quote it when you report a problem.",
          tags: ["API keys"],
          security: [{ apiKey: [] }],
          parameters: [
            {
              name: "Accept-Language",
              in: "header",
              description:
                "The language of error messages: `en` (the default) or `de`. A `lng` cookie (`lng=de`) takes precedence. Codes never change.",
              required: false,
              schema: { type: "string", examples: ["de", "en-US,en;q=0.8"] },
            },
          ],
          requestBody: {
            required: true,
            description: `Content-Type \`application/json\`, at most ${MAX_BODY_BYTES / 1024} KiB.`,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/AuthenticateRequest" }, examples: requestExamples },
            },
          },
          responses: authenticateResponses(),
        },
      },
    },
    components: {
      schemas,
      headers: {
        RequestId: {
          description: "This request's id, also in KeyLedger's log line for it (a UUID, or the id the operator's proxy set).",
          required: true,
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "KeyLedger API key (sk_…)",
          description:
            `\`Authorization: Bearer sk_…\`: a KeyLedger API key, ${CURRENT_SECRET.length} characters ` +
            `(\`${CURRENT_SECRET.pattern}\`), or ${LEGACY_SECRET.length} for keys issued by earlier releases ` +
            `(\`${LEGACY_SECRET.pattern}\`). The last 6 characters are a checksum; a key that fails it is refused without a lookup.`,
        },
      },
    },
  };
}
