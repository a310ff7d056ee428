// Lint: typescript-eslint's recommended rules, and the layers of docs/architecture.md as import
// rules. Each layer lists what it may import; everything else in app/ is refused with a message
// naming the layer. Imports inside app/ go through the `~/` alias (a `../` path would hide the
// layer it crosses), so ESLint's own no-restricted-imports can tell every edge apart.
import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Where each layer lives (globs under app/) and the import specifiers that reach it. */
export const LAYERS = {
  platform: {
    files: ["app/env.server.ts", "app/env-keys.server.ts", "app/db.server.ts", "app/db-errors.server.ts"],
    specifiers: ["~/env.server", "~/env-keys.server", "~/db.server", "~/db-errors.server", "~/generated/*"],
  },
  // The metrics registry and what is counted (prom-client): below lib, which counts rate-limit refusals.
  metrics: { files: ["app/metrics/**"], specifiers: ["~/metrics/*"] },
  lib: { files: ["app/lib/**"], specifiers: ["~/lib/*"] },
  i18n: { files: ["app/i18n/**"], specifiers: ["~/i18n/*"] },
  jobs: { files: ["app/jobs/**"], specifiers: ["~/jobs/*"] },
  mail: { files: ["app/mail/**"], specifiers: ["~/mail/*"] },
  components: { files: ["app/components/**"], specifiers: ["~/components/*"] },
  // The plan catalog and billing states: pure data the lower layers read (access, audit).
  plans: { files: ["app/plans/**"], specifiers: ["~/plans/*"] },
  // Billing itself: plan changes, the provider boundary, provider events, the billing page's parts.
  billing: { files: ["app/billing/**"], specifiers: ["~/billing/*"] },
  auth: { files: ["app/auth/**"], specifiers: ["~/auth/*"] },
  access: { files: ["app/access/**"], specifiers: ["~/access/*"] },
  audit: { files: ["app/audit/**"], specifiers: ["~/audit/*"] },
  organizations: { files: ["app/organizations/**"], specifiers: ["~/organizations/*"] },
  "api-keys": { files: ["app/api-keys/**"], specifiers: ["~/api-keys/*"] },
  support: { files: ["app/support/**"], specifiers: ["~/support/*"] },
  accounts: { files: ["app/accounts/**"], specifiers: ["~/accounts/*"] },
  // Streaming the audit log to each organization's destinations: settings, delivery, the page's parts.
  "audit-streams": { files: ["app/audit-streams/**"], specifiers: ["~/audit-streams/*"] },
  // Mails to owners and admins before their keys expire: the planner's cron and the mail job.
  "expiry-reminders": { files: ["app/expiry-reminders/**"], specifiers: ["~/expiry-reminders/*"] },
  // GitHub's secret scanning reports: matching reported tokens to keys, the leak reports, the owners' mail.
  "secret-scanning": { files: ["app/secret-scanning/**"], specifiers: ["~/secret-scanning/*"] },
  // Tamper evidence: the audit log's signed digests, their job, their verification.
  "audit-integrity": { files: ["app/audit-integrity/**"], specifiers: ["~/audit-integrity/*"] },
  web: { files: ["app/web/**"], specifiers: ["~/web/*"] },
  shell: { files: ["app/shell/**"], specifiers: ["~/shell/*"] },
  rpc: { files: ["app/rpc/**"], specifiers: ["~/rpc/*"] },
  edge: { files: ["app/edge/**"], specifiers: ["~/edge/*"] },
  client: { files: ["app/client/**"], specifiers: ["~/client/*"] },
  routes: { files: ["app/routes/**", "app/root.tsx", "app/routes.ts", "app/entry.client.tsx"], specifiers: ["~/routes/*"] },
  entry: { files: ["app/entry.server.tsx"], specifiers: ["~/entry.server"] },
};

const domain = [
  "auth",
  "plans",
  "billing",
  "access",
  "audit",
  "organizations",
  "api-keys",
  "support",
  "accounts",
  "audit-streams",
  "secret-scanning",
  "audit-integrity",
];

/** The domains whose background jobs the entry hands to the worker. */
const workerDomains = ["organizations", "accounts", "audit", "audit-streams", "expiry-reminders", "secret-scanning", "audit-integrity"];

/** What each layer may import besides itself (docs/architecture.md). tests/architecture/layers.test.ts
 * proves the table has no cycle and that the files follow it. */
export const MAY_IMPORT = {
  platform: [],
  metrics: ["platform"],
  lib: ["metrics", "platform"],
  i18n: ["lib"],
  jobs: ["lib", "platform"],
  mail: ["lib", "platform"],
  components: ["lib", "i18n"],
  plans: ["lib"],
  billing: ["plans", "access", "audit", "auth", "components", "i18n", "lib", "platform"],
  auth: ["components", "i18n", "lib", "platform"],
  access: ["auth", "plans", "lib", "platform"],
  audit: ["access", "auth", "plans", "components", "i18n", "lib", "platform"],
  organizations: ["access", "audit", "auth", "plans", "components", "i18n", "jobs", "mail", "lib", "platform"],
  "api-keys": ["access", "audit", "auth", "components", "i18n", "lib", "platform"],
  // The support console: the audit log's reads, under a platform admin's access, recorded; plan changes.
  support: ["access", "audit", "auth", "billing", "plans", "components", "i18n", "lib", "platform"],
  // An account's life across organizations: the reset mail, and deletion (owners promoted, recorded).
  accounts: ["access", "audit", "auth", "organizations", "components", "i18n", "jobs", "mail", "lib", "platform"],
  // Audit streaming: reads the log in commit order, sends it out, records its own changes, mails owners.
  "audit-streams": ["access", "audit", "auth", "plans", "components", "i18n", "jobs", "mail", "metrics", "lib", "platform"],
  // Expiry reminders: plans from the keys' rows, mails in the recipient's language.
  "expiry-reminders": ["i18n", "jobs", "mail", "lib", "platform"],
  // Secret scanning reports: the keys' secrets (api-keys), the report recorded, the owners mailed.
  "secret-scanning": ["api-keys", "access", "audit", "auth", "components", "i18n", "jobs", "mail", "lib", "platform"],
  // Tamper evidence: reads the log in stream order, signs digests (a job), verifies them.
  "audit-integrity": ["access", "audit", "auth", "plans", "components", "i18n", "jobs", "lib", "platform"],
  web: [...domain, "i18n", "lib", "platform"],
  shell: [...domain, "components", "i18n", "lib"],
  rpc: [...domain, "web", "i18n", "metrics", "lib", "platform"],
  edge: ["rpc", "web", "i18n", "metrics", "lib", "platform"],
  // The browser's RPC client: it knows the router's types, nothing of its code.
  client: ["rpc", "lib"],
  routes: [...domain, "web", "shell", "components", "client", "i18n", "lib"],
  // The entry also starts the background worker with the domains' tasks.
  entry: ["edge", "web", "components", "i18n", "jobs", "mail", ...workerDomains, "lib", "platform"],
};

const noParentImports = { group: ["../*", "../**"], message: "Import through the ~/ alias, so the layer rules can see the edge." };

function layerRules(layer) {
  const allowed = new Set([layer, ...MAY_IMPORT[layer]]);
  const refused = Object.keys(LAYERS).filter((other) => !allowed.has(other));
  return {
    files: LAYERS[layer].files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            noParentImports,
            ...refused.map((other) => ({
              group: LAYERS[other].specifiers.flatMap((s) => (s.endsWith("/*") ? [s, `${s}*`] : [s])),
              message: `The ${layer} layer may import only ${[...MAY_IMPORT[layer]].join(", ") || "nothing else in app/"} (docs/architecture.md).`,
            })),
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: ["build/**", ".react-router/**", "app/generated/**", "node_modules/**", "playwright-report/**", "test-results/**", ".data/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // React's hook rules where React runs (Playwright's fixtures also call a function named `use`).
  { ...reactHooks.configs.flat.recommended, files: ["app/**/*.{ts,tsx}"] },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // A promise nobody awaits loses its error (an unhandled rejection ends the process): every
    // promise is awaited, returned, or handed to `void` with a reason next to it. Needs types.
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { "@typescript-eslint/no-floating-promises": "error" },
  },
  {
    // Small files: a reader finds a rule in a file they can hold in their head.
    files: ["app/**"],
    rules: { "max-lines": ["error", { max: 300 }] },
  },
  ...Object.keys(LAYERS).map(layerRules),
  {
    // Tests read JSON answers whose shape the procedure decides; they assert on what they expect.
    // Playwright fixtures must destructure their first argument, even when they use none of it.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }] },
  },
  {
    // These files match control and invisible characters on purpose: refusing them is their job.
    files: ["app/lib/text.ts", "app/lib/safe-redirect.ts", "tests/production/hostile-input.test.ts"],
    rules: { "no-control-regex": "off", "no-misleading-character-class": "off" },
  },
  {
    // The servers load the built bundle; of app/ they know only the contract type and its reader.
    files: ["server/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^\\.\\./app/(?!edge/server-hooks\\.ts$)", message: "server/ reaches the app only through app/edge/server-hooks.ts." },
          ],
        },
      ],
    },
  },
);
