// All translations, bundled: the app is small enough that shipping both languages beats a
// round trip for locale files. German files are typed against the English ones, so a missing
// or extra key fails the type-check; the English ones type the keys `t` takes (keys.ts).
import enCommon from "./locales/en/common";
import enErrors from "./locales/en/errors";
import enAuth from "./locales/en/auth";
import enOrganizations from "./locales/en/organizations";
import enTwoFactor from "./locales/en/two-factor";
import enApiKeys from "./locales/en/api-keys";
import enAudit from "./locales/en/audit";
import enAdmin from "./locales/en/admin";
import enMail from "./locales/en/mail";
import enBilling from "./locales/en/billing";
import enAuditStreams from "./locales/en/audit-streams";
import enIntegrators from "./locales/en/integrators";
import enAuditIntegrity from "./locales/en/audit-integrity";
import deCommon from "./locales/de/common";
import deErrors from "./locales/de/errors";
import deAuth from "./locales/de/auth";
import deOrganizations from "./locales/de/organizations";
import deTwoFactor from "./locales/de/two-factor";
import deApiKeys from "./locales/de/api-keys";
import deAudit from "./locales/de/audit";
import deAdmin from "./locales/de/admin";
import deMail from "./locales/de/mail";
import deBilling from "./locales/de/billing";
import deAuditStreams from "./locales/de/audit-streams";
import deIntegrators from "./locales/de/integrators";
import deAuditIntegrity from "./locales/de/audit-integrity";

const en = {
  common: enCommon,
  errors: enErrors,
  auth: enAuth,
  organizations: enOrganizations,
  twoFactor: enTwoFactor,
  apiKeys: enApiKeys,
  audit: enAudit,
  admin: enAdmin,
  mail: enMail,
  billing: enBilling,
  auditStreams: enAuditStreams,
  integrators: enIntegrators,
  auditIntegrity: enAuditIntegrity,
};

/** German has exactly English's namespaces, and each German file exactly its English keys. */
const de = {
  common: deCommon,
  errors: deErrors,
  auth: deAuth,
  organizations: deOrganizations,
  twoFactor: deTwoFactor,
  apiKeys: deApiKeys,
  audit: deAudit,
  admin: deAdmin,
  mail: deMail,
  billing: deBilling,
  auditStreams: deAuditStreams,
  integrators: deIntegrators,
  auditIntegrity: deAuditIntegrity,
} satisfies typeof en;

export const resources = { en, de };

export const namespaces = Object.keys(resources.en) as (keyof (typeof resources)["en"])[];
