/**
 * The mock's one source of time. `--time-scale F` multiplies every timer of the
 * mock (heartbeats, the `slow` scenario, later the webhook retry schedule), and
 * the mock's own clock runs 1/F times as fast as the wall clock, so a retry
 * "one minute later" is logged one mock minute later even when it fired after
 * 60 ms. Everything that waits or stamps a time takes this object instead of
 * calling `setTimeout` / `Date.now` directly, so tests can drive it.
 */

export interface MockClock {
  /** Wall-clock milliseconds per mock millisecond (the `--time-scale` factor). */
  readonly timeScale: number;
  /** The mock time the clock started at (`--now`): what the fixtures are anchored to. */
  readonly startMs: number;
  /** The mock's current time: `--now` at start, advancing 1/timeScale as fast as the wall clock. */
  now(): Date;
  nowMs(): number;
  /** Runs `fn` after `ms` mock milliseconds (`ms × timeScale` real ones). */
  setTimeout(fn: () => void, ms: number): MockTimer;
  /** Resolves after `ms` mock milliseconds; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Cancels every pending timer; used when the server closes so nothing keeps the process alive. */
  dispose(): void;
}

export interface MockTimer {
  cancel(): void;
}

export interface ClockOptions {
  /** Default: the current time. */
  now?: Date | undefined;
  /** Default 1. Must be > 0. */
  timeScale?: number | undefined;
  /** Injectable wall clock for tests. */
  wallNow?: (() => number) | undefined;
}

/** The longest delay `setTimeout` takes as given. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createClock(options: ClockOptions = {}): MockClock {
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) {
    throw new RangeError(`time scale must be a positive number, got ${timeScale}`);
  }
  const wallNow = options.wallNow ?? Date.now;
  const wallStart = wallNow();
  const mockStart = options.now?.getTime() ?? wallStart;
  const pending = new Set<NodeJS.Timeout>();

  const nowMs = (): number => mockStart + (wallNow() - wallStart) / timeScale;

  const setTimer = (fn: () => void, ms: number): MockTimer => {
    let handle: NodeJS.Timeout;
    // Node fires a delay above 2^31 - 1 ms after 1 ms: long waits (a 12-hour
    // retry at a large time scale) go in steps instead.
    const arm = (wallMs: number): void => {
      const step = Math.min(wallMs, MAX_TIMER_MS);
      handle = setTimeout(() => {
        pending.delete(handle);
        if (wallMs > MAX_TIMER_MS) arm(wallMs - MAX_TIMER_MS);
        else fn();
      }, step);
      pending.add(handle);
    };
    arm(Math.max(0, ms * timeScale));
    return {
      cancel: () => {
        clearTimeout(handle);
        pending.delete(handle);
      },
    };
  };

  return {
    timeScale,
    startMs: mockStart,
    nowMs,
    now: () => new Date(nowMs()),
    setTimeout: setTimer,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = (): void => {
          timer.cancel();
          reject(signal?.reason);
        };
        const timer = setTimer(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    dispose: () => {
      for (const handle of pending) clearTimeout(handle);
      pending.clear();
    },
  };
}
