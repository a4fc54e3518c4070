/**
 * Reading undici/Node network errors: a short human reason, whether it was a
 * timeout, and whether the request provably never left this machine, which is
 * the only case where a PATCH or DELETE may be retried.
 */

export interface NetworkFailure {
  /** e.g. `connection refused`, `connection reset`. */
  reason: string;
  /** The failure happened before any byte of the request reached the server. */
  notSent: boolean;
  timeout: boolean;
  /** True when no connection was ever established (the message says "cannot connect"). */
  connect: boolean;
}

interface Known {
  reason: string;
  notSent: boolean;
  timeout?: boolean;
}

const KNOWN: Readonly<Record<string, Known>> = {
  ECONNREFUSED: { reason: 'connection refused', notSent: true },
  ENOTFOUND: { reason: 'host not found', notSent: true },
  EAI_AGAIN: { reason: 'DNS lookup failed', notSent: true },
  EHOSTUNREACH: { reason: 'host unreachable', notSent: true },
  ENETUNREACH: { reason: 'network unreachable', notSent: true },
  EADDRNOTAVAIL: { reason: 'address not available', notSent: true },
  UND_ERR_CONNECT_TIMEOUT: { reason: 'connect timeout', notSent: true, timeout: true },
  // A TCP-level timeout can strike mid-request, so it does not prove anything.
  ETIMEDOUT: { reason: 'connection timed out', notSent: false, timeout: true },
  ECONNRESET: { reason: 'connection reset', notSent: false },
  EPIPE: { reason: 'connection closed while sending', notSent: false },
  UND_ERR_SOCKET: { reason: 'socket hang up', notSent: false },
  UND_ERR_CLOSED: { reason: 'connection closed', notSent: false },
  UND_ERR_HEADERS_TIMEOUT: { reason: 'timeout', notSent: false, timeout: true },
  UND_ERR_BODY_TIMEOUT: { reason: 'timeout', notSent: false, timeout: true },
};

export function classifyNetworkError(err: unknown): NetworkFailure {
  const code = errorCode(err);
  const known = code === undefined ? undefined : KNOWN[code];
  if (known !== undefined) {
    return {
      reason: known.reason,
      notSent: known.notSent,
      timeout: known.timeout ?? false,
      connect: known.notSent,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  // undici's tunnel through a proxy fails before the request itself is written.
  const proxy = /^Proxy response \((\d+)\)/.exec(message);
  if (proxy !== null) {
    return { reason: `proxy answered ${proxy[1]}`, notSent: true, timeout: false, connect: true };
  }
  return { reason: message || 'network error', notSent: false, timeout: false, connect: false };
}

/** The code may sit on the error, on its cause, or on the first of an AggregateError (happy eyeballs). */
function errorCode(err: unknown): string | undefined {
  for (let current: unknown = err, depth = 0; current !== undefined && depth < 4; depth++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const record = current as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof record.code === 'string') return record.code;
    if (Array.isArray(record.errors) && record.errors.length > 0) current = record.errors[0];
    else current = record.cause;
  }
  return undefined;
}
