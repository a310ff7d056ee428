import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { defaultNS, fallbackLanguage } from "~/i18n/config";
import { namespaces, resources } from "~/i18n/resources";

async function hydrate() {
  await i18next.use(initReactI18next).init({
    resources,
    ns: namespaces,
    defaultNS,
    // The server rendered in this language; start in it so hydration matches.
    lng: document.documentElement.lang || fallbackLanguage,
    fallbackLng: fallbackLanguage,
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
