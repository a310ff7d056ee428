import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { supportedLanguages } from "~/i18n/config";
import { standaloneInstance } from "~/i18n/i18next.server";
import { useKeyListText, type KeyListText } from "./key-list-text";

function listText(language: (typeof supportedLanguages)[number]): KeyListText {
  let captured: KeyListText | undefined;
  function Probe() {
    captured = useKeyListText();
    return null;
  }
  renderToString(createElement(I18nextProvider, { i18n: standaloneInstance(language) }, createElement(Probe)));
  return captured!;
}

// Names a person may give a key, including what a string replacement or a template would misread.
const NAMES = ["Billing sync", "$& and $1 and $$", "{{name}}", "</summary><b>x</b>", "Schlüssel für Zoë", ""];

describe("the key lists' words (app/api-keys/ui/key-list-text.ts)", () => {
  it("says what i18next says for every name and scope count, in both languages", () => {
    for (const language of supportedLanguages) {
      const text = listText(language);
      const t = standaloneInstance(language).getFixedT(language, "apiKeys");
      for (const name of NAMES) {
        expect(text.createdBy(name)).toBe(t("list.createdByName", { name }));
        expect(text.copyKeyId(name)).toBe(t("keyId.copy", { name }));
        expect(text.historyOf(name)).toBe(t("history.linkLabel", { name }));
        expect(text.revokedBy(name)).toBe(t("revoked.by", { name }));
        for (const count of [1, 2, 10]) {
          expect(text.details(count).summary).toBe(t("list.details", { count }));
          expect(text.details(count).of(name)).toBe(t("list.detailsOf", { name, count }));
        }
      }
      expect(text.details(1)).toBe(text.details(1));
    }
  });
});
