// A fault-injecting HTTP proxy in front of the mock, for the reliability
// suite (bench/reliability.mjs) and its fast CI version
// (test/cli/unattended/reliability.test.ts). A seeded PRNG decides, request by
// request, whether to forward or to fail with 500, 502, 429, a reset
// connection or a timeout (no answer at all): the same seed, the same faults.
import { createServer, request as forward } from 'node:http';

export const FAULT_KINDS = ['500', '502', '429', 'reset', 'timeout'];

/** mulberry32: small, fast, good enough to spread faults. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function envelope(status) {
  return JSON.stringify({
    status: 'not_ok',
    request_id: null,
    errors: [{ status, code: null, message: 'injected fault' }],
  });
}

/**
 * @param {{ target: string, rate: number, seed: number, kinds?: string[], retryAfter?: number }} options
 * @returns {Promise<{ url: string, faults: Record<string, number>, forwarded: number, close(): Promise<void> }>}
 */
export async function startFaultProxy(options) {
  const target = new URL(options.target);
  const kinds = options.kinds ?? FAULT_KINDS;
  const random = prng(options.seed);
  const faults = Object.fromEntries(kinds.map((k) => [k, 0]));
  const held = new Set();
  const stats = { forwarded: 0 };
  const server = createServer((req, res) => {
    // Admin routes are the test's own, never faulted.
    const faulty = req.url?.startsWith('/v1/') && random() < options.rate;
    if (faulty) {
      const kind = kinds[Math.floor(random() * kinds.length)];
      faults[kind] += 1;
      req.resume();
      if (kind === 'reset') {
        req.socket.destroy();
        return;
      }
      if (kind === 'timeout') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      const status = Number(kind);
      const headers = { 'content-type': 'application/json' };
      if (status === 429) headers['retry-after'] = String(options.retryAfter ?? 1);
      res.writeHead(status, headers).end(envelope(status));
      return;
    }
    stats.forwarded += 1;
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    get forwarded() {
      return stats.forwarded;
    },
    async close() {
      for (const res of held) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
