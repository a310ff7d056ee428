// Rate limits live in PostgreSQL (rate-limiter-flexible's store) so they hold across app instances.
// Policies are declared here by name; callers consume a policy for one or more keys at once.
import type pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { HOT_STATEMENT_LIMIT, pool, type Tx } from "~/db.server";
import { countRateLimitRefusal } from "~/metrics/instruments.server";
import { DomainError, type RateLimitState } from "./domain-error";

interface Policy {
  points: number;
  durationSeconds: number;
  /** After the limit is hit, keep blocking for this long. */
  blockSeconds?: number;
}

const POLICIES = {
  /** Failed sign-ins per account (e-mail); a success clears it (docs/decisions/0006-sign-in-protection.md). */
  "auth.signin.account": { points: 10, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  /** Failed sign-ins per client address; successes are given back, so an office behind one
   * address shares only its mistakes. */
  "auth.signin.address": { points: 50, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  /** "Forgot password" mails per address asked for (known or not: the answer must not tell) and per client address. */
  "auth.reset.account": { points: 3, durationSeconds: 60 * 60 },
  "auth.reset.address": { points: 20, durationSeconds: 60 * 60 },
  /** Sign-ups per client address, and per address signed up with (taken or free alike: the
   * answer must not tell; the owner of a taken address gets at most this many mails about it). */
  "auth.signup.address": { points: 20, durationSeconds: 60 * 60 },
  "auth.signup.email": { points: 5, durationSeconds: 60 * 60 },
  /** "Send the link again" for an address not yet verified, per account. */
  "auth.verify.user": { points: 5, durationSeconds: 60 * 60 },
  /** Changes of address asked for per account (each mails a link to the new address). */
  "account.email.user": { points: 5, durationSeconds: 60 * 60 },
  /** Password changes (right or wrong current password) per user: guessing through the change form is as slow as at sign-in. */
  "auth.password.user": { points: 10, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  /** Second-factor attempts per user. */
  "auth.twofactor.user": { points: 10, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  /** Invitation mails (new invitations and resends) per organization and per inviter. */
  "invitation.organization": { points: 50, durationSeconds: 60 * 60 },
  "invitation.inviter": { points: 20, durationSeconds: 60 * 60 },
  /** Logo uploads per organization. */
  "logo.organization": { points: 30, durationSeconds: 60 * 60 },
  /** Audit log exports (docs/product-rules.md, Limits rule 2): policy `audit.export`, per user and per organization. */
  "audit.export.user": { points: 5, durationSeconds: 60 },
  "audit.export.organization": { points: 10, durationSeconds: 60 },
  /** Leaked-key lookups (apiKey.lookup and its page) per user and per organization: enough for a
   * person checking a handful of pasted secrets, far too few to probe for keys by guessing. */
  "apiKey.lookup.user": { points: 30, durationSeconds: 60 },
  "apiKey.lookup.organization": { points: 100, durationSeconds: 60 },
  /** Audit log verifications (auditLog.verify and the integrity page) per user and per organization:
   * each reads the whole log (decision 0062); an auditor's session runs a handful. */
  "audit.verify.user": { points: 10, durationSeconds: 60 * 60 },
  "audit.verify.organization": { points: 30, durationSeconds: 60 * 60 },
} satisfies Record<string, Policy>;

export type PolicyName = keyof typeof POLICIES;

const limiters = new Map<PolicyName, RateLimiterPostgres>();

/** The store's statements on the shared pool, bounded as the other hot statements are (decision
 * 0070): a sign-in's first statement must not wait as long as a frozen database does. */
const boundedPool = { query: (statement: pg.QueryConfig) => pool().query({ ...statement, ...HOT_STATEMENT_LIMIT }) };

function limiter(name: PolicyName): RateLimiterPostgres {
  let found = limiters.get(name);
  if (!found) {
    const policy: Policy = POLICIES[name];
    found = new RateLimiterPostgres({
      storeClient: boundedPool,
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      keyPrefix: name,
      points: policy.points,
      duration: policy.durationSeconds,
      blockDuration: policy.blockSeconds ?? 0,
    });
    limiters.set(name, found);
  }
  return found;
}

/** Consumes one point of `policy` for `key`; throws TOO_MANY_REQUESTS when it is exhausted. */
export async function consume(policy: PolicyName, key: string): Promise<void> {
  await consumeOne(policy, key);
}

/** Consumes one point of each policy, or none: when one is exhausted, the points already taken
 * are given back and its TOO_MANY_REQUESTS (with the longest wait) is thrown. */
export async function consumeEach(entries: [PolicyName, string][]): Promise<void> {
  await consumeEachWithState(entries);
}

/** Where a policy stands for one key after a request: for the RateLimit headers (app/lib/rate-limit-headers.ts). */
export interface PolicyState extends RateLimitState {
  policy: PolicyName;
}

const stateOf = (policy: PolicyName, res: RateLimiterRes): PolicyState => ({
  policy,
  limit: POLICIES[policy].points,
  windowSeconds: POLICIES[policy].durationSeconds,
  remaining: Math.max(0, res.remainingPoints),
  resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
});

/** One point of `policy` for `key`, and where the policy then stands; when it is exhausted, a
 * TOO_MANY_REQUESTS that carries the wait and that state. */
async function consumeOne(policy: PolicyName, key: string): Promise<PolicyState> {
  try {
    return stateOf(policy, await limiter(policy).consume(key.slice(0, 200)));
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      countRateLimitRefusal(policy);
      const state = stateOf(policy, error);
      throw new DomainError("TOO_MANY_REQUESTS", "rateLimited", { retryAfterSeconds: state.resetSeconds, rateLimits: [state] });
    }
    throw error;
  }
}

/**
 * consumeEach, telling where each policy stands. Each point is one atomic upsert in PostgreSQL,
 * so concurrent requests on any number of instances are counted exactly. A refusal carries the
 * refusing policy's state (`DomainError.rateLimits`).
 */
export async function consumeEachWithState(entries: [PolicyName, string][]): Promise<PolicyState[]> {
  const taken: [PolicyName, string][] = [];
  const states: PolicyState[] = [];
  for (const [policy, key] of entries) {
    try {
      states.push(await consumeOne(policy, key));
      taken.push([policy, key]);
    } catch (error) {
      await refundEach(taken);
      throw error;
    }
  }
  return states;
}

/** Gives back one point of each policy (what consumeEach took). */
export async function refundEach(entries: [PolicyName, string][]): Promise<void> {
  await Promise.all(entries.map(([policy, key]) => refund(policy, key)));
}

/** Gives back one point consumed for an attempt that turned out to be legitimate. */
export async function refund(policy: PolicyName, key: string): Promise<void> {
  await limiter(policy).reward(key.slice(0, 200), 1);
}

export async function reset(policy: PolicyName, key: string): Promise<void> {
  await limiter(policy).delete(key.slice(0, 200));
}

/** The policies whose key is an e-mail address: an account's deletion removes their rows, so no
 * address outlives the account there (docs/decisions/0028-password-reset-and-account-deletion.md). */
export const EMAIL_KEYED_POLICIES = ["auth.signin.account", "auth.reset.account", "auth.signup.email"] as const satisfies PolicyName[];

/** Deletes the stored counters of `policies` for `key`, in the caller's transaction. */
export async function forgetRateLimits(tx: Tx, policies: readonly PolicyName[], key: string): Promise<void> {
  // rate-limiter-flexible stores "<keyPrefix>:<key>" (the prefix is the policy's name).
  const keys = policies.map((policy) => `${policy}:${key.slice(0, 200)}`);
  await tx.$executeRaw`DELETE FROM rate_limits WHERE key = ANY(${keys}::text[])`;
}
