// What an API key may claim (docs/product-rules.md, API key). Read claims only: no write scopes are issued.
// Here, not in app/api-keys/, because the audit catalog names them too (api_key.issued's details).
export const API_KEY_SCOPES = ["organization:read", "member:read", "invitation:read", "billing:view", "audit:view"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
