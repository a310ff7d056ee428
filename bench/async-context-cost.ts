// What running each request inside AsyncLocalStorage costs (decision 0038): a request-shaped
// chain of awaits (BENCH_AWAITS, default 40, about what apiKey.authenticate's path through the
// edge, oRPC and node-postgres takes), 200 000 times in batches of 50 at once, outside and inside
// `als.run`, in alternating rounds; prints ns per request. Run it under both implementations:
//   npx tsx bench/async-context-cost.ts                                   (Node 24: AsyncContextFrame)
//   node --no-async-context-frame --import tsx bench/async-context-cost.ts (the promise hooks of Node 20)
import { AsyncLocalStorage } from "node:async_hooks";
import { median } from "./lib/stats.ts";

const AWAITS = Number(process.env.BENCH_AWAITS ?? 40);
const REQUESTS = 200_000;
const BATCH = 50;
const als = new AsyncLocalStorage<string>();

async function request(): Promise<number> {
  let total = 0;
  for (let i = 0; i < AWAITS; i++) total += await Promise.resolve(i);
  return total;
}

async function measure(inside: boolean): Promise<number> {
  const started = performance.now();
  for (let done = 0; done < REQUESTS; done += BATCH) {
    const batch: Promise<number>[] = [];
    for (let i = 0; i < BATCH; i++) batch.push(inside ? als.run("request-id", request) : request());
    await Promise.all(batch);
  }
  return ((performance.now() - started) * 1e6) / REQUESTS;
}

const outside: number[] = [];
const inside: number[] = [];
await measure(false);
await measure(true);
for (let round = 0; round < 4; round++) {
  outside.push(await measure(false));
  inside.push(await measure(true));
}
const [o, n] = [median(outside), median(inside)];
console.log(
  `Node ${process.versions.node}, ${AWAITS} awaits per request: outside ${o.toFixed(0)} ns, inside als.run ${n.toFixed(0)} ns per request (+${(n - o).toFixed(0)} ns, ${((n / o - 1) * 100).toFixed(1)}%)`,
);
