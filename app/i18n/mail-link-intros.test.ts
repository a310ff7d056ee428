// The line before each mail's written-out link appears in the plain-text part too, where there is
// no button before it: an intro like "Or open this link:" then reads as the second half of a
// sentence that is missing. Each intro must stand on its own, in every language.
import { describe, expect, it } from "vitest";
import de from "~/i18n/locales/de/mail";
import en from "~/i18n/locales/en/mail";

const intros = (mails: Record<string, object>) =>
  Object.entries(mails).flatMap(([mail, strings]) =>
    Object.entries(strings)
      .filter(([key]) => key === "linkIntro" || key === "resetIntro")
      .map(([, intro]) => [mail, String(intro)] as const),
  );

describe("mail link intros", () => {
  it.each([
    ["en", en, /^or\b/i],
    ["de", de, /^oder\b/i],
  ] as const)("%s: none leans on a button the plain text does not have", (_language, mails, leaning) => {
    const all = intros(mails);
    expect(all.length).toBeGreaterThanOrEqual(7);
    for (const [mail, intro] of all) expect(intro, mail).not.toMatch(leaning);
  });
});
