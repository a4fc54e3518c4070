/**
 * Checks of the global limit settings, shared by the flags, the environment
 * and (for `config set`) the config file, so each is refused the same way.
 */
import { UsageError } from '../../api/errors.js';

/**
 * The longest timeout a Node timer can hold (2^31 - 1 ms, about 24.8 days):
 * above it Node warns (TimeoutOverflowWarning) and fires after 1 ms.
 */
export const MAX_TIMEOUT_SECONDS = 2_147_483;

/**
 * `--timeout` in seconds → whole milliseconds. Rounded to the millisecond
 * (undici takes whole milliseconds only: "headersTimeout must be a positive
 * integer"); refused when that leaves nothing, or when no timer can hold it.
 */
export function parseTimeoutSeconds(value: string, label = '--timeout'): number {
  const ms = timeoutMs(value);
  if (ms === undefined) {
    throw new UsageError(`${label} ${TIMEOUT_RULE} (got "${value}")`, {
      hint: 'e.g. --timeout 90; fractions are rounded to the millisecond',
    });
  }
  return ms;
}

export const TIMEOUT_RULE = `must be a number of seconds from 0.001 to ${MAX_TIMEOUT_SECONDS}`;

/** Whole milliseconds, or undefined when no timer can honour the value. */
export function timeoutMs(value: string): number | undefined {
  const text = value.trim();
  const seconds = text === '' ? Number.NaN : Number(text);
  const ms = Math.round(seconds * 1000);
  return !Number.isFinite(seconds) || ms < 1 || seconds > MAX_TIMEOUT_SECONDS ? undefined : ms;
}

/** The response size cap bounds, in MB (2^20 bytes). */
export const MAX_RESPONSE_MB = 4096;

/** `--max-response-mb N` → bytes; a positive number of MB, at most 4096. */
export function parseMaxResponseMb(value: string, label = '--max-response-mb'): number {
  const text = value.trim();
  const mb = text === '' ? Number.NaN : Number(text);
  const bytes = Math.round(mb * 1024 * 1024);
  if (!Number.isFinite(mb) || bytes < 1024 || mb > MAX_RESPONSE_MB) {
    throw new UsageError(
      `${label} must be a number of megabytes from 0.001 to ${MAX_RESPONSE_MB} (got "${value}")`,
    );
  }
  return bytes;
}
