/** The client-side pacer: decisions from X-RateLimit-* headers, and the client waiting before a 429. */
import { describe, expect, it } from 'vitest';
import { NewsClient } from '../../src/api/client.js';
import { RateLimiter } from '../../src/api/rate-limiter.js';
import type { RawResponse, Transport } from '../../src/api/transport.js';

function limiter(start = 1_000_000) {
  let now = start;
  const slept: number[] = [];
  const l = new RateLimiter(
    () => now,
    async (ms) => {
      slept.push(ms);
      now += ms;
    },
  );
  return { l, slept, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter', () => {
  it('does not wait while plenty remain, or when the server sends nothing', async () => {
    const { l, slept } = limiter();
    await l.beforeRequest();
    l.observe({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '50',
      'x-ratelimit-reset': '30',
    });
    await l.beforeRequest();
    expect(slept).toEqual([]);
  });

  it('spreads the last tenth of the window over the time to the reset', () => {
    const { l } = limiter();
    l.observe({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '9',
      'x-ratelimit-reset': '30',
    });
    expect(l.delayMs()).toBe(3000);
  });

  it('waits for the reset at zero remaining, then goes on', async () => {
    const { l, slept } = limiter();
    l.observe({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '12',
    });
    await l.beforeRequest();
    expect(slept).toEqual([12_000]);
    expect(l.delayMs()).toBe(0);
  });

  it('counts requests sent since the last response', async () => {
    const { l, slept } = limiter();
    l.observe({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '11',
      'x-ratelimit-reset': '60',
    });
    await l.beforeRequest(); // 11 → 10 left, no wait yet
    expect(slept).toEqual([]);
    expect(l.delayMs()).toBeGreaterThan(0);
  });
});

describe('NewsClient pacing', () => {
  it('waits before the request that would be throttled, and never sees a 429', async () => {
    const sent: number[] = [];
    let now = 0;
    let remaining = 3;
    const transport: Transport = {
      async send(): Promise<RawResponse> {
        sent.push(now);
        if (remaining === 0)
          return {
            status: 429,
            statusText: 'Too Many Requests',
            headers: { 'retry-after': '1' },
            text: '{}',
          };
        remaining -= 1;
        return {
          status: 200,
          statusText: 'OK',
          headers: {
            'content-type': 'application/json',
            'x-ratelimit-limit': '3',
            'x-ratelimit-remaining': String(remaining),
            'x-ratelimit-reset': String(10 - now / 1000),
          },
          text: '{"ok":true}',
        };
      },
      async close() {},
    };
    const client = new NewsClient(
      {
        version: 't',
        apiKey: 'k',
        baseUrl: 'http://x',
        retries: 0,
        now: () => now,
        sleep: async (ms) => {
          now += ms;
          if (now >= 10_000) remaining = 3;
        },
      },
      transport,
    );
    for (let i = 0; i < 5; i++) await client.request({ method: 'GET', path: '/v1/balance' });
    expect(sent).toHaveLength(5);
    // The fourth request waited for the window's reset at 10 s.
    expect(sent[3]).toBeGreaterThanOrEqual(10_000);
  });
});
