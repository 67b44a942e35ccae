import { CardChangeTimes, notModifiedSince } from './last-modified';

describe('CardChangeTimes', () => {
  const t0 = new Date('2026-03-01T10:00:00.750Z');
  const t1 = new Date('2026-03-01T11:00:00Z');

  it('keeps the time while the card keeps its ETag, even across snapshots, and takes the new snapshot time on a change', () => {
    const times = new CardChangeTimes();
    expect(times.changedAt('1.0 http://a', '"e1"', t0)).toBe(Date.parse('2026-03-01T10:00:00Z'));
    expect(times.changedAt('1.0 http://a', '"e1"', t1)).toBe(Date.parse('2026-03-01T10:00:00Z'));
    expect(times.changedAt('1.0 http://a', '"e2"', t1)).toBe(t1.getTime());
    // Each version and origin is its own card.
    expect(times.changedAt('0.3 http://a', '"e3"', t1)).toBe(t1.getTime());
  });

  it('stays bounded when many origins are seen', () => {
    const times = new CardChangeTimes();
    for (let i = 0; i < 1000; i++) times.changedAt(`1.0 http://h${i}`, '"e"', t0);
    expect((times as unknown as { byCard: Map<string, unknown> }).byCard.size).toBeLessThanOrEqual(128);
  });
});

describe('notModifiedSince', () => {
  const changedAt = Date.parse('2026-03-01T10:00:00Z');

  it('is true when the date is not before the change, false before it; absent or unparseable dates are ignored', () => {
    expect(notModifiedSince('Sun, 01 Mar 2026 10:00:00 GMT', changedAt)).toBe(true);
    expect(notModifiedSince('Sun, 01 Mar 2026 12:00:00 GMT', changedAt)).toBe(true);
    expect(notModifiedSince('Sun, 01 Mar 2026 09:59:59 GMT', changedAt)).toBe(false);
    expect(notModifiedSince(undefined, changedAt)).toBe(false);
    expect(notModifiedSince('yesterday', changedAt)).toBe(false);
  });
});
