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
  const all: Record<string, string> = {
    'x-request-id': requestId,
    ...headers,
    ...(known instanceof TooManyRequests ? { 'retry-after': String(known.retryAfterSeconds) } : {}),
    ...(known.code === 'ER0360' ? { 'retry-after': '1' } : {}),
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const reason = STATUS_TEXT[known.status] ?? 'Error';
  log?.(`GET ${WS_PATH} ${known.status} websocket ${requestId}`);
  socket.end(`HTTP/1.1 ${known.status} ${reason}\r\n${head}\r\n${body}`);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};
