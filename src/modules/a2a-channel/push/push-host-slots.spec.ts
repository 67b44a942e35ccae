import { HostSlots, pushHostOf } from './push-host-slots';

describe('HostSlots', () => {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const slots = () =>
    new HostSlots<string>(2, (item, done) => {
      started.push(item);
      finishers.set(item, done);
    });

  beforeEach(() => {
    started.length = 0;
    finishers.clear();
  });

  it('runs at most perHost per host, the rest in arrival order as slots free; other hosts never wait', () => {
    const s = slots();
    for (const item of ['a1', 'a2', 'a3', 'a4']) s.add('a', item);
    s.add('b', 'b1');
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(s.waiting()).toEqual(['a3', 'a4']);
    finishers.get('a2')!();
    finishers.get('a2')!(); // a second call frees nothing more
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(s.runningFor('a')).toBe(2);
    finishers.get('a1')!();
    finishers.get('a3')!();
    finishers.get('a4')!();
    expect(s.runningFor('a')).toBe(0);
    expect(s.waiting()).toEqual([]);
  });

  it('removeWaiting takes items out of their queues; they never start', () => {
    const s = slots();
    for (const item of ['a1', 'a2', 'a3', 'a4', 'a5']) s.add('a', item);
    expect(s.removeWaiting((item) => item !== 'a4')).toEqual(['a3', 'a5']);
    finishers.get('a1')!();
    finishers.get('a2')!();
    expect(started).toEqual(['a1', 'a2', 'a4']);
  });

  it('keys a delivery by its URL’s host name, whatever the port', () => {
    expect(pushHostOf('https://Hooks.Example.com:8443/a?b')).toBe('hooks.example.com');
    expect(pushHostOf('http://127.0.0.1:1/x')).toBe(pushHostOf('http://127.0.0.1:2/y'));
    expect(pushHostOf('not a url')).toBe('not a url');
  });
});
