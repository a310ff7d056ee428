-- No foreign key cascades an update of the key it references. Ids never change here, so the
-- cascade never ran; Citus refuses it on distributed tables (docs/decisions/0047-no-update-cascade.md).
-- Each key is dropped and added again with the same columns and ON DELETE action, NOT VALID so no
-- table is scanned under the lock adding it takes; the next migration validates them, in a
-- transaction of its own, under a lock that lets writes go on.
DO $$
DECLARE
  k record;
BEGIN
  FOR k IN
    SELECT conrelid::regclass AS table_name, conname, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint
     WHERE contype = 'f' AND confupdtype = 'c' AND connamespace = 'public'::regnamespace
  LOOP
    EXECUTE format(
      'ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I %s NOT VALID',
      k.table_name, k.conname, k.conname, replace(k.definition, ' ON UPDATE CASCADE', '')
    );
  END LOOP;
END $$;
