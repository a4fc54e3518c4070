import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/mock/clock.js';

describe('the mock clock', () => {
  it('does not fire a timer early when its wall delay exceeds what setTimeout takes', async () => {
    // 15 mock seconds × 1e9 is far beyond 2^31 - 1 ms, which Node would fire after 1 ms.
    const clock = createClock({ timeScale: 1e9 });
    let fired = false;
    clock.setTimeout(() => {
      fired = true;
    }, 15_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toBe(false);
    clock.dispose();
  });

  it('fires short timers after the scaled delay', async () => {
    const clock = createClock({ timeScale: 0.001 });
    const fired = await new Promise<boolean>((resolve) => {
      clock.setTimeout(() => resolve(true), 10_000);
      setTimeout(() => resolve(false), 1000);
    });
    expect(fired).toBe(true);
    clock.dispose();
  });
});
