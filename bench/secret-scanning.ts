// The secret scanning endpoint under GitHub's typical report: 1,000 tokens of which 990 fail the
// checksum (well-formed length and alphabet, the checksum wrong: the most work junk can cost) and
// 10 are real keys of one organization. Posted signed to the production start (`node
// build/node/start.js`), one request at a time on one keep-alive connection, each timed from the
// outside (request written to answer read, loopback): what GitHub would wait. The first post
// records the 10 reports (audit events, no mails: the organization has no owners here); the timed
// posts are repeats, as GitHub's rescans are. Target: median under 50 ms (issue 33).
//
// `npx tsx bench/secret-scanning.ts`; BENCH_SAMPLES (200) timed posts after 20 untimed ones.
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateSecret } from "../app/api-keys/secret.server.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { agent, percentile, timedRequest, type TimedAnswer } from "./lib/page-requests.ts";
import { insertOrganizations, openSeededDatabase } from "./lib/seed.ts";
import { ensureBuild, startProductionServer, stopChild } from "./lib/servers.ts";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP = 20;
const REAL_KEYS = 10;
const JUNK = 990;
const TARGET_MS = 50;
const PATH = "/api/secret-scanning/github";

/** A secret of our format whose last checksum character is wrong. */
function badChecksum(): string {
  const secret = generateSecret(randomUUID()).secret;
  return secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
}

function post(base: string, body: Buffer, headers: Record<string, string>): Promise<TimedAnswer> {
  return timedRequest(base + PATH, { method: "POST", headers: { ...headers, "content-length": String(body.length) }, body });
}

export async function runSecretScanningBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const keys = JSON.stringify([{ key_identifier: "bench", key: publicKey.export({ type: "spki", format: "pem" }).toString() }]);
  const organizationId = randomUUID();
  const secrets = Array.from({ length: REAL_KEYS }, () => generateSecret(organizationId));
  const db = await openSeededDatabase({
    keptDir: undefined,
    tempPrefix: "keyledger-bench-scanning-",
    seedName: "scanning",
    seed: async (client) => {
      await insertOrganizations(client, organizationId, randomUUID(), []);
      for (const [i, s] of secrets.entries()) {
        await client.query(
          "INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix) VALUES ($1, $2, $3, $4, $5, $6)",
          [randomUUID(), organizationId, `key ${i + 1}`, ["audit:view"], Buffer.from(s.hash), s.prefix],
        );
      }
      return {};
    },
  });
  let server: Awaited<ReturnType<typeof startProductionServer>> | undefined;
  try {
    server = await startProductionServer(join(import.meta.dirname, ".."), {
      DATABASE_URL: db.url,
      PORT: String(await freePort()),
      SECRET_SCANNING_PUBLIC_KEYS: keys,
    });
    // The real keys spread through the junk, as they would be in a scan of many repositories.
    const tokens = Array.from({ length: JUNK }, badChecksum);
    for (const [i, s] of secrets.entries()) tokens.splice(i * 99, 0, s.secret);
    const body = Buffer.from(
      JSON.stringify(
        tokens.map((token, i) => ({
          token,
          type: "keyledger_api_key",
          url: `https://github.com/acme/repo-${i}/blob/main/.env`,
          source: "content",
        })),
      ),
    );
    const headers = {
      "content-type": "application/json",
      "github-public-key-identifier": "bench",
      "github-public-key-signature": sign("sha256", body, privateKey).toString("base64"),
    };
    const first = await post(server.url, body, headers);
    const labels = (JSON.parse(first.body) as { label: string }[]).map((a) => a.label);
    const truePositives = labels.filter((l) => l === "true_positive").length;
    if (first.status !== 200 || truePositives !== REAL_KEYS)
      throw new Error(`first post: ${first.status}, ${truePositives} true positives`);
    const reports = (await db.client.query<{ n: number }>("SELECT count(*)::int AS n FROM api_key_leak_reports")).rows[0]!.n;
    const times: number[] = [];
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const { status, ms } = await post(server.url, body, headers);
      if (status !== 200) throw new Error(`post ${i}: ${status}`);
      if (i >= WARMUP) times.push(ms);
    }
    const p50 = percentile(times, 50);
    const fmt = (n: number) => n.toFixed(1);
    const report = `POST ${PATH}: ${JUNK + REAL_KEYS} tokens (${JUNK} failing the checksum, ${REAL_KEYS} real keys), ${(body.length / 1024).toFixed(0)} KiB, signed; ${SAMPLES} posts after ${WARMUP} untimed, one at a time, timed from the client on loopback
First post (records ${reports} reports and their audit events): ${fmt(first.ms)} ms.

| figure | value | target | |
|---|---:|---|---|
| repeat post, p50 ms | ${fmt(p50)} | < ${TARGET_MS} | ${p50 < TARGET_MS ? "ok" : "missed"} |
| repeat post, p95 ms | ${fmt(percentile(times, 95))} | | |
| repeat post, max ms | ${fmt(Math.max(...times))} | | |`;
    return { passed: p50 < TARGET_MS && reports === REAL_KEYS, report };
  } finally {
    agent.destroy();
    if (server) await stopChild(server.child).catch(() => {});
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const { passed, report } = await runSecretScanningBench();
  console.log(report);
  process.exit(passed ? 0 : 1);
}
