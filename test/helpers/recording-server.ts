import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** `null` leaves the request unanswered (until the server stops), to test timeouts and Ctrl-C. */
export type Responder = (
  req: Recorded,
) => { status?: number; headers?: Record<string, string>; body: unknown } | null;

/** A loopback server that records every request and answers with what the test says. */
export class RecordingServer {
  readonly requests: Recorded[] = [];
  private server: Server | undefined;
  url = '';

  constructor(
    private responder: Responder = () => ({
      body: { status: 'ok', page: 1, has_next_pages: false, results: [] },
    }),
  ) {}

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const recorded: Recorded = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: text === '' ? undefined : JSON.parse(text),
        };
        this.requests.push(recorded);
        const answer = this.responder(recorded);
        if (answer === null) return;
        res.writeHead(answer.status ?? 200, {
          'content-type': 'application/json',
          ...answer.headers,
        });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** The key the CLI tests send; never expected in any output. */
export const TEST_KEY = 'api_live_secret_key_1234';

/**
 * One recording server for a test file: started before its tests, stopped
 * after, its request log emptied before each test.
 */
export function useRecordingServer(): RecordingServer {
  const server = new RecordingServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    server.requests.length = 0;
  });
  return server;
}

/** The global flags that aim the CLI at a recording server, without retries. */
export const apiFlags = (server: RecordingServer): string[] => [
  '--base-url',
  server.url,
  '--api-key',
  TEST_KEY,
  '--retries',
  '0',
];
