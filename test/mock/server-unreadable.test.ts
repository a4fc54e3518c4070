/**
 * Requests the HTTP parser cannot read never become a request: the server
 * answers them on the raw socket (endRaw in src/mock/http-io.ts) with the
 * error envelope and the headers every answer carries, then closes that
 * connection and keeps serving.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, quiet: true });
});
afterAll(() => server.close());

/** What the server writes back to `raw` before it closes the connection. */
function exchange(raw: string): Promise<string> {
  const { port, hostname } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.write(raw);
  });
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [status = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]),
  );
  return { status, headers, body: JSON.parse(body) as { status: string; errors: unknown[] } };
}

describe('unreadable requests', () => {
  it('a request that is not HTTP: 400, the envelope, its length and request id, closed', async () => {
    const r = parse(await exchange('NOT HTTP AT ALL\r\n\r\n'));
    expect(r.status).toBe('HTTP/1.1 400 Bad Request');
    expect(r.body.status).toBe('not_ok');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(r.body)));
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    expect(r.headers.get('connection')).toBe('close');
  });

  it('headers too large: 431 with its own words', async () => {
    const r = parse(
      await exchange(`GET /ping HTTP/1.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`),
    );
    expect(r.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.stringify(r.body)).toContain('Request headers too large.');
  });

  it('keeps serving', async () => {
    const answer = await fetch(`${server.url}/ping`);
    expect(answer.status).toBe(200);
  });
});
