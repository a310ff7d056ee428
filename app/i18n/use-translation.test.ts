import type { TFunction } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { supportedLanguages, type Language } from "./config";
import { standaloneInstance } from "./i18next.server";
import { namespaces, resources } from "./resources";
import { useTranslation } from "./use-translation";

const instance = (language: Language) => standaloneInstance(language);

/** The `t` a component gets from our hook, for `language` and `namespaces`. */
function hookT(language: Language, ns?: string | string[]): TFunction {
  let captured: TFunction | undefined;
  function Probe() {
    captured = useTranslation(ns as never).t as TFunction;
    return null;
  }
  renderToString(createElement(I18nextProvider, { i18n: instance(language) }, createElement(Probe)));
  return captured!;
}

/** Every key of a namespace's resources, dotted. */
function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe("useTranslation (app/i18n/use-translation.ts)", () => {
  it("answers every key of every namespace as i18next does, in both languages, also when remembered", () => {
    for (const language of supportedLanguages) {
      for (const ns of namespaces) {
        const ours = hookT(language, ns);
        const theirs = instance(language).getFixedT(language, ns);
        const keys = keysOf(resources[language][ns as keyof (typeof resources)["en"]])
          // Plural forms are asked for by their base key with a count (below).
          .filter((key) => !/_(one|other|zero|two|few|many)$/.test(key));
        expect(keys.length).toBeGreaterThan(0);
        for (const key of keys) {
          const expected = theirs(key);
          expect(ours(key)).toBe(expected);
          expect(ours(key)).toBe(expected);
        }
      }
    }
  });

  it("keeps options apart: interpolation, plurals, defaults and other namespaces", () => {
    const en = hookT("en", "apiKeys");
    const de = hookT("de", "apiKeys");
    expect(en("list.details", { count: 1 })).not.toBe(en("list.details", { count: 2 }));
    expect(en("list.details", { count: 2 })).toBe(instance("en").getFixedT("en", "apiKeys")("list.details", { count: 2 }));
    expect(en("history.linkLabel", { name: "first" })).toContain("first");
    expect(en("history.linkLabel", { name: "second" })).toContain("second");
    expect(en("no.such.key", { defaultValue: "fallback" })).toBe("fallback");
    expect(en("common:roles.owner")).toBe("Owner");
    // The same key and options in another language is another answer.
    expect(de("history.linkLabel", { name: "first" })).not.toBe(en("history.linkLabel", { name: "first" }));
  });

  it("uses the first of several namespaces as the default, as react-i18next does", () => {
    const t = hookT("en", ["audit", "common"]);
    expect(t("page.actor")).toBe(instance("en").getFixedT("en", "audit")("page.actor"));
    expect(t("common:roles.admin")).toBe("Admin");
  });
});
