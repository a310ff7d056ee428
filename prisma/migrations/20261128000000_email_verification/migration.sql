-- Verified addresses (docs/decisions/0031-sign-up-policy-and-verified-addresses.md). An account's
-- address counts as proven once its owner opened a link mailed to it (a verification link, an
-- invitation, a password reset or an address change); only then may the account create
-- organizations. Accounts that exist before this migration were made under the old rules and
-- some already own organizations: they count as verified from their creation.
ALTER TABLE "users" ADD COLUMN "email_verified_at" TIMESTAMPTZ(3);
UPDATE "users" SET "email_verified_at" = "created_at";

-- The mailed "confirm your address" link: like password_resets, only the SHA-256 of its token is
-- stored, one row per account (a new mail replaces it), and it works once, until expires_at, and
-- only while the account still has the address it was sent to.
CREATE TABLE "email_verifications" (
    "user_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_verifications_pkey" PRIMARY KEY ("user_id")
);

CREATE UNIQUE INDEX "email_verifications_token_hash_key" ON "email_verifications"("token_hash");

ALTER TABLE "email_verifications" ADD CONSTRAINT "email_verifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A change of address waiting for its confirmation: the new address and the SHA-256 of the token
-- mailed to it. One per account (asking again replaces it); the address changes only when the
-- signed-in account opens the link.
CREATE TABLE "email_changes" (
    "user_id" UUID NOT NULL,
    "new_email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_changes_pkey" PRIMARY KEY ("user_id")
);

CREATE UNIQUE INDEX "email_changes_token_hash_key" ON "email_changes"("token_hash");

ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
