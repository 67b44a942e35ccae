import { type RateLimitClock, SlidingWindowRateLimiter } from './sliding-window-rate-limiter';

class ManualClock implements RateLimitClock {
  constructor(public t = 1_000_000) {}
  now(): number {
    return this.t;
  }
}

describe('SlidingWindowRateLimiter', () => {
  it('allows `limit` takes per sliding window per key, then refuses until the oldest ages out', () => {
    const clock = new ManualClock();
    const limiter = new SlidingWindowRateLimiter(clock);
    const take = (key = 'hermes') => limiter.tryTake(key, 3, 60_000);
    expect([take(), take()]).toEqual([true, true]);
    clock.t += 30_000;
    expect([take(), take()]).toEqual([true, false]);
    expect(take('iris')).toBe(true); // windows are per key
    clock.t += 29_999; // the first two are 59.999 s old
    expect(take()).toBe(false);
    clock.t += 1; // now exactly 60 s old: out of the window
    expect([take(), take(), take()]).toEqual([true, true, false]);
    clock.t += 30_000; // the third (t+30 s) ages out
    expect([take(), take()]).toEqual([true, false]);
  });

  it('does not log refused takes, so hammering does not extend the block', () => {
    const clock = new ManualClock();
    const limiter = new SlidingWindowRateLimiter(clock);
    expect(limiter.tryTake('p', 1, 60_000)).toBe(true);
    for (let i = 0; i < 100; i++) {
      clock.t += 500;
      expect(limiter.tryTake('p', 1, 60_000)).toBe(false);
    }
    clock.t += 10_000;
    expect(limiter.tryTake('p', 1, 60_000)).toBe(true);
  });

  it('applies a lowered limit at once and keeps memory bounded under long runs', () => {
    const clock = new ManualClock();
    const limiter = new SlidingWindowRateLimiter(clock);
    for (let i = 0; i < 10; i++) expect(limiter.tryTake('p', 30, 60_000)).toBe(true);
    expect(limiter.tryTake('p', 5, 60_000)).toBe(false);
    for (let i = 0; i < 10_000; i++) {
      clock.t += 2_000;
      expect(limiter.tryTake('q', 30, 60_000)).toBe(true);
    }
    expect(limiter.tryTake('q', 30, 60_000)).toBe(false);
  });

  it('forgets a key', () => {
    const limiter = new SlidingWindowRateLimiter(new ManualClock());
    expect(limiter.tryTake('gone', 1, 60_000)).toBe(true);
    expect(limiter.keys()).toEqual(['gone']);
    limiter.forget('gone');
    expect(limiter.keys()).toEqual([]);
    expect(limiter.tryTake('gone', 1, 60_000)).toBe(true);
  });
});
