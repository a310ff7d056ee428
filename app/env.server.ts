// Configuration, validated once at boot. Each bad variable gets its own clear message.
import { isIP } from "node:net";
import { z } from "zod";
import { auditRetiredKeysSchema, auditSigningKeySchema, scanningKeysSchema } from "./env-keys.server";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Who may create an account at /signup (docs/decisions/0031-sign-up-policy-and-verified-addresses.md).
 * Someone with a pending invitation for exactly their address may always sign up. */
export type SignUpPolicy = { kind: "open" } | { kind: "invite" } | { kind: "domains"; domains: string[] };

/** One DNS name with at least two labels, lowercase ASCII (IDNs in their xn-- form). */
const DOMAIN_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const SIGNUP_POLICY_HINT = "SIGNUP_POLICY must be open, invite or domains:example.com,example.org";

const signUpPolicySchema = z.string().transform((value, ctx): SignUpPolicy => {
  const text = value.trim().toLowerCase();
  if (text === "open" || text === "invite") return { kind: text };
  if (!text.startsWith("domains:")) {
    ctx.addIssue({ code: "custom", message: `${SIGNUP_POLICY_HINT}.` });
    return z.NEVER;
  }
  const domains = text
    .slice("domains:".length)
    .split(",")
    .map((d) => d.trim().replace(/^@/, ""))
    .filter(Boolean);
  const bad = domains.filter((d) => !DOMAIN_PATTERN.test(d));
  if (domains.length === 0 || bad.length > 0) {
    const problem = domains.length === 0 ? "lists no domain" : `has malformed domains (${bad.join(", ")})`;
    ctx.addIssue({ code: "custom", message: `SIGNUP_POLICY ${problem}: ${SIGNUP_POLICY_HINT}.` });
    return z.NEVER;
  }
  return { kind: "domains", domains: [...new Set(domains)] };
});

/** A whole number of seconds, 0 to `max` (the shutdown's waits, docs/decisions/0037; the start's wait for the database). */
function seconds(name: string, max = 600, min = 0) {
  return z.coerce
    .number({ error: `${name} must be a number of seconds.` })
    .int(`${name} must be a whole number of seconds.`)
    .min(min, `${name} must be between ${min} and ${max}.`)
    .max(max, `${name} must be between ${min} and ${max}.`);
}

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string({ error: "DATABASE_URL is required (npm start sets it when it starts the embedded PostgreSQL)." })
    .refine((v) => /^postgres(ql)?:\/\//.test(v), "DATABASE_URL must be a postgresql:// connection URL."),
  PORT: z.coerce
    .number({ error: "PORT must be a number." })
    .int()
    .min(1, "PORT must be between 1 and 65535.")
    .max(65535, "PORT must be between 1 and 65535.")
    .default(3000),
  /** Unset: the default depends on the database (listenHost below). */
  HOST: z
    .string()
    .transform((v) => v.trim().replace(/^\[(.*)\]$/, "$1"))
    .refine(isListenHost, "HOST must be an IPv4 or IPv6 address or a host name, e.g. 127.0.0.1, 0.0.0.0, :: or localhost.")
    .optional(),
  APP_ORIGIN: z
    .url({ error: "APP_ORIGIN must be an absolute URL such as https://keys.example.com." })
    .refine((v) => /^https?:\/\//.test(v), "APP_ORIGIN must start with http:// or https://.")
    .transform((v) => new URL(v).origin)
    .optional(),
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"], { error: "TRUST_PROXY must be true or false." })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  DATABASE_POOL_SIZE: z.coerce.number({ error: "DATABASE_POOL_SIZE must be a number." }).int().min(1).max(500).default(20),
  /** A streaming replica (hot standby) of DATABASE_URL for the audit reads and exports; unset, every
   * read goes to DATABASE_URL (app/lib/read-routing.server.ts, docs/decisions/0045-replica-reads.md). */
  DATABASE_READ_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), "DATABASE_READ_URL must be a postgresql:// connection URL.")
    .optional(),
  DATABASE_READ_POOL_SIZE: z.coerce.number({ error: "DATABASE_READ_POOL_SIZE must be a number." }).int().min(1).max(500).default(10),
  /** A replica further behind than this is skipped (reads go to DATABASE_URL) until it catches up. */
  DATABASE_READ_MAX_LAG_SECONDS: seconds("DATABASE_READ_MAX_LAG_SECONDS", 3600)
    .min(1, "DATABASE_READ_MAX_LAG_SECONDS must be between 1 and 3600 (0 would never read the replica).")
    .default(10),
  /** How long the start waits for a database that refuses connections (scripts/lib/wait-for-database.ts); 0 tries once. */
  DATABASE_WAIT_SECONDS: seconds("DATABASE_WAIT_SECONDS", 3600).default(60),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}.` }).default("info"),
  /** Where mail goes. Unset: every message is written as an .eml file to MAIL_OUTBOX_DIR instead. */
  SMTP_URL: z
    .string()
    .refine(
      (v) => /^smtps?:\/\/[^\s]+$/.test(v),
      "SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587.",
    )
    .optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).default(".data/outbox"),
  MAIL_FROM: z
    .string()
    .max(320)
    .refine((v) => /^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(v), "MAIL_FROM must be an address, e.g. KeyLedger <keys@example.com>.")
    .default("KeyLedger <no-reply@keyledger.localhost>"),
  /**
   * The secret payment provider events are signed with (docs/decisions/0029-billing.md). Unset on
   * the embedded database: the development provider's unsigned events are taken. Unset with an
   * external DATABASE_URL: provider events are refused and plan changes say billing is not set up.
   */
  BILLING_WEBHOOK_SECRET: z.string().min(32, "BILLING_WEBHOOK_SECRET must be at least 32 characters long.").optional(),
  /** Turns on /metrics, readable only with `Authorization: Bearer <METRICS_TOKEN>`; unset, /metrics
   * does not exist and nothing is collected (docs/decisions/0038-metrics-and-correlation.md). */
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[A-Za-z0-9._~+/-]{16,256}$/,
      "METRICS_TOKEN must be 16-256 characters of A-Z a-z 0-9 . _ ~ + / - (e.g. the output of openssl rand -hex 32).",
    )
    .optional(),
  /** How long an audit stream keeps failing before it shows as failing and its organization's owners
   * are mailed (once per run of failures; docs/decisions/0053-stream-delivery.md). */
  STREAMING_FAILING_AFTER_SECONDS: seconds("STREAMING_FAILING_AFTER_SECONDS", 7 * 24 * 3600).default(900),
  /** The commit this build was made from, for keyledger_build_info (set by the deployment; else read from .git). */
  KEYLEDGER_COMMIT: z
    .string()
    .regex(/^[0-9a-f]{7,40}$/i, "KEYLEDGER_COMMIT must be a git commit hash (7-40 hexadecimal digits).")
    .optional(),
  /** Lets audit streams send over http:// and to loopback, private and link-local addresses: tests and
   * self-hosting on a private network. Off by default (docs/decisions/0054-stream-outbound.md). */
  STREAMING_ALLOW_PRIVATE_NETWORKS: z
    .enum(["true", "false", "1", "0"], { error: "STREAMING_ALLOW_PRIVATE_NETWORKS must be true or false." })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** The keys GitHub signs secret scanning reports with (POST /api/secret-scanning/github); unset,
   * that endpoint does not exist (404; docs/decisions/0060-secret-scanning-reports.md). */
  SECRET_SCANNING_PUBLIC_KEYS: scanningKeysSchema.optional(),
  /** Signs the audit log's digests; unset, no digests are written (on the embedded database `npm
   * start` generates one into .data/; docs/decisions/0061-audit-digests.md). */
  AUDIT_SIGNING_KEY: auditSigningKeySchema.optional(),
  /** Public keys of earlier signing keys, still trusted to check the digests they signed. */
  AUDIT_RETIRED_KEYS: auditRetiredKeysSchema.optional(),
  /** Seconds per digest period: each organization's log is sealed this often (when it has new events). */
  AUDIT_DIGEST_INTERVAL: seconds("AUDIT_DIGEST_INTERVAL", 86_400, 1).default(3600),
  /** Set by `npm start` / `npm run dev` (scripts/start.ts) to say whether it started the embedded
   * PostgreSQL: only then is the development billing provider active. */
  /** Unset: `open` on the embedded database, `invite` on an external one (signUpPolicy()). */
  SIGNUP_POLICY: signUpPolicySchema.optional(),
  /** Unset: 5 with an external DATABASE_URL, 0 on the embedded demo and in development (shutdownTimings()). */
  SHUTDOWN_DRAIN_SECONDS: seconds("SHUTDOWN_DRAIN_SECONDS").optional(),
  SHUTDOWN_GRACE_SECONDS: seconds("SHUTDOWN_GRACE_SECONDS").default(15),
  KEYLEDGER_EMBEDDED_DATABASE: z
    .enum(["true", "false"], { error: "KEYLEDGER_EMBEDDED_DATABASE is set by npm start; leave it unset." })
    .default("false")
    .transform((v) => v === "true"),
});

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function isListenHost(value: string): boolean {
  // A string of digits and dots that is no IPv4 address (999.1.1.1, 127.1) is a typo, not a name.
  if (/^[\d.]+$/.test(value)) return isIP(value) === 4;
  return isIP(value) !== 0 || HOST_NAME.test(value);
}

type ParsedEnv = z.infer<typeof schema>;
export type Env = Omit<ParsedEnv, "HOST"> & { HOST: string };

/**
 * Where the server listens when HOST is unset. The embedded demo database comes with published
 * passwords and a published two-factor secret for a platform admin, so the demo answers on this
 * machine only; a deployment with its own database listens on every interface, as containers and
 * platforms expect (docs/decisions/0033-demo-data-and-safe-start.md).
 */
export function defaultHost(embeddedDatabase: boolean): string {
  return embeddedDatabase ? "127.0.0.1" : "0.0.0.0";
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, HOST: result.data.HOST ?? defaultHost(result.data.KEYLEDGER_EMBEDDED_DATABASE) };
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Whether the app is served over HTTPS (APP_ORIGIN says so): its cookies are then Secure and
 * __Host- prefixed, and Strict-Transport-Security is sent. */
export function isHttpsDeployment(): boolean {
  return env().APP_ORIGIN?.startsWith("https://") ?? false;
}

/**
 * The origin links in mails point to: APP_ORIGIN, else the address the start banner prints
 * (http://localhost:PORT). Never the request's Host header: anyone can send any Host, and a
 * password-reset mail whose link leads to their site would hand them the token.
 */
export function publicOrigin(config: Pick<Env, "APP_ORIGIN" | "PORT"> = env()): string {
  return config.APP_ORIGIN ?? `http://localhost:${config.PORT}`;
}

/** The sign-up policy in force: SIGNUP_POLICY, else open for the embedded demo database and
 * invitation only for a real deployment's (an external DATABASE_URL). */
export function signUpPolicy(config: Pick<Env, "SIGNUP_POLICY" | "KEYLEDGER_EMBEDDED_DATABASE"> = env()): SignUpPolicy {
  return config.SIGNUP_POLICY ?? (config.KEYLEDGER_EMBEDDED_DATABASE ? { kind: "open" } : { kind: "invite" });
}

/** The shutdown's timings in milliseconds: how long /readyz answers 503 before the listener closes
 * (a load balancer needs a few seconds to notice; nobody balances the embedded demo or `npm run
 * dev`, whose Ctrl-C should be quick), and how long requests in flight, exports included, may take after that. */
export function shutdownTimings(
  config: Pick<Env, "SHUTDOWN_DRAIN_SECONDS" | "SHUTDOWN_GRACE_SECONDS" | "KEYLEDGER_EMBEDDED_DATABASE" | "NODE_ENV"> = env(),
): { drainMs: number; graceMs: number } {
  const unbalanced = config.KEYLEDGER_EMBEDDED_DATABASE || config.NODE_ENV === "development";
  const drain = config.SHUTDOWN_DRAIN_SECONDS ?? (unbalanced ? 0 : 5);
  return { drainMs: drain * 1000, graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000 };
}
