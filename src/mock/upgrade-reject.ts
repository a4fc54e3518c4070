/**
 * Answers on a raw socket before any upgrade (an upgrade to a wrong path, a
 * refused WebSocket handshake): status, the error envelope, close. Apart
 * from stream-ws.ts so that the server loads `ws` only with the first
 * WebSocket stream.
 */
import type { Duplex } from 'node:stream';
import { STREAM_PROTOCOL } from '../params/stream-params.js';
import { MockHttpError, errorEnvelope } from './error-envelope.js';
import { TooManyRequests } from './faults.js';
import { endRaw } from './http-io.js';

/** Where the WebSocket stream lives. */
export const WS_PATH = STREAM_PROTOCOL.wsPath;

/** An HTTP answer on the raw socket, before any upgrade: status, the envelope, close. */
export function reject(
  socket: Duplex,
  error: unknown,
  requestId: string,
  headers: Record<string, string>,
  now: Date,
  log: ((line: string) => void) | undefined,
): void {
  const known =
    error instanceof MockHttpError
      ? error
      : new MockHttpError(500, undefined, 'Internal mock server error.');
  const body = JSON.stringify(errorEnvelope(known, requestId, now));
  log?.(`GET ${WS_PATH} ${known.status} websocket ${requestId}`);
  endRaw(
    socket,
    known.status,
    {
      'x-request-id': requestId,
      ...headers,
      ...(known instanceof TooManyRequests
        ? { 'retry-after': String(known.retryAfterSeconds) }
        : {}),
      ...(known.code === 'ER0360' ? { 'retry-after': '1' } : {}),
    },
    body,
  );
}
