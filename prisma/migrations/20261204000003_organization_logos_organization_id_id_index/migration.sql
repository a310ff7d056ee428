-- keyledger:no-transaction
-- The key (organization_id, id) that becomes organization_logos' primary key in 20261204000006
-- (decision 0050); it replaces the (id, organization_id) unique the logo foreign key uses today.
CREATE UNIQUE INDEX CONCURRENTLY "organization_logos_organization_id_id_key" ON "organization_logos" ("organization_id", "id");
