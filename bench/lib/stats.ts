// Figures the benchmarks share.

/** The middle value (the upper one of the two middles for an even count), as every benchmark reports it. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
