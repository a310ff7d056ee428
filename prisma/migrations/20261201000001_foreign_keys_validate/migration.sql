-- Validates the foreign keys the previous migration added NOT VALID (each takes SHARE UPDATE
-- EXCLUSIVE on its table: reads and writes go on while the rows are checked).
DO $$
DECLARE
  k record;
BEGIN
  FOR k IN
    SELECT conrelid::regclass AS table_name, conname
      FROM pg_constraint
     WHERE contype = 'f' AND NOT convalidated AND connamespace = 'public'::regnamespace
  LOOP
    EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT %I', k.table_name, k.conname);
  END LOOP;
END $$;
