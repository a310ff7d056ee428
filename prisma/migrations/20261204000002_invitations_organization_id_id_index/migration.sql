-- keyledger:no-transaction
-- The key (organization_id, id) that becomes invitations' primary key in 20261204000006 (decision 0050).
CREATE UNIQUE INDEX CONCURRENTLY "invitations_organization_id_id_key" ON "invitations" ("organization_id", "id");
