// The file copy of a base backup taken with pg_backup_start/pg_backup_stop (scripts/lib/embedded-standby.ts):
// the primary's data directory as it is while the server runs, leaving out what pg_basebackup
// leaves out. Files change or vanish under the copy (the server keeps running): a torn page is
// repaired by the full-page images replayed from the backup's start, and a vanished file was dropped
// by WAL the standby replays too, so it is skipped.
import { execFileSync } from "node:child_process";
import { chown, copyFile, lchown, mkdir, readdir, readlink, symlink } from "node:fs/promises";
import { join } from "node:path";

export interface Owner {
  uid: number;
  gid: number;
}

/** The `postgres` system user, who runs the embedded servers when we are root (scripts/lib/embedded-postgres.ts). */
export function postgresUserIds(): Owner {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** Server runtime files, and what would describe another backup or another server's state. */
const SKIPPED_FILES = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "backup_label",
  "tablespace_map",
  "pg_internal.init",
  "postgresql.auto.conf.tmp",
  "current_logfiles",
  "current_logfiles.tmp",
]);

/**
 * Top-level directories copied empty: pg_wal (the standby streams its WAL through the slot),
 * pg_replslot (the primary's slots are not the standby's), what the server rebuilds at start, log
 * files, and pg_stat (so a standby's statistics, pg_stat_statements' included, start from zero
 * rather than from the primary's last shutdown).
 */
const EMPTIED_DIRECTORIES = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
  "pg_stat",
  "log",
]);

/** What pg_wal must hold for the server to start (PostgreSQL 17 also recreates them, but a standby should not depend on that). */
const WAL_SUBDIRECTORIES = ["archive_status", "summaries"];

const vanished = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

export async function copyForBaseBackup(from: string, to: string, owner: Owner | null): Promise<void> {
  await copyDirectory(from, to, owner, true);
  for (const sub of WAL_SUBDIRECTORIES) await makeDirectory(join(to, "pg_wal", sub), owner);
}

async function makeDirectory(path: string, owner: Owner | null) {
  // 0700: PostgreSQL refuses a data directory others may read.
  await mkdir(path, { recursive: true, mode: 0o700 });
  if (owner) await chown(path, owner.uid, owner.gid);
}

async function copyDirectory(from: string, to: string, owner: Owner | null, top: boolean): Promise<void> {
  await makeDirectory(to, owner);
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (error) {
    if (vanished(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      if (top && EMPTIED_DIRECTORIES.has(entry.name)) await makeDirectory(target, owner);
      else await copyDirectory(source, target, owner, false);
    } else if (entry.isSymbolicLink()) {
      // pg_tblspc's links to tablespaces (the backup's tablespace_map names them too).
      try {
        await symlink(await readlink(source), target);
        if (owner) await lchown(target, owner.uid, owner.gid);
      } catch (error) {
        if (!vanished(error)) throw error;
      }
    } else if (entry.isFile()) {
      if (SKIPPED_FILES.has(entry.name) || entry.name.startsWith("pgsql_tmp") || (top && entry.name.endsWith(".log"))) continue;
      try {
        await copyFile(source, target);
        if (owner) await chown(target, owner.uid, owner.gid);
      } catch (error) {
        if (!vanished(error)) throw error;
      }
    }
  }
}
