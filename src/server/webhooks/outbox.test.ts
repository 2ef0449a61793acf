import { describe, expect, it } from 'vitest';
import { attemptDelaysMs, newMessageId, retryDelayMs } from './outbox.js';

describe('retry schedule', () => {
  it('tries at least eight times over about a day, then stops', () => {
    const waits: number[] = [];
    for (let made = 1; retryDelayMs(made, 1, () => 0.5) !== undefined; made++) {
      waits.push(retryDelayMs(made, 1, () => 0.5)!);
    }
    expect(waits.length + 1).toBeGreaterThanOrEqual(8);
    const total = waits.reduce((sum, wait) => sum + wait, 0);
    expect(total).toBeGreaterThan(20 * 3_600_000);
    expect(total).toBeLessThan(36 * 3_600_000);
    // Each wait at least as long as the one before: exponential-ish backoff, never a hammer.
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
  });

  it('spreads each wait by ±20% and scales it', () => {
    const base = attemptDelaysMs[3];
    expect(retryDelayMs(3, 1, () => 0)).toBe(base * 0.8);
    expect(retryDelayMs(3, 1, () => 1)).toBe(base * 1.2);
    expect(retryDelayMs(3, 0.001, () => 0.5)).toBe(base * 0.001);
  });
});

describe('webhook ids', () => {
  it('are unique and sort in the order they were made, even within one millisecond', () => {
    const now = Date.now();
    const ids = Array.from({ length: 2000 }, (_, index) =>
      newMessageId(now + (index > 1000 ? 1 : 0)),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('never sort before an earlier id when the clock steps back', () => {
    const later = newMessageId(Date.now() + 60_000);
    expect(newMessageId(Date.now()) > later).toBe(true);
  });
});
