import { AccountSet } from './account-set';

interface Settings {
  accountId: string;
  token: string;
}

/** A client whose stop takes as long as the test says (`release`), so that applies can overlap it. */
class FakeClient {
  stopped = false;
  private releaseStop?: () => void;
  constructor(
    readonly accountId: string,
    readonly token: string,
    private readonly slowStop: boolean,
  ) {}
  stop(): Promise<void> {
    if (!this.slowStop) {
      this.stopped = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.releaseStop = () => {
        this.stopped = true;
        resolve();
      };
    });
  }
  release(): void {
    this.releaseStop?.();
  }
  get stopping(): boolean {
    return this.releaseStop !== undefined && !this.stopped;
  }
}

/** Everything started through the hooks, in order, and what failed. */
function harness(options: { slowStop?: boolean; failStart?: (s: Settings) => boolean } = {}) {
  const started: FakeClient[] = [];
  const failures: string[] = [];
  const set = new AccountSet<Settings, FakeClient>({
    fingerprint: (s) => s.token,
    start: (s) => {
      if (options.failStart?.(s)) throw new Error(`bad token for ${s.accountId}`);
      const client = new FakeClient(s.accountId, s.token, options.slowStop ?? false);
      started.push(client);
      return client;
    },
    stop: (client) => client.stop(),
    failed: (accountId, phase, error) => failures.push(`${accountId} ${phase}: ${(error as Error).message}`),
  });
  /** The clients started and not stopped, per account (never more than one each, whatever the applies did). */
  const live = () => started.filter((c) => !c.stopped).map((c) => `${c.accountId}=${c.token}`);
  return { set, started, failures, live };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await flush();
  if (!condition()) throw new Error('condition never held');
}

describe('AccountSet', () => {
  it('starts each account, keeps one whose fingerprint is unchanged, restarts a changed one, stops a removed one', async () => {
    const { set, started, live } = harness();
    await set.apply([
      { accountId: 'a', token: 't1' },
      { accountId: 'b', token: 't2' },
    ]);
    expect(live()).toEqual(['a=t1', 'b=t2']);
    const [a] = started;
    await set.apply([
      { accountId: 'a', token: 't1' },
      { accountId: 'c', token: 't3' },
    ]);
    expect(live()).toEqual(['a=t1', 'c=t3']);
    expect(set.get('a')).toBe(a);
    await set.apply([{ accountId: 'a', token: 't9' }]);
    expect(live()).toEqual(['a=t9']);
    expect(a.stopped).toBe(true);
    expect(set.ids()).toEqual(['a']);
  });

  it('runs overlapping applies one after the other: an account the second removed stays removed', async () => {
    const { set, started, live } = harness({ slowStop: true });
    await set.apply([
      { accountId: 'a', token: 'a1' },
      { accountId: 'b', token: 'b1' },
    ]);
    const [a1, b1] = started;
    // The first change restarts `a`; while `a` is stopping, the second removes `b`.
    const first = set.apply([
      { accountId: 'a', token: 'a2' },
      { accountId: 'b', token: 'b1' },
    ]);
    await until(() => a1.stopping);
    const second = set.apply([{ accountId: 'a', token: 'a2' }]);
    a1.release();
    await until(() => b1.stopping);
    b1.release();
    await Promise.all([first, second]);
    expect(live()).toEqual(['a=a2']);
    // `b` was never started again, and `a` only once more.
    expect(started.map((c) => `${c.accountId}=${c.token}`)).toEqual(['a=a1', 'b=b1', 'a=a2']);
  });

  it('applies the latest of several sets handed in during one apply, skipping those overtaken', async () => {
    const { set, started, live } = harness({ slowStop: true });
    await set.apply([{ accountId: 'a', token: 'a1' }]);
    const [a1] = started;
    const applies = [set.apply([{ accountId: 'a', token: 'a2' }])];
    await until(() => a1.stopping);
    applies.push(set.apply([{ accountId: 'a', token: 'a3' }]), set.apply([{ accountId: 'a', token: 'a4' }]));
    a1.release();
    await Promise.all(applies);
    // a2 was overtaken while a1 stopped, a3 before its turn: neither ever ran.
    expect(started.map((c) => c.token)).toEqual(['a1', 'a4']);
    expect(live()).toEqual(['a=a4']);
  });

  it('reports an account that fails to start and starts the others', async () => {
    const { set, failures, live } = harness({ failStart: (s) => s.accountId === 'bad' });
    await set.apply([
      { accountId: 'good1', token: 'x' },
      { accountId: 'bad', token: 'y' },
      { accountId: 'good2', token: 'z' },
    ]);
    expect(live()).toEqual(['good1=x', 'good2=z']);
    expect(failures).toEqual(['bad start: bad token for bad']);
    expect(set.get('bad')).toBeUndefined();
  });

  it('tries a failed account again on the next apply', async () => {
    let broken = true;
    const { set, live } = harness({ failStart: () => broken });
    await set.apply([{ accountId: 'a', token: 'x' }]);
    expect(live()).toEqual([]);
    broken = false;
    await set.apply([{ accountId: 'a', token: 'x' }]);
    expect(live()).toEqual(['a=x']);
  });

  it('stopped during an apply: lets it finish, starts nothing more, and stops every client', async () => {
    const { set, started, live } = harness({ slowStop: true });
    await set.apply([{ accountId: 'a', token: 'a1' }]);
    const [a1] = started;
    const changing = set.apply([{ accountId: 'a', token: 'a2' }]);
    await until(() => a1.stopping);
    const stopping = set.stop();
    a1.release();
    await changing;
    await until(() => started.every((c) => c.stopped || c.stopping));
    for (const client of started) client.release();
    await stopping;
    expect(started.map((c) => c.token)).toEqual(['a1']);
    expect(live()).toEqual([]);
    await set.apply([{ accountId: 'a', token: 'a3' }]);
    expect(live()).toEqual([]);
  });

  it('reports a client whose stop fails and drops it', async () => {
    const failures: string[] = [];
    const set = new AccountSet<Settings, { token: string }>({
      fingerprint: (s) => s.token,
      start: (s) => ({ token: s.token }),
      stop: () => Promise.reject(new Error('socket already closed')),
      failed: (accountId, phase, error) => failures.push(`${accountId} ${phase}: ${(error as Error).message}`),
    });
    await set.apply([{ accountId: 'a', token: '1' }]);
    await set.apply([{ accountId: 'a', token: '2' }]);
    expect(set.get('a')).toEqual({ token: '2' });
    expect(failures).toEqual(['a stop: socket already closed']);
  });
});
