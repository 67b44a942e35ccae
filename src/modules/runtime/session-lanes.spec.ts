import type { HeldLease, LaneLeases } from '../../common/coordination/lane-leases';
import { SessionLanes } from './session-lanes';

const tick = () => new Promise((r) => setImmediate(r));

describe('SessionLanes', () => {
  it('runs tasks of one session one at a time in FIFO order', async () => {
    const lanes = new SessionLanes();
    const order: string[] = [];
    let release!: () => void;
    const first = lanes.run(
      's',
      'main',
      () =>
        new Promise<void>(
          (r) =>
            (release = () => {
              order.push('a');
              r();
            }),
        ),
    );
    const second = lanes.run('s', 'main', async () => {
      order.push('b');
    });
    const third = lanes.run('s', 'main', async () => {
      order.push('c');
    });
    await tick();
    expect(lanes.state('s')).toEqual({ running: 1, queued: 2 });
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(lanes.state('s')).toEqual({ running: 0, queued: 0 });
  });

  it('runs different sessions concurrently', async () => {
    const lanes = new SessionLanes();
    let releaseA!: () => void;
    const a = lanes.run('a', 'main', () => new Promise<string>((r) => (releaseA = () => r('a'))));
    await expect(lanes.run('b', 'main', async () => 'b')).resolves.toBe('b');
    releaseA();
    await expect(a).resolves.toBe('a');
  });

  it('lets a nested step run while the main lane of the same session waits on it (no deadlock)', async () => {
    const lanes = new SessionLanes();
    // A's main run waits for work that itself needs a step in session A (B answering A).
    const result = await lanes.run('A', 'main', () => lanes.run('A', 'nested', async () => 'answered'));
    expect(result).toBe('answered');
  });

  it('keeps going after a failed task and reports the failure to its caller only', async () => {
    const lanes = new SessionLanes();
    const failing = lanes.run('s', 'main', async () => {
      throw new Error('boom');
    });
    const next = lanes.run('s', 'main', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('a task that throws before returning its promise fails that run only, and the lane is counted free again', async () => {
    const lanes = new SessionLanes();
    const throwsAtOnce = (): Promise<string> => {
      throw new Error('sync boom');
    };
    const thrown = lanes.run('s', 'main', throwsAtOnce);
    await expect(thrown).rejects.toThrow('sync boom');
    expect(lanes.state('s')).toEqual({ running: 0, queued: 0 });
    await expect(lanes.run('s', 'main', async () => 'after')).resolves.toBe('after');
  });

  it('with leases (a cluster): counts a run as queued until its lease is held, hands the task its fence, releases after it', async () => {
    const events: string[] = [];
    let grant!: () => void;
    const leases: LaneLeases = {
      acquire: (laneId) =>
        new Promise<HeldLease>((resolve) => {
          events.push(`acquire ${laneId}`);
          grant = () => resolve({ token: 7, lost: new AbortController().signal, release: async () => void events.push('release') });
        }),
    };
    const lanes = new SessionLanes(() => leases);
    const run = lanes.run('s', 'main', async (fence) => {
      events.push(`run with token ${fence?.token}`);
      return 'done';
    });
    await tick();
    expect(lanes.state('s')).toEqual({ running: 0, queued: 1 });
    grant();
    await expect(run).resolves.toBe('done');
    expect(events).toEqual(['acquire main:s', 'run with token 7', 'release']);
  });

  it('a wait for a lease that is given up fails the run and leaves the lane usable', async () => {
    let calls = 0;
    const leases: LaneLeases = {
      acquire: async () => {
        if (calls++ === 0) throw new Error('aborted while waiting');
        return { token: 1, lost: new AbortController().signal, release: async () => undefined };
      },
    };
    const lanes = new SessionLanes(() => leases);
    await expect(lanes.run('s', 'main', async () => 'never')).rejects.toThrow('aborted while waiting');
    expect(lanes.state('s')).toEqual({ running: 0, queued: 0 });
    await expect(lanes.run('s', 'main', async () => 'next')).resolves.toBe('next');
  });
});
