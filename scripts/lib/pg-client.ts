// One short-lived connection for a piece of work: opened, used, always closed. For the scripts' and
// tests' own statements (the standby harness, the crashable database, replica checks), not the app's
// pools. An error on the idle connection (its server stopped) is not left unhandled.
import pg from "pg";

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** One statement on its own connection. */
export function queryOnce<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
  return withClient(url, (client) => client.query<R>(text, values));
}
