// The mails the e2e server wrote: without SMTP_URL the app writes each one as an .eml file to its
// outbox folder (tests/e2e/start-server.mjs sets and clears it). Parsed as a mail program would.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";

export const OUTBOX_DIR = process.env.E2E_OUTBOX_DIR ?? join(import.meta.dirname, "..", "..", ".data", "e2e-outbox");

const recipients = (mail: ParsedMail) => [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));

/** The mails to `address`, once there are `count` (polls the folder: the worker sends after commit). */
export async function mailsTo(address: string, count = 1, timeoutMs = 20_000): Promise<ParsedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await readdir(OUTBOX_DIR).catch(() => [] as string[]);
    const mails = await Promise.all(
      files.filter((f) => f.endsWith(".eml")).map(async (f) => simpleParser(await readFile(join(OUTBOX_DIR, f)))),
    );
    const found = mails.filter((m) => recipients(m).includes(address.toLowerCase()));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${address} in ${OUTBOX_DIR}, found ${found.length}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The accept link of an invitation mail (its plain-text part). */
export function acceptLink(mail: ParsedMail): string {
  const match = /https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? "");
  if (!match) throw new Error(`no accept link in: ${mail.text}`);
  return match[0];
}
