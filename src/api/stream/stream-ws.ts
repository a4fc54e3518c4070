/**
 * The WebSocket transport (the contract's frames) on the `ws` package: it
 * sends the API key the same way as any request (headers on the handshake),
 * answers nothing but sends a `ping` frame every interval (the `pong` counts
 * as activity for the idle watchdog), and after `connected` sends `resume`
 * with the last id it has, or a `ping` to start delivery at once. Frames are
 * queued and the socket paused while the consumer is behind.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';
import { normaliseHeaders } from '../response-meta.js';
import { envelopeOf, parseJson } from './stream-sse.js';
import type {
  StreamConnectRequest,
  StreamItem,
  StreamTransport,
  StreamTransportOptions,
} from './stream-types.js';
import { STREAM_PROTOCOL } from '../../params/stream-params.js';

const DEFAULT_PING_MS = STREAM_PROTOCOL.heartbeatMs;
/** Batches queued before the socket is paused. */
const HIGH_WATER = 256;

export class WsTransport implements StreamTransport {
  readonly name = 'ws';

  constructor(private readonly options: StreamTransportOptions) {}

  async *connect(request: StreamConnectRequest): AsyncGenerator<StreamItem[]> {
    const { WebSocket } = await import('ws');
    const url = request.url.replace(/^http(s?):/i, 'ws$1:');
    const socket = new WebSocket(url, {
      headers: { ...request.headers },
      handshakeTimeout: this.options.connectTimeoutMs,
      perMessageDeflate: false,
    });
    const queue: StreamItem[][] = [];
    let paused = false;
    let ended = false;
    let failure: unknown;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    const push = (items: StreamItem[]): void => {
      queue.push(items);
      if (queue.length >= HIGH_WATER && !paused) {
        paused = true;
        socket.pause();
      }
      notify();
    };
    const send = (frame: unknown): void => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
    };
    let pinger: NodeJS.Timeout | undefined;

    socket.on('unexpected-response', (_req, res: IncomingMessage) => {
      // The handshake was refused: read the envelope, as for any API error.
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        failure ??= ApiError.from(
          res.statusCode ?? 0,
          parseJson(text) ?? text,
          normaliseHeaders(res.headers),
        );
        ended = true;
        socket.terminate();
        notify();
      });
      res.on('error', () => undefined);
    });
    socket.on('upgrade', (res: IncomingMessage) => {
      const headers = normaliseHeaders(res.headers);
      push([
        {
          kind: 'open',
          sessionId: headers[STREAM_PROTOCOL.sessionHeader],
          mode: headers['x-service-mode'],
        },
      ]);
    });
    socket.on('open', () => {
      pinger = setInterval(
        () => send({ type: 'ping' }),
        this.options.pingIntervalMs ?? DEFAULT_PING_MS,
      );
      pinger.unref();
    });
    socket.on('message', (data, isBinary) => {
      request.onActivity();
      if (isBinary) return;
      const frame = parseJson(String(data));
      if (typeof frame !== 'object' || frame === null) return;
      const f = frame as Record<string, unknown>;
      if (f['type'] === 'connected') {
        const position = f['last_event_id'];
        if ((typeof position === 'string' && position !== '') || typeof position === 'number')
          push([{ kind: 'position', id: String(position) }]);
        // Not in the contract's frame, but the mock sends it: the SSE `retry:`.
        if (typeof f['retry'] === 'number' && f['retry'] >= 0)
          push([{ kind: 'retry', ms: f['retry'] }]);
        // Resume where the last connection stopped; a ping starts delivery at once otherwise.
        if (request.lastEventId !== undefined) {
          send({ type: 'resume', last_event_id: request.lastEventId });
        } else send({ type: 'ping' });
        return;
      }
      if (f['type'] === 'article') {
        const article = f['article'];
        if (typeof article !== 'object' || article === null || Array.isArray(article)) return;
        const id = f['id'] ?? (article as Record<string, unknown>)['id'];
        if (id === undefined || id === null || id === '') return;
        push([{ kind: 'article', id: String(id), article: article as Record<string, unknown> }]);
        return;
      }
      if (f['type'] === 'error') {
        push([
          { kind: 'error', envelope: envelopeOf(f['error']), text: JSON.stringify(f['error']) },
        ]);
      }
    });
    socket.on('pong', () => request.onActivity());
    socket.on('error', (error) => {
      failure ??= error;
      ended = true;
      notify();
    });
    socket.on('close', () => {
      ended = true;
      notify();
    });
    const onAbort = (): void => socket.terminate();
    request.signal.addEventListener('abort', onAbort, { once: true });

    try {
      for (;;) {
        if (queue.length > 0) {
          const items = queue.length === 1 ? queue[0]! : queue.flat();
          queue.length = 0;
          if (paused) {
            paused = false;
            socket.resume();
          }
          yield items;
          continue;
        }
        if (request.signal.aborted) throw request.signal.reason;
        if (failure !== undefined) throw failure;
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      clearInterval(pinger);
      request.signal.removeEventListener('abort', onAbort);
      if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
    }
  }

  async close(): Promise<void> {
    // Each connection owns its socket and ends it when its iteration ends.
  }
}
