import { describe, expect, it } from 'vitest';
import { thousands } from '../../src/output/text.js';

describe('thousands', () => {
  it('writes what toLocaleString("en-US") writes, without setting up ICU', () => {
    const values = [0, 1, -1, 7, 999, 1000, -1000, 12_345, 999_999, 1_000_000, -1_234_567];
    for (const n of [...values, Number.MAX_SAFE_INTEGER, 2 ** 60, 1234.5678, Number.NaN])
      expect(thousands(n), String(n)).toBe(n.toLocaleString('en-US'));
  });
});
