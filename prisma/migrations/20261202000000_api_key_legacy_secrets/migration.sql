-- Secrets issued from now on name their key's organization, so apiKey.authenticate can name it in
-- its statement (on Citus: reach the one shard that holds the key). Secrets issued before (52
-- characters) name none: this table says where each of them belongs, keyed by the secret's SHA-256.
-- A reference table on Citus, so it has no foreign key (Citus refuses one from a reference table to
-- a distributed one); the code removes a row when its key is rotated or its organization deleted
-- (docs/decisions/0048-routed-secrets.md).
--
-- Filled from every key there is, revoked and expired ones too: their secrets then take the same
-- path to the same 401 as any other. Only reads api_keys, so the release before this one keeps
-- issuing and rotating meanwhile; what it issues afterwards has no row here and authenticate finds
-- it by its hash alone until a later release fills those in.
CREATE TABLE "api_key_legacy_secrets" (
    "secret_hash" BYTEA NOT NULL,
    "organization_id" UUID NOT NULL,
    CONSTRAINT "api_key_legacy_secrets_pkey" PRIMARY KEY ("secret_hash")
);

CREATE INDEX "api_key_legacy_secrets_organization_id_idx" ON "api_key_legacy_secrets" ("organization_id");

INSERT INTO "api_key_legacy_secrets" ("secret_hash", "organization_id")
SELECT "secret_hash", "organization_id" FROM "api_keys";
