// Prints `tests: N passed, N failed[, N skipped]` from the JSON reports of vitest and Playwright.
// A runner whose report is missing (because an earlier step failed) counts as one failure, and so
// does each run-wide error a report names, so a broken run can never print a clean summary.
import { existsSync, readFileSync } from "node:fs";

const reports = [
  {
    file: "test-results/vitest.json",
    read: (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests, skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0) }),
  },
  {
    file: "test-results/playwright.json",
    // A run-wide error (its web server did not start, a global setup threw) runs no test at all:
    // each counts as a failure, or such a run would print "0 failed".
    read: (r) => ({
      passed: r.stats.expected + r.stats.flaky,
      failed: r.stats.unexpected + (r.errors?.length ?? 0),
      skipped: r.stats.skipped,
    }),
  },
];

const total = { passed: 0, failed: 0, skipped: 0 };
let missing = 0;
for (const { file, read } of reports) {
  if (!existsSync(file)) {
    console.error(`missing test report: ${file}`);
    missing++;
    continue;
  }
  const counts = read(JSON.parse(readFileSync(file, "utf8")));
  for (const key of Object.keys(total)) total[key] += counts[key] ?? 0;
}
total.failed += missing;
console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`);
process.exit(total.failed > 0 ? 1 : 0);
