// A constant answer with no database work: the "trivial resource route" the API key benchmark
// compares malformed-key rejection against (bench/api-key-auth.ts), and a cheap liveness probe.
export function loader() {
  return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
