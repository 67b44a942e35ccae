import type { HeldLease, LaneLeases } from '../../common/coordination/lane-leases';
import { LaneShare } from './lane-share';
import { SessionLanes } from './session-lanes';

const tick = () => new Promise((r) => setImmediate(r));

/** A lease port that records what it is asked and grants when the test says so. */
function recordingLeases() {
  const log: string[] = [];
  const grants: Array<() => void> = [];
  const lost = new AbortController();
  const leases: LaneLeases = {
    acquire: (laneId) =>
      new Promise<HeldLease>((resolve) => {
        log.push(`acquire ${laneId}`);
        grants.push(() => resolve({ token: 9, lost: lost.signal, release: async () => void log.push('release') }));
      }),
  };
  return { leases, log, grant: () => grants.shift()?.(), lose: () => lost.abort(new Error('taken over')) };
}

describe('SessionLanes with a LaneShare (a lane no other replica knows yet)', () => {
  it('runs at once without a lease while the lane is not shared, and takes none when it never is', async () => {
    const { leases, log } = recordingLeases();
    const lanes = new SessionLanes(() => leases);
    await expect(lanes.run('s', 'main', async (fence) => `token ${fence?.token}`, undefined, new LaneShare())).resolves.toBe('token 0');
    expect(log).toEqual([]);
  });

  it('takes the lease when shared while the run goes on, resolves the share once held, and gives it back at the end', async () => {
    const { leases, log, grant, lose } = recordingLeases();
    const lanes = new SessionLanes(() => leases);
    const share = new LaneShare();
    let finish!: () => void;
    let fenceLost: AbortSignal | undefined;
    const run = lanes.run(
      's',
      'main',
      (fence) => {
        fenceLost = fence?.lost;
        return new Promise<void>((r) => (finish = r));
      },
      undefined,
      share,
    );
    await tick();
    let shared = false;
    const sharing = share.share().then(() => (shared = true));
    void share.share();
    await tick();
    expect(log).toEqual(['acquire main:s']);
    expect(shared).toBe(false);
    grant();
    await sharing;
    // A lease taken over by another replica stops the run, as one taken at the start would.
    lose();
    expect(fenceLost?.aborted).toBe(true);
    finish();
    await run;
    expect(log).toEqual(['acquire main:s', 'release']);
  });

  it('leases as usual a run shared before it started, and asks nothing for one shared after it ended', async () => {
    const { leases, log, grant } = recordingLeases();
    const lanes = new SessionLanes(() => leases);
    let finishFirst!: () => void;
    const first = lanes.run('s', 'main', () => new Promise<void>((r) => (finishFirst = r)), undefined, new LaneShare());
    const queuedShare = new LaneShare();
    const second = lanes.run('s', 'main', async () => 'second', undefined, queuedShare);
    await queuedShare.share();
    finishFirst();
    await first;
    await tick();
    expect(log).toEqual(['acquire main:s']);
    grant();
    await expect(second).resolves.toBe('second');
    expect(log).toEqual(['acquire main:s', 'release']);
    await queuedShare.share();
    expect(log).toEqual(['acquire main:s', 'release']);
  });

  it('gives back at once a lease granted after the run it was asked for has ended', async () => {
    const { leases, log, grant } = recordingLeases();
    const lanes = new SessionLanes(() => leases);
    const share = new LaneShare();
    let finish!: () => void;
    const run = lanes.run('s', 'main', () => new Promise<void>((r) => (finish = r)), undefined, share);
    await tick();
    const sharing = share.share();
    finish();
    await run;
    grant();
    await sharing;
    expect(log).toEqual(['acquire main:s', 'release']);
  });
});
