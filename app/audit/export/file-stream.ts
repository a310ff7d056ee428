// The answer's body: the COPY's output as lines, pulled from the database only as fast as the
// client reads (docs/decisions/0025-audit-export.md, item 5).
import type { CopyRows } from "~/audit/export/copy-rows";
import type { ExportConnection } from "~/audit/export/snapshot.server";

/** The COPY's output as a web stream that reads from the database only when the client has taken
 * the previous chunk. `first` is the COPY's first chunk, read before the answer starts. */
export function fileStream(
  chunks: AsyncIterator<Buffer>,
  first: Buffer,
  connection: ExportConnection,
  rows: CopyRows,
  head: Buffer | null,
): ReadableStream<Uint8Array> {
  const opening = rows.push(first);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const bytes = head ? Buffer.concat([head, opening]) : opening;
        if (bytes.length > 0) controller.enqueue(bytes);
      },
      async pull(controller) {
        try {
          for (;;) {
            const { value, done } = await chunks.next();
            if (done) {
              if (!rows.complete) throw new Error("the export's COPY ended early");
              await connection.finish();
              controller.close();
              return;
            }
            const out = rows.push(value);
            if (out.length > 0) {
              controller.enqueue(out);
              return;
            }
          }
        } catch (error) {
          connection.destroy(error);
          throw error;
        }
      },
      cancel() {
        // The client went away: closing the connection ends the query at once.
        connection.destroy(new Error("the client closed the export"));
        void chunks.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
