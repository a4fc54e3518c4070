/**
 * A tiny scriptable HTTP server for the client tests: per path, a queue of
 * canned replies (or a handler), and a log of every request it saw.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent verbatim. */
  text?: string;
  /** Never answer (the client must time out or abort). */
  hang?: boolean;
  /** Drop the connection without answering (socket hang up). */
  destroy?: boolean;
  /** Send the status line, headers and this much of the body, then stall. */
  stallAfter?: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
  at: number;
  /** Set when the client went away before the reply was finished. */
  aborted: boolean;
}

export type Handler = (request: SeenRequest) => Reply;

export class ScriptServer {
  readonly requests: SeenRequest[] = [];
  #queues = new Map<string, Reply[]>();
  #handlers = new Map<string, Handler>();
  #waiters: (() => void)[] = [];
  #server = http.createServer((req, res) => this.#handle(req, res));
  url = '';
  port = 0;

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(port, '127.0.0.1', resolve));
    this.port = (this.#server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    return this;
  }

  /** Replies for the next requests to `path`, in order; the last one repeats. */
  enqueue(path: string, ...replies: Reply[]): this {
    this.#queues.set(path, [...(this.#queues.get(path) ?? []), ...replies]);
    return this;
  }

  handle(path: string, handler: Handler): this {
    this.#handlers.set(path, handler);
    return this;
  }

  /** Resolves once a request matching `predicate` arrived; rejects after `timeoutMs`. */
  waitFor(predicate: (r: SeenRequest) => boolean, timeoutMs = 2000): Promise<SeenRequest> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.requests.find(predicate);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error('timed out waiting for a request'));
      }, timeoutMs);
      const waiter = (): void => {
        if (check()) this.#waiters = this.#waiters.filter((w) => w !== waiter);
      };
      if (!check()) this.#waiters.push(waiter);
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body === '' ? undefined : (JSON.parse(body) as unknown);
      } catch {
        json = undefined;
      }
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json,
        at: Date.now(),
        aborted: false,
      };
      this.requests.push(seen);
      res.on('close', () => {
        if (!res.writableFinished) seen.aborted = true;
      });
      for (const waiter of [...this.#waiters]) waiter();

      const reply = this.#replyFor(seen);
      if (reply.hang === true) return;
      if (reply.destroy === true) {
        req.socket.destroy();
        return;
      }
      if (reply.stallAfter !== undefined) {
        res.writeHead(reply.status ?? 200, {
          'content-type': 'application/json',
          ...reply.headers,
        });
        res.write(reply.stallAfter);
        return;
      }
      const headers: Record<string, string> = { ...reply.headers };
      let payload = reply.text ?? '';
      if (reply.json !== undefined) {
        payload = JSON.stringify(reply.json);
        headers['content-type'] ??= 'application/json';
      }
      res.writeHead(reply.status ?? 200, headers);
      res.end(payload);
    });
  }

  #replyFor(seen: SeenRequest): Reply {
    const handler = this.#handlers.get(seen.path);
    if (handler !== undefined) return handler(seen);
    const queue = this.#queues.get(seen.path);
    if (queue !== undefined && queue.length > 0) {
      return queue.length > 1 ? (queue.shift() as Reply) : (queue[0] as Reply);
    }
    return {
      status: 404,
      json: {
        status: 'not_ok',
        errors: [{ code: 'ER0000', message: `no script for ${seen.path}` }],
      },
    };
  }
}

export async function startServer(): Promise<ScriptServer> {
  return new ScriptServer().start();
}

/** A port that was free a moment ago and now refuses connections. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function envelope(
  status: number,
  code: string,
  message: string,
  requestId = 'req-123',
): unknown {
  return {
    status: 'not_ok',
    request_id: requestId,
    errors: [
      {
        status,
        code,
        message,
        links: { about: 'https://docs.example/errors' },
        timestamp: '2025-01-01T00:00:00Z',
      },
    ],
  };
}
