// How long a stream waits after a failed delivery before it tries again: 1 s, doubling with each
// failure in a row, at most 5 minutes, each pause drawn between 50 % and 100 % of its step so that
// streams which failed together (one receiver down for many organizations) do not all come back in
// the same second (docs/decisions/0053-stream-delivery.md).

export const FIRST_PAUSE_MS = 1_000;
export const LONGEST_PAUSE_MS = 5 * 60_000;

/**
 * The pause after the `failuresInRow`-th failure in a row (1 for the first). `random` is a number
 * in [0, 1), Math.random's by default; tests pass their own.
 */
export function retryPauseMs(failuresInRow: number, random: () => number = Math.random): number {
  const doublings = Math.max(0, Math.min(failuresInRow - 1, 30));
  const step = Math.min(FIRST_PAUSE_MS * 2 ** doublings, LONGEST_PAUSE_MS);
  return Math.round(step / 2 + (step / 2) * random());
}
