// Outgoing mail through nodemailer: to SMTP_URL when it is set, otherwise into a local outbox
// folder as .eml files (MAIL_OUTBOX_DIR, .data/outbox by default), which any mail program opens.
// Only the job worker sends mail, after the change that asked for it has committed.
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "~/env.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stable Message-ID, so a receiver can recognize a repeated delivery of one message. */
  messageId?: string;
}

/** Short timeouts: the worker holds a row lock while it sends (docs/decisions/0021-invitations-and-outbox.md). */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

let smtp: { url: string; transporter: Transporter } | undefined;

function smtpTransporter(url: string): Transporter {
  if (smtp?.url !== url) smtp = { url, transporter: nodemailer.createTransport({ url, ...SMTP_TIMEOUTS }) };
  return smtp.transporter;
}

const fileTransporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

/** Where messages go without SMTP_URL, as an absolute path (for the start banner too). */
export function mailOutboxDir(): string | null {
  return env().SMTP_URL ? null : resolve(env().MAIL_OUTBOX_DIR);
}

/** Sends one message; throws when the server refuses it or cannot be reached (the job retries). */
export async function sendMail(message: MailMessage): Promise<void> {
  const mail = { from: env().MAIL_FROM, ...message };
  const url = env().SMTP_URL;
  if (url) {
    await smtpTransporter(url).sendMail(mail);
    return;
  }
  const info = (await fileTransporter.sendMail(mail)) as { message: Buffer };
  const dir = mailOutboxDir()!;
  await mkdir(dir, { recursive: true });
  const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomUUID().slice(0, 8)}.eml`;
  // Written aside, then renamed into place: whoever watches the folder (a mail program, the tests)
  // never opens half a message.
  const partial = join(dir, `.${name}.partial`);
  await writeFile(partial, info.message, { mode: 0o600 });
  await rename(partial, join(dir, name));
}
