// What the tests of the periodic ticks and of the work that runs on them (the audit streams' pump,
// the audit digests' schedule) share: a logger that records instead of printing, and a wait for the
// ticks to have run (a tick every millisecond; no bound, vitest's own timeout ends a test that hangs).
import { vi } from "vitest";

export const quietLogger = () => ({ warn: vi.fn(), error: vi.fn() });

export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}
