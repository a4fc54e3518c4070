/**
 * The stream's own parameter, `stream.max_age` (minutes of replay a reconnect
 * may ask for). The specification does not show it; the contract gives the
 * default (60) and the error (ER0363). The range is the mock's choice, shared
 * by the client (checked before connecting) and the mock (docs/STREAMS.md).
 */
export const STREAM_MAX_AGE = {
  name: 'stream.max_age',
  flag: '--stream-max-age',
  min: 1,
  max: 1440,
  default: 60,
  code: 'ER0363',
} as const;

/** A whole number of minutes within the range, or undefined. */
export function parseStreamMaxAge(raw: unknown): number | undefined {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d+$/.test(text)) return undefined;
  const minutes = Number(text);
  return minutes >= STREAM_MAX_AGE.min && minutes <= STREAM_MAX_AGE.max ? minutes : undefined;
}

export const STREAM_MAX_AGE_RULE = `must be a whole number of minutes from ${STREAM_MAX_AGE.min} to ${STREAM_MAX_AGE.max}`;

/** The stream protocol's fixed points, shared by the client and the mock (CONTRACT.md, "Streams"). */
/** `--transport`: server-sent events (the default) or the WebSocket. */
export const STREAM_TRANSPORTS = ['sse', 'ws'] as const;
export type StreamTransportName = (typeof STREAM_TRANSPORTS)[number];

export const STREAM_PROTOCOL = {
  ssePath: '/v1/news/stream',
  wsPath: '/v1/news/ws',
  /** Heartbeats (`: heartbeat`, or a `heartbeat` frame) every 15 s. */
  heartbeatMs: 15_000,
  /** The `retry:` a client uses until the server sends one (the mock sends this). */
  retryMs: 3000,
  /** The mock's answer header naming the session (for `news stream sessions close`). */
  sessionHeader: 'x-stream-session-id',
} as const;
