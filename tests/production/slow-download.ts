// A client that starts a download and then takes nothing until told to: its socket fills, the
// server's writes wait on TCP, and the answer stays in flight for as long as the test wants
// (the production drain tests hold exports and pages open across a SIGTERM with it).
import { request, type IncomingMessage } from "node:http";

export interface SlowDownload {
  status: number;
  headers: IncomingMessage["headers"];
  /** Reads the rest at full speed; resolves with the whole body once the answer has ended. */
  readAll(): Promise<{ body: Buffer; complete: boolean }>;
}

/** GETs `url` on a connection of its own and stops reading once the head has arrived. */
export function startSlowDownload(url: string, headers: Record<string, string> = {}): Promise<SlowDownload> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.pause();
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        readAll: () =>
          new Promise((done) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            // `complete`: the answer ended as HTTP says (last chunk), not by a cut connection.
            res.on("end", () => done({ body: Buffer.concat(chunks), complete: res.complete }));
            res.on("error", () => done({ body: Buffer.concat(chunks), complete: false }));
            res.on("aborted", () => done({ body: Buffer.concat(chunks), complete: false }));
            res.resume();
          }),
      });
    });
    req.on("error", reject);
    req.end();
  });
}
