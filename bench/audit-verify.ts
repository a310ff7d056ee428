// Benchmark of the audit log's verification (issue 34: "verification of 1,000,000 events ≤ 30 s").
// Run: `npx tsx bench/audit-verify.ts`. `BENCH_AUDIT_EVENTS=100000` scales the seed down;
// `BENCH_AUDIT_DATA_DIR=.data/bench-audit` keeps the seeded database between runs (the audit view
// benchmark's seed, bench/lib/audit-view-seed.ts: "Big" with 1,000,000 events among ten other
// organizations' as many).
//
// Seals Big's whole log (its digests removed first, so a kept seed measures the same work), then
// verifies it as `npm run audit:verify` does, in this process against the embedded PostgreSQL:
// seconds and events per second for each; the verification must say "intact" and have checked
// every event.
import { createHash, createPrivateKey } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { openAuditViewDatabase } from "./lib/audit-view-seed.ts";

const TARGET_SECONDS = 30;

const database = await openAuditViewDatabase();
const { big } = database.seeded;
try {
  process.env.DATABASE_URL = database.url;
  // A key from a fixed seed: BENCH_KEEP_DIGESTS=1 verifies a kept seed's digests again without sealing.
  const seed = createHash("sha256").update("keyledger bench audit signing key").digest();
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  process.env.AUDIT_SIGNING_KEY = String(
    createPrivateKey({ key: der, format: "der", type: "pkcs8" }).export({ type: "pkcs8", format: "pem" }),
  );
  const { sealOrganization } = await import("../app/audit-integrity/seal.server.ts");
  const { currentSigningKey } = await import("../app/audit-integrity/signing-keys.ts");
  const { verifyAuditLog } = await import("../app/audit-integrity/verify.server.ts");
  const { disconnectDb } = await import("../app/db.server.ts");

  const keep = process.env.BENCH_KEEP_DIGESTS === "1";
  if (!keep) await database.client.query("DELETE FROM audit_digests WHERE organization_id = $1", [big]);
  const { rows } = await database.client.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1", [
    big,
  ]);
  const events = rows[0]!.n;
  await database.client.query("VACUUM ANALYZE audit_events");

  const sealStarted = performance.now();
  const sealed = keep ? { digests: 0, events: 0 } : await sealOrganization(big, currentSigningKey()!);
  const sealSeconds = (performance.now() - sealStarted) / 1000;

  const verifyStarted = performance.now();
  const cpuBefore = process.cpuUsage();
  const verdict = await verifyAuditLog(big);
  const verifySeconds = (performance.now() - verifyStarted) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // This machine is shared: the load and this process's own CPU time put the wall time in context.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await disconnectDb();

  const rate = (n: number, s: number) => Math.round(n / s).toLocaleString("en");
  console.log(`Big: ${events.toLocaleString("en")} events.`);
  console.log(
    `Seal:   ${sealed.digests} digests, ${sealed.events.toLocaleString("en")} events in ${sealSeconds.toFixed(1)} s (${rate(sealed.events, sealSeconds)} events/s).`,
  );
  console.log(
    `Verify: ${verdict.status}, ${verdict.digestsChecked} digests, ${verdict.eventsChecked.toLocaleString("en")} events in ${verifySeconds.toFixed(1)} s (${rate(verdict.eventsChecked, verifySeconds)} events/s); target ≤ ${TARGET_SECONDS} s.`,
  );
  console.log(
    `        this process's CPU time ${cpuSeconds.toFixed(1)} s; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${availableParallelism()} cores.`,
  );
  const ok = verdict.status === "intact" && verdict.eventsChecked === events && verifySeconds <= TARGET_SECONDS;
  console.log(ok ? "PASS" : "FAIL");
  process.exitCode = ok ? 0 : 1;
} finally {
  await database.close();
}
