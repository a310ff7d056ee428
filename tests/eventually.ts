// Waits, without asserting on time, until a condition holds, looking again every `everyMs`; fails
// naming what it waited for once a generous bound has passed (these machines are too noisy for a
// bound to be a test). `detail` adds what helps read the failure (e.g. the server's last output).
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  { limitMs = 30_000, everyMs = 100, detail }: { limitMs?: number; everyMs?: number; detail?: () => string } = {},
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after ${limitMs / 1000} s${detail ? `:\n${detail()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
