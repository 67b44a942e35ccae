import { InProcessRateLimitWindows } from './rate-limit-windows';
import { SlidingWindowRateLimiter } from './sliding-window-rate-limiter';

describe('InProcessRateLimitWindows', () => {
  it('grants up to count slots in order, no more than the window has left, and forgets a key', () => {
    let now = 1_000;
    const windows = new InProcessRateLimitWindows(new SlidingWindowRateLimiter({ now: () => now }));
    expect(windows.take('p', 3, 5, 60_000)).toBe(3);
    expect(windows.take('p', 4, 5, 60_000)).toBe(2);
    expect(windows.take('p', 1, 5, 60_000)).toBe(0);
    expect(windows.take('q', 1, 5, 60_000)).toBe(1);
    now += 60_000;
    expect(windows.takeNow('p', 6, 5, 60_000)).toBe(5);
    windows.forget('p');
    expect(windows.keys()).toEqual(['q']);
  });
});
