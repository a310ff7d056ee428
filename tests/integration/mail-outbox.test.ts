// Without SMTP_URL (the embedded default), mail is written as .eml files to MAIL_OUTBOX_DIR.
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, describe, expect, it } from "vitest";

const outbox = await mkdtemp(join(tmpdir(), "keyledger-outbox-test-"));
delete process.env.SMTP_URL;
process.env.MAIL_OUTBOX_DIR = join(outbox, "nested");
const { mailOutboxDir, sendMail } = await import("~/mail/mailer.server");

afterAll(() => rm(outbox, { recursive: true, force: true }));

describe("the local outbox", () => {
  it("writes each message as a readable .eml file, only for its owner, in a folder it creates", async () => {
    expect(mailOutboxDir()).toBe(join(outbox, "nested"));
    await sendMail({ to: "someone@example.com", subject: "Grüße", text: "Hallo\n", html: "<p>Hallo</p>" });
    await sendMail({ to: "other@example.com", subject: "Second", text: "Two\n", html: "<p>Two</p>" });
    const files = (await readdir(join(outbox, "nested"))).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith(".eml"))).toBe(true);
    const parsed = await Promise.all(files.map(async (f) => simpleParser(await readFile(join(outbox, "nested", f)))));
    const first = parsed.find((m) => m.subject === "Grüße")!;
    expect(parsed.map((m) => m.subject).sort()).toEqual(["Grüße", "Second"]);
    expect(first.text).toBe("Hallo\n");
    expect(first.from?.text).toContain("KeyLedger");
    expect((await stat(join(outbox, "nested", files[0]!))).mode & 0o077).toBe(0);
  });
});
