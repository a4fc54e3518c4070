/**
 * The errors a stream ends with (stream-session.ts): the service's own codes
 * with what to do about them, and the network's failure once the session
 * gives up (stream-reconnect.ts says when).
 */
import { type ApiError, ConnectionError, TimeoutError, UsageError } from '../errors.js';
import { redactText } from '../redact.js';
import { type GiveUpPolicy, formatSpan } from './stream-reconnect.js';

/** Adds what to do about the stream's own codes; ER0363 is a usage error (exit 2). */
export function streamApiError(error: ApiError, apiKey: string | undefined): Error {
  error.message = redactText(error.message, apiKey);
  if (error.code === 'ER0363') {
    return new UsageError(`${error.message} [ER0363]`, {
      code: 'ER0363',
      hint: '--stream-max-age takes minutes from 1 to 1440',
    });
  }
  if (error.code === 'ER0360') {
    error.hint ??=
      'too many open streams for this key: `news stream sessions` lists them, `news stream sessions close ID` ends one';
  } else if (error.code === 'ER0361') {
    error.hint ??= 'the key was revoked: use another key (--api-key, NEWS_API_KEY)';
  } else if (error.code === 'ER0301') {
    error.hint ??= 'no points left: the stream ended; see `news balance`';
  }
  return error;
}

/** The error a run ends with when the network keeps failing. */
export function networkFailure(
  url: string,
  timeout: boolean,
  reason: string,
  outage: { failures: number; downMs: number; everOpen: boolean },
  policy: GiveUpPolicy,
): Error {
  const host = hostOf(url);
  // A stream that worked runs out of time; one that never started, of attempts.
  const timed = policy.outageMs !== undefined && outage.everOpen;
  const after = timed
    ? ` for ${formatSpan(outage.downMs)} (${outage.failures} attempts)`
    : outage.failures > 1
      ? ` after ${outage.failures} attempts`
      : '';
  if (timeout) return new TimeoutError(`no answer from the stream at ${host}${after}`);
  const what = outage.everOpen
    ? `cannot keep the stream from ${host} open`
    : `cannot connect to the stream at ${host}`;
  return new ConnectionError(`${what} (${reason})${after}`, {
    hint: timed
      ? `check the network and the service; a stream that worked gives up after ${formatSpan(policy.outageMs!)} without a connection (--retries N: after N attempts)`
      : 'check the network, a proxy (HTTPS_PROXY) and --base-url; --retries N tries longer',
  });
}

/** Connect answers worth another try: rate limits (ER0360 included), timeouts and the 5xx family. */
export function retryable(error: ApiError): boolean {
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

/** A programming error is not a network drop: reconnecting would hide it. */
export function isBug(error: unknown): boolean {
  return (
    (error instanceof TypeError ||
      error instanceof RangeError ||
      error instanceof ReferenceError ||
      error instanceof SyntaxError) &&
    (error as { code?: unknown }).code === undefined
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}
