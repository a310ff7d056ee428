// What the production server under test has mailed: it writes every mail as an .eml file to its
// own outbox folder (tests/production/production-server.ts), read here as the recipient would.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import type { ProductionServer } from "./production-server.ts";

/** The mails `server` sent to exactly `address`, once there are `count` of them (or the time is up). */
export async function mailsTo(server: ProductionServer, address: string, count = 1, timeoutMs = 30_000): Promise<ParsedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = (await readdir(server.outboxDir).catch(() => [] as string[])).filter((n) => n.endsWith(".eml")).sort();
    const mails = await Promise.all(names.map(async (n) => simpleParser(await readFile(join(server.outboxDir, n)))));
    const found = mails.filter((m) => JSON.stringify(m.to).toLowerCase().includes(`"${address.toLowerCase()}"`));
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A page's text without markup and scripts, spaces collapsed: what a reader sees, to compare answers. */
export const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
