// Reading the mails the e2e server sent. Without SMTP_URL the app writes every message as an .eml
// file to its outbox folder (tests/e2e/start-server.ts sets and clears it); the job worker sends
// after the change has committed, so a test polls the folder until the mail is there. Files are
// parsed with mailparser, as a mail program would (the raw file is quoted-printable).
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";

/** The same folder start-server.ts uses (E2E_OUTBOX_DIR moves both, for parallel runs). */
export const MAIL_OUTBOX_DIR = process.env.E2E_OUTBOX_DIR ?? join(import.meta.dirname, "..", "..", ".data", "e2e-outbox");

export interface OutboxMail {
  file: string;
  mail: ParsedMail;
}

function recipients(mail: ParsedMail): string[] {
  const to: AddressObject[] = mail.to === undefined ? [] : Array.isArray(mail.to) ? mail.to : [mail.to];
  return to.flatMap((group) => group.value.flatMap((entry) => (entry.address ? [entry.address.toLowerCase()] : [])));
}

/** Parsed files by name; a file is only trusted once its size stayed the same between two polls
 * (the app writes it in one call, but a poll may still catch it half written). */
const parsed = new Map<string, { size: number; mail: ParsedMail; stable: boolean }>();

async function readOutbox(): Promise<OutboxMail[]> {
  const names = (await readdir(MAIL_OUTBOX_DIR).catch(() => [] as string[])).filter((name) => name.endsWith(".eml")).sort();
  const mails: OutboxMail[] = [];
  for (const name of names) {
    const path = join(MAIL_OUTBOX_DIR, name);
    const { size } = await stat(path);
    const known = parsed.get(path);
    if (known?.size === size) {
      known.stable = true;
      mails.push({ file: path, mail: known.mail });
      continue;
    }
    parsed.set(path, { size, mail: await simpleParser(await readFile(path)), stable: false });
  }
  return mails.filter(({ file }) => parsed.get(file)?.stable);
}

/**
 * The mails to `address` (oldest first; only those `matching`, when given), once there are at
 * least `count`. Polls the outbox for up to `timeoutMs`: the worker picks a job up at once (NOTIFY)
 * or on its next 2-second poll. A demo account also gets the demo's own mails (the expiry reminder
 * of its key that expires within the week), so a test of one mail to it names that mail.
 */
export async function waitForMails(
  address: string,
  {
    count = 1,
    timeoutMs = 15_000,
    matching = () => true,
  }: { count?: number; timeoutMs?: number; matching?: (mail: ParsedMail) => boolean } = {},
): Promise<ParsedMail[]> {
  const wanted = address.toLowerCase();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox()).filter(({ mail }) => recipients(mail).includes(wanted) && matching(mail)).map(({ mail }) => mail);
    if (found.length >= count) return found;
    if (Date.now() > deadline) {
      throw new Error(`Expected ${count} mail(s) to ${address} in ${MAIL_OUTBOX_DIR} within ${timeoutMs} ms, found ${found.length}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The one mail to `address`; fails when a second one arrived too. */
export async function waitForMail(address: string, options: { timeoutMs?: number } = {}): Promise<ParsedMail> {
  const mails = await waitForMails(address, options);
  if (mails.length !== 1) throw new Error(`Expected exactly one mail to ${address}, found ${mails.length}.`);
  return mails[0]!;
}

/** The accept-invitation link in the plain-text part (decoded: the raw file is quoted-printable). */
export function invitationLink(mail: ParsedMail): URL {
  const match = /https?:\/\/[^\s<>"]+\/invitations\/accept\?token=[^\s<>"]+/.exec(mail.text ?? "");
  if (!match) throw new Error(`No accept link in the mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[0]);
}

/** The "confirm your address" link of a sign-up mail, in the plain-text part. */
export function verificationLink(mail: ParsedMail): URL {
  const match = /https?:\/\/[^\s<>"]+\/verify-email\?token=[^\s<>"]+/.exec(mail.text ?? "");
  if (!match) throw new Error(`No verification link in the mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[0]);
}

/** The link of a change-of-address mail (to the new address), in the plain-text part. */
export function emailChangeLink(mail: ParsedMail): URL {
  const match = /https?:\/\/[^\s<>"]+\/dashboard\/account\/confirm-email\?token=[^\s<>"]+/.exec(mail.text ?? "");
  if (!match) throw new Error(`No confirmation link in the mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[0]);
}

/** The reset-password link in the plain-text part. */
export function resetLink(mail: ParsedMail): URL {
  const match = /https?:\/\/[^\s<>"]+\/reset-password\?token=[^\s<>"]+/.exec(mail.text ?? "");
  if (!match) throw new Error(`No reset link in the mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[0]);
}
