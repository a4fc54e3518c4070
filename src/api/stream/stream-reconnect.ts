/**
 * How a stream waits between connection attempts and when it stops trying
 * (docs/STREAMS.md, "Reconnects and outages"). Pure, so the session's loop
 * (stream-session.ts) and its tests share one rule.
 */

/** Exponential from the server's `retry:`, capped, with equal jitter (half fixed, half random). */
export function reconnectDelay(
  failures: number,
  retryMs: number,
  maxDelayMs: number,
  random: () => number,
): number {
  const ceiling = Math.min(maxDelayMs, retryMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * When a stream gives up. A count of failed attempts in a row (`--retries`)
 * always holds before the first connection was accepted (a wrong URL or key
 * fails in seconds, as every command does) and for rate limits (429: a full
 * stream cap is not an outage). Once the stream has worked, `outageMs`, when
 * set, replaces the count for everything else: the stream rides out a
 * service restart of that long however many attempts it takes.
 */
export interface GiveUpPolicy {
  /** Failed connection attempts in a row before giving up. */
  readonly attempts: number;
  /** Once the stream has worked: how long it may stay without a connection (undefined: `attempts` only). */
  readonly outageMs?: number | undefined;
}

export interface Outage {
  /** Failed attempts in a row so far, this one included. */
  readonly failures: number;
  /** How long the stream has been without a connection. */
  readonly downMs: number;
  /** Whether a connection was ever accepted in this session. */
  readonly everOpen: boolean;
  /** The attempt was refused with 429. */
  readonly rateLimited: boolean;
}

/** Whether to stop trying after this failure. */
export function givesUp(policy: GiveUpPolicy, outage: Outage): boolean {
  if (policy.outageMs === undefined || !outage.everOpen || outage.rateLimited)
    return outage.failures > policy.attempts;
  return outage.downMs >= policy.outageMs;
}

/**
 * The wait before the next attempt, never past the end of the outage budget:
 * the last attempt is made when the budget runs out, not up to 30 s later.
 */
export function waitWithinBudget(
  delayMs: number,
  policy: GiveUpPolicy,
  outage: Pick<Outage, 'downMs' | 'everOpen'>,
): number {
  if (policy.outageMs === undefined || !outage.everOpen) return delayMs;
  return Math.max(0, Math.min(delayMs, policy.outageMs - outage.downMs));
}

/** `45 s`, `5 min`, `2 min 30 s`, `1 h 5 min`: an outage's length in a message. */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60)
    return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  return minutes % 60 === 0
    ? `${Math.floor(minutes / 60)} h`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
