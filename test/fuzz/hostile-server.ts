/**
 * A loopback server that answers whatever a test scripts, byte for byte:
 * any status, any headers, any body (text, or a stream that never ends), so
 * the client can be tried against a hostile or broken server.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as is; an object is sent as JSON. */
  body?: unknown;
  /** Send this chunk again and again until the client goes away. */
  endless?: string;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body, or undefined. */
  json: Record<string, unknown> | undefined;
}

export type HostileScript = (request: SeenRequest, index: number) => HostileAnswer;

export class HostileServer {
  readonly requests: SeenRequest[] = [];
  url = '';
  #server: Server | undefined;
  #script: HostileScript;

  constructor(script: HostileScript = () => ({ body: { results: [] } })) {
    this.#script = script;
  }

  answer(script: HostileScript): void {
    this.#script = script;
    this.requests.length = 0;
  }

  async start(): Promise<this> {
    this.#server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> | undefined;
        try {
          json = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
        } catch {
          json = undefined;
        }
        const seen: SeenRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          json,
        };
        this.requests.push(seen);
        let answer: HostileAnswer;
        try {
          answer = this.#script(seen, this.requests.length - 1);
        } catch {
          answer = { status: 599, body: 'script failed' };
        }
        res.on('error', () => {});
        try {
          res.writeHead(answer.status ?? 200, {
            'content-type': 'application/json',
            ...answer.headers,
          });
        } catch {
          // A header Node itself refuses to send: answer without it.
          res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        }
        if (answer.endless !== undefined) {
          const chunk = answer.endless;
          const pump = (): void => {
            while (!res.destroyed && res.write(chunk)) {
              /* until the socket pushes back */
            }
          };
          res.on('drain', pump);
          res.on('close', () => res.off('drain', pump));
          pump();
          return;
        }
        const body = answer.body;
        res.end(
          typeof body === 'string' || body instanceof Uint8Array
            ? body
            : JSON.stringify(body ?? null),
        );
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

/** The page a request asked for (body or query), default 1. */
export function pageOf(request: SeenRequest): number {
  const fromBody = request.json?.['page'];
  if (typeof fromBody === 'number') return fromBody;
  const q = new URL(request.url, 'http://x').searchParams.get('page');
  return q === null ? 1 : Number(q);
}
