-- audit_digests is append-only for the app (decision 0061): the digests migration granted SELECT and
-- INSERT, but the migrations' default privileges (20261203000000_app_role_append_only) had already
-- given the app's role UPDATE and DELETE on the new table, so a compromised app could have rewritten
-- or removed a digest. Taken back here, as that migration says a later append-only table must.
-- The cascade from organizations runs as the table's owner and still removes an organization's digests.
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_digests" FROM keyledger_app;
