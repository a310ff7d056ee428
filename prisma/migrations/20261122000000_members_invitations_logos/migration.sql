-- Members, invitations and organization logos (docs/decisions/0021-invitations-and-outbox.md,
-- 0022-organization-logos.md).

-- Invitations: addresses are stored lower-cased, so "Bob@x" and "bob@x" are one invitee; at most
-- one pending invitation per address and organization, so two simultaneous invites make one row.
-- The token is never stored, only its SHA-256; it is made when the mail is sent (by the worker),
-- so it never sits in the job queue either. Before the first send there is no token at all.
ALTER TABLE "invitations"
    ADD COLUMN "token_hash" BYTEA,
    ADD COLUMN "last_sent_at" TIMESTAMPTZ(3),
    ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    ADD CONSTRAINT "invitations_email_lower_case" CHECK ("email" = lower("email"));
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE UNIQUE INDEX "invitations_one_pending_per_email" ON "invitations"("organization_id", "email") WHERE "status" = 'pending';

-- Logos are uploaded images kept in the database (bytes and the type sniffed from them).
CREATE TABLE "organization_logos" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "uploaded_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organization_logos_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "organization_logos_content_type" CHECK ("content_type" IN ('image/png', 'image/jpeg', 'image/webp')),
    CONSTRAINT "organization_logos_byte_size" CHECK ("byte_size" = octet_length("bytes") AND "byte_size" <= 524288)
);
CREATE UNIQUE INDEX "organization_logos_id_organization_id_key" ON "organization_logos"("id", "organization_id");
CREATE INDEX "organization_logos_organization_id_created_at_idx" ON "organization_logos"("organization_id", "created_at");
ALTER TABLE "organization_logos" ADD CONSTRAINT "organization_logos_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "organization_logos" ADD CONSTRAINT "organization_logos_uploaded_by_id_fkey" FOREIGN KEY ("uploaded_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The logo an organization shows must be one it uploaded: the foreign key names both columns, so
-- another organization's logo id cannot be set, whatever the code above it does.
ALTER TABLE "organizations" DROP COLUMN "logo_url";
ALTER TABLE "organizations" ADD COLUMN "logo_id" UUID;
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_logo_owned_fkey" FOREIGN KEY ("logo_id", "id") REFERENCES "organization_logos"("id", "organization_id");
