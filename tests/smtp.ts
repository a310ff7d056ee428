// A real SMTP server for the tests (the smtp-server package), which parses what it receives with
// mailparser so tests read subject, text, HTML and links as a mail program would.
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "../scripts/lib/free-port.ts";

export interface TestMailServer {
  port: number;
  url: string;
  messages: ParsedMail[];
  /** Accepts connections again after stop(), on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The messages to `address` once there are `count` of them (waits up to `timeoutMs`). */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ParsedMail[]>;
}

export async function startMailServer(): Promise<TestMailServer> {
  const port = await freePort();
  const messages: ParsedMail[] = [];
  let server: SMTPServer | undefined;
  const to = (mail: ParsedMail) => [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));
  const mailServer: TestMailServer = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async start() {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onData(stream, _session, callback) {
          simpleParser(stream)
            .then((mail) => {
              messages.push(mail);
              callback();
            })
            .catch(callback);
        },
      });
      await new Promise<void>((resolve, reject) => {
        server!.once("error", reject);
        server!.listen(port, "127.0.0.1", () => resolve());
      });
    },
    async stop() {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
    async waitFor(address, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.filter((m) => to(m).includes(address.toLowerCase()));
        if (found.length >= count || Date.now() > deadline) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  await mailServer.start();
  return mailServer;
}

/** The token of the first `path?token=…` link in a mail's plain-text part. */
export function linkToken(text: string | undefined, path: string): string {
  const match = new RegExp(`${path.replace(/[.?]/g, "\\$&")}\\?token=([A-Za-z0-9_-]+)`).exec(text ?? "");
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return match[1]!;
}

/** The accept link's token from a received invitation mail (plain-text part). */
export function tokenFrom(mail: ParsedMail): string {
  return linkToken(mail.text, "/invitations/accept");
}
