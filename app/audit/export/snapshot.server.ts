// The export's own connection and its one snapshot (docs/decisions/0025-audit-export.md, items 4-6):
// a REPEATABLE READ, READ ONLY transaction on the export pool (the replica's when it may answer,
// docs/decisions/0045-replica-reads.md), which the name directory and the COPY both read in, so the
// file is the log as it was when the export began.
import type pg from "pg";
import { EXPORT_SETTINGS } from "~/audit/export/sql.server";
import { DomainError } from "~/lib/domain-error";
import { EXPORT_CONNECTION_WAIT_MS } from "~/db.server";
import { logger } from "~/lib/logger.server";
import { connectForExport } from "~/lib/read-routing.server";

export interface ExportConnection {
  client: pg.PoolClient;
  /** Closes the connection at once (a client that left, an error): PostgreSQL ends the query. */
  destroy(reason: unknown): void;
  /** Ends the transaction and gives the connection back. */
  finish(): Promise<void>;
}

/** A connection of the export pool with its snapshot taken; 429 `auditExport.busy` when none
 * comes free in time. */
export async function openSnapshot(): Promise<ExportConnection> {
  let client: pg.PoolClient;
  try {
    client = await connectForExport();
  } catch (error) {
    logger.warn({ err: error }, "no export connection");
    throw new DomainError("TOO_MANY_REQUESTS", "auditExport.busy", { retryAfterSeconds: EXPORT_CONNECTION_WAIT_MS / 1000 });
  }
  // An error on this connection (we close it under a running COPY on purpose) must not go unheard.
  const onError = () => {};
  client.on("error", onError);
  let done = false;
  const socket = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  const connection: ExportConnection = {
    client,
    destroy(reason) {
      if (done) return;
      done = true;
      socket?.destroy();
      client.release(reason instanceof Error ? reason : new Error(String(reason)));
    },
    async finish() {
      if (done) return;
      await client.query("COMMIT");
      done = true;
      client.off("error", onError);
      client.release();
    },
  };
  try {
    // The snapshot is taken by the SELECT. Sorting is off so the rows come in index order from the
    // first one (a million-row sort would delay the first byte by seconds); JIT compilation would
    // cost its time before the first row too. client_connection_check_interval lets a long scan
    // that has sent nothing yet notice a client that went away. The lines are written from UTF-8
    // bytes (ExportRow), so the transaction asks for them whatever the database's encoding.
    await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; ${EXPORT_SETTINGS} SELECT 1`);
  } catch (error) {
    connection.destroy(error);
    throw error;
  }
  return connection;
}
