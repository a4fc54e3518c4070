/**
 * How long the fuzz suites run. CI (`npm test`) runs a fixed seed and few
 * cases so that the whole suite stays well under two minutes; `npm run fuzz`
 * runs many more (FUZZ_RUNS) from a fresh seed unless FUZZ_SEED pins one.
 * A failure prints its seed and path: `FUZZ_SEED=… FUZZ_PATH=…` replays it.
 */
export const FUZZ_SEED =
  process.env['FUZZ_SEED'] === undefined ? 1717 : Number(process.env['FUZZ_SEED']);
export const FUZZ_PATH = process.env['FUZZ_PATH'];
export const FUZZ_FACTOR =
  process.env['FUZZ_RUNS'] === undefined ? 1 : Number(process.env['FUZZ_RUNS']);

/** fast-check parameters for a suite whose CI run is `ciRuns` cases. */
export function fuzzParams(ciRuns: number): {
  seed: number;
  numRuns: number;
  path?: string;
  endOnFailure: boolean;
} {
  return {
    seed: FUZZ_SEED,
    numRuns: Math.max(1, Math.round(ciRuns * FUZZ_FACTOR)),
    ...(FUZZ_PATH === undefined ? {} : { path: FUZZ_PATH }),
    // Shrinking re-runs the CLI many times; the first counterexample is enough to debug.
    endOnFailure: true,
  };
}

/** Time for a suite of `ciRuns` cases at about `msPerCase` each, with room. */
export function fuzzTimeout(ciRuns: number, msPerCase: number): number {
  return Math.max(60_000, ciRuns * FUZZ_FACTOR * msPerCase * 3);
}
