import { describe, expect, it } from 'vitest';
import { classifyNetworkError } from '../../src/api/network-errors.js';
import {
  type RetryPolicy,
  backoffDelay,
  delayAfterResponse,
  isRetryableStatus,
  methodMayRetry,
} from '../../src/api/retry.js';

const NOW = Date.parse('2025-06-01T00:00:00Z');
const policy = (random = 1 - Number.EPSILON): RetryPolicy => ({
  retries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  random: () => random,
  now: () => NOW,
});

describe('retry policy', () => {
  it.each([
    [408, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [400, false],
    [401, false],
    [402, false],
    [403, false],
    [404, false],
    [501, false],
  ])('status %i retryable: %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  it.each([
    ['GET', false, true],
    ['POST', false, true],
    ['PATCH', false, false],
    ['DELETE', false, false],
    ['PATCH', true, true],
    ['DELETE', true, true],
  ] as const)('%s (not sent: %s) may retry: %s', (method, notSent, expected) => {
    expect(methodMayRetry(method, notSent)).toBe(expected);
  });

  it('full jitter: a random fraction of base · 2^(n-1), capped', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, policy(0.5)))).toEqual([
      500, 1000, 2000, 4000, 8000, 15000, 15000,
    ]);
    expect(backoffDelay(3, policy(0))).toBe(0);
  });

  it.each([
    [{ 'retry-after': '3' }, { kind: 'wait', delayMs: 3000 }],
    [{ 'retry-after': '0' }, { kind: 'wait', delayMs: 0 }],
    [{ 'retry-after': '1.5' }, { kind: 'wait', delayMs: 1500 }],
    [{ 'retry-after': 'Sun, 01 Jun 2025 00:00:10 GMT' }, { kind: 'wait', delayMs: 10_000 }],
    [{ 'retry-after': 'Sat, 31 May 2025 23:00:00 GMT' }, { kind: 'wait', delayMs: 0 }],
    [{ 'retry-after': '31' }, { kind: 'give-up', askedMs: 31_000 }],
    [{ 'retry-after': 'soon' }, { kind: 'wait', delayMs: 500 }],
    [
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' },
      { kind: 'wait', delayMs: 5000 },
    ],
    [
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 8) },
      { kind: 'wait', delayMs: 8000 },
    ],
    [
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 600) },
      { kind: 'give-up', askedMs: 600_000 },
    ],
    [
      { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '20' },
      { kind: 'wait', delayMs: 500 },
    ],
    [
      { 'retry-after': '2', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '6' },
      { kind: 'wait', delayMs: 6000 },
    ],
    [{}, { kind: 'wait', delayMs: 500 }],
  ])('headers %j → %j', (headers, expected) => {
    expect(delayAfterResponse(1, headers, policy(0.5))).toEqual(expected);
  });
});

describe('classifyNetworkError', () => {
  const withCode = (code: string): Error => Object.assign(new Error(`boom ${code}`), { code });
  it.each([
    [withCode('ECONNREFUSED'), 'connection refused', true],
    [withCode('ENOTFOUND'), 'host not found', true],
    [withCode('UND_ERR_CONNECT_TIMEOUT'), 'connect timeout', true],
    [withCode('ECONNRESET'), 'connection reset', false],
    [withCode('UND_ERR_SOCKET'), 'socket hang up', false],
    [
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
      'connection refused',
      true,
    ],
    [new Error('fetch failed', { cause: withCode('EAI_AGAIN') }), 'DNS lookup failed', true],
    [new Error('Proxy response (407) !== 200 when HTTP Tunneling'), 'proxy answered 407', true],
    [new Error('weird'), 'weird', false],
  ])('%s', (err, reason, notSent) => {
    const failure = classifyNetworkError(err);
    expect(failure.reason).toBe(reason);
    expect(failure.notSent).toBe(notSent);
  });
});
