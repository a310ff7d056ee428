// Receivers that misbehave the ways the issue names, each on HTTPS with the trusted test
// certificate (so only its misbehaviour fails the request) and each counting what it did:
// hangs (accepts and never answers), trickles (answers a byte a second, never ending), 500
// forever, 200 with a 1 GB body (generated as it is sent, never held), a redirect, and an expired
// certificate.
import type http from "node:http";
import { startReceiver, type TestReceiver } from "./http-receiver.ts";

export interface HostileReceiver extends TestReceiver {
  /** Bytes of answer body this receiver managed to write before the client went away. */
  bytesWritten(): number;
}

const GIGABYTE = 1024 * 1024 * 1024;

function withCounter(start: (count: (n: number) => void) => Promise<TestReceiver>): Promise<HostileReceiver> {
  let written = 0;
  return start((n) => (written += n)).then((receiver) => ({ ...receiver, bytesWritten: () => written }));
}

/** Reads the request, then never answers. */
export function startHangingReceiver(): Promise<HostileReceiver> {
  return withCounter(() =>
    startReceiver({
      raw: (req) => {
        req.resume();
      },
    }),
  );
}

/** Answers 200 and then one byte a second, forever. */
export function startTricklingReceiver(): Promise<HostileReceiver> {
  return withCounter((count) =>
    startReceiver({
      raw: (req, res) => {
        req.resume();
        res.writeHead(200, { "content-type": "application/json" });
        const timer = setInterval(() => {
          res.write(" ");
          count(1);
        }, 1000);
        res.on("close", () => clearInterval(timer));
      },
    }),
  );
}

/** Answers every request with 500. */
export function startFailingReceiver(status = 500): Promise<HostileReceiver> {
  return withCounter(() => startReceiver({ handler: () => ({ status, body: '{"error":"down"}' }) }));
}

/** Answers 200 with a 1 GB body, made chunk by chunk as the socket takes it; `declared` sends Content-Length. */
export function startHugeBodyReceiver(declared: boolean): Promise<HostileReceiver> {
  return withCounter((count) =>
    startReceiver({
      raw: (req: http.IncomingMessage, res: http.ServerResponse) => {
        req.resume();
        res.writeHead(200, declared ? { "content-length": String(GIGABYTE) } : {});
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < GIGABYTE && !res.destroyed) {
            sent += chunk.length;
            count(chunk.length);
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          if (!res.destroyed) res.end();
        };
        res.on("close", () => (sent = GIGABYTE));
        pump();
      },
    }),
  );
}

/** Answers 302 to `location` (a private address, in the tests). */
export function startRedirectingReceiver(location: string, status = 302): Promise<HostileReceiver> {
  return withCounter(() => startReceiver({ handler: () => ({ status, headers: { location }, body: "" }) }));
}

/** Presents a certificate signed by the test CA that has expired. */
export function startExpiredCertificateReceiver(): Promise<HostileReceiver> {
  return withCounter(() => startReceiver({ tls: "expired" }));
}
