-- "Forgot password": a link mailed to the account's address. Only the SHA-256 of the link's token
-- is stored (like sessions), so a copy of the database cannot reset anyone's password. A token
-- works once, until expires_at; asking again replaces the previous one (one row per account), and
-- deleting the account deletes it.
CREATE TABLE "password_resets" (
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "password_resets_pkey" PRIMARY KEY ("user_id")
);

CREATE UNIQUE INDEX "password_resets_token_hash_key" ON "password_resets"("token_hash");

ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
