// The language a person last used, stored for mails that answer no request (the expiry reminders:
// docs/decisions/0058-expiry-reminders.md). Set when they sign up, sign in, or switch language
// while signed in, never on an ordinary page view; the statement writes nothing when the stored
// language is already that one.
import { prisma } from "~/db.server";
import type { Language } from "~/i18n/config";

export async function rememberUserLanguage(userId: string, language: Language): Promise<void> {
  await prisma.$executeRaw`UPDATE users SET language = ${language} WHERE id = ${userId}::uuid AND language IS DISTINCT FROM ${language}`;
}
