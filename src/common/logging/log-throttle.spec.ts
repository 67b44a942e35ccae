import { LogThrottle } from './log-throttle';

describe('LogThrottle', () => {
  let now = 0;
  const throttle = (maxKeys = 10) => new LogThrottle({ windowMs: 60_000, maxKeys, now: () => now });
  beforeEach(() => (now = 1_000_000));

  it('logs the first occurrence of a key, holds back the rest of its window, and reports them with the next line', () => {
    const t = throttle();
    expect(t.take('a2a 10.0.0.1')).toEqual({ log: true, suppressed: 0 });
    now += 1_000;
    expect(t.take('a2a 10.0.0.1')).toEqual({ log: false });
    expect(t.take('a2a 10.0.0.1')).toEqual({ log: false });
    now += 60_000;
    expect(t.take('a2a 10.0.0.1')).toEqual({ log: true, suppressed: 2 });
    now += 60_000;
    expect(t.take('a2a 10.0.0.1')).toEqual({ log: true, suppressed: 0 });
  });

  it('keeps keys apart', () => {
    const t = throttle();
    expect(t.take('a').log).toBe(true);
    expect(t.take('b').log).toBe(true);
    expect(t.take('a').log).toBe(false);
  });

  it('shares one overflow line per window once maxKeys are remembered, and forgets keys whose window passed quietly', () => {
    const t = throttle(2);
    expect(t.take('a').log).toBe(true);
    expect(t.take('b').log).toBe(true);
    expect(t.take('c')).toEqual({ log: true, suppressed: 0 });
    expect(t.take('d')).toEqual({ log: false });
    expect(t.take('e')).toEqual({ log: false });
    now += 60_000;
    // a and b held nothing back: forgotten, so f gets its own line; the overflow reports what it held back.
    expect(t.take('f')).toEqual({ log: true, suppressed: 0 });
  });
});
