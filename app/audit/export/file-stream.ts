// The answer's body: the COPY's output as lines, pulled from the database only as fast as the
// client reads (docs/decisions/0025-audit-export.md, item 5). When the server shuts down and the
// export outlives the grace period, the file ends with the format's interruption line
// (formats.ts) and the answer ends cleanly, so the file says it is incomplete instead of just
// stopping (docs/decisions/0037-health-readiness-and-drain.md).
import type { CopyRows } from "~/audit/export/copy-rows";
import type { ExportConnection } from "~/audit/export/snapshot.server";
import { whenStreamsMustEnd } from "~/lib/lifecycle.server";

/** The COPY's output as a web stream that reads from the database only when the client has taken
 * the previous chunk. `first` is the COPY's first chunk, read before the answer starts;
 * `interrupted` is the line that ends a file cut short by the shutdown. */
export function fileStream(
  chunks: AsyncIterator<Buffer>,
  first: Buffer,
  connection: ExportConnection,
  rows: CopyRows,
  head: Buffer | null,
  interrupted: Buffer,
): ReadableStream<Uint8Array> {
  const opening = rows.push(first);
  /** Set once the stream has ended, by the last row, the client leaving, an error or the shutdown. */
  let ended = false;
  let release = () => {};
  const finish = () => {
    ended = true;
    release();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const bytes = head ? Buffer.concat([head, opening]) : opening;
        if (bytes.length > 0) controller.enqueue(bytes);
        release = whenStreamsMustEnd(() => {
          if (ended) return;
          finish();
          // The rows read so far are whole lines; the interruption line follows them, then the end.
          connection.destroy(new Error("the server is shutting down"));
          void chunks.return?.()?.catch(() => {});
          controller.enqueue(interrupted);
          controller.close();
        });
      },
      async pull(controller) {
        try {
          for (;;) {
            const { value, done } = await chunks.next();
            if (ended) return;
            if (done) {
              if (!rows.complete) throw new Error("the export's COPY ended early");
              await connection.finish();
              finish();
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
          // After the shutdown ended the file, the destroyed connection's error is expected.
          if (ended) return;
          finish();
          connection.destroy(error);
          throw error;
        }
      },
      cancel() {
        finish();
        // The client went away: closing the connection ends the query at once.
        connection.destroy(new Error("the client closed the export"));
        void chunks.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
