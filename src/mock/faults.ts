/**
 * Faults on demand, so clients can prove their retries and timeouts:
 * - `--fail-rate R`: each API request fails with 500 or 502 with probability R,
 *   drawn from a PRNG seeded by `--seed`, so one seed gives one sequence of
 *   failures (the n-th request fails or not, whatever its path).
 * - `--latency MS`: added before every answer (wall-clock ms, not scaled).
 * - `X-Mock-Scenario` request header: one forced fault for that request.
 *   `prompt-unavailable` is handled by the search engine: a request with a
 *   `prompt` fails with ER0801 (the translation service is down), others pass.
 */
import { MockHttpError } from './error-envelope.js';

export const SCENARIOS = [
  '500',
  '502',
  '429',
  'timeout',
  'reset',
  'slow',
  'prompt-unavailable',
] as const;
/**
 * Stream scenarios, counted in article events on one connection:
 * `drop-after-N` cuts the stream or socket (contract), `revoke-after-N` sends
 * ER0361 (key revoked), `expire-after-N` sends ER0362 (session lifetime).
 */
export type StreamScenario =
  | `drop-after-${number}`
  | `revoke-after-${number}`
  | `expire-after-${number}`;
export type Scenario = (typeof SCENARIOS)[number] | StreamScenario;
const STREAM_SCENARIO = /^(drop|revoke|expire)-after-(\d+)$/;

export function streamScenario(
  scenario: Scenario | undefined,
): { kind: 'drop' | 'revoke' | 'expire'; after: number } | undefined {
  const m = scenario === undefined ? null : STREAM_SCENARIO.exec(scenario);
  if (m === null) return undefined;
  return { kind: m[1] as 'drop' | 'revoke' | 'expire', after: Number(m[2]) };
}

/** The `slow` scenario waits this long, in mock milliseconds (so × time scale). */
export const SLOW_SCENARIO_MS = 2000;

export function parseScenario(value: string | string[] | undefined): Scenario | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if ((SCENARIOS as readonly string[]).includes(raw)) return raw as Scenario;
  if (STREAM_SCENARIO.test(raw)) return raw as StreamScenario;
  throw new MockHttpError(
    400,
    undefined,
    `Unknown X-Mock-Scenario "${raw}"; expected one of ${SCENARIOS.join(', ')}, drop-after-N, revoke-after-N, expire-after-N.`,
  );
}

/** mulberry32: tiny, fast, and good enough to pick which requests fail. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FailureInjector {
  private readonly random: () => number;

  constructor(
    readonly rate: number,
    seed: number,
  ) {
    if (!(rate >= 0 && rate <= 1))
      throw new RangeError(`fail rate must be between 0 and 1, got ${rate}`);
    // Offset so the fault stream is not the fixture generator's stream for the same seed.
    this.random = seededRandom(seed ^ 0x5eed_fa11);
  }

  /** The status to fail this request with, or undefined to let it through. Draws twice per call. */
  next(): 500 | 502 | undefined {
    if (this.rate === 0) return undefined;
    const fail = this.random() < this.rate;
    const which = this.random();
    if (!fail) return undefined;
    return which < 0.5 ? 500 : 502;
  }
}

export function serverFault(status: 500 | 502, why: string): MockHttpError {
  return new MockHttpError(
    status,
    undefined,
    status === 500
      ? `Internal server error (${why}). The same request can succeed on retry.`
      : `Bad gateway (${why}). The same request can succeed on retry.`,
  );
}

/** A 429 that tells the server which Retry-After to send. */
export class TooManyRequests extends MockHttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, undefined, message);
  }
}
