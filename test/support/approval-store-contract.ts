import type { Approval } from '../../src/modules/approvals/approval';
import type { ApprovalStore } from '../../src/modules/approvals/approval-store.port';

/** Storage for one test: opening it again is another process (a restart, or another replica when shared). */
export interface ApprovalStoreFixture {
  open(): Promise<ApprovalStore>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

function approval(id: string, over: Partial<Approval> = {}): Approval {
  return {
    id,
    state: 'pending',
    agentId: 'ops',
    sessionKey: 'agent:ops:a2a:default:direct:hermes:ctx-1',
    runId: `run-${id}`,
    tool: 'mcp:files:delete',
    toolCallId: `call-${id}`,
    args: { path: '/srv/data/old.csv', recursive: false },
    channel: 'a2a',
    caller: 'hermes',
    taskId: `task-${id}`,
    requestedAt: '2026-12-07T10:00:00.000Z',
    expiresAt: '2026-12-07T10:10:00.000Z',
    ...over,
  };
}

const decision = (state: 'approved' | 'denied' | 'expired' | 'withdrawn', by: string, note?: string) => ({
  state,
  decidedAt: '2026-12-07T10:01:00.000Z',
  decidedBy: by,
  ...(note ? { note } : {}),
});

/** What every ApprovalStore does, run on each implementation (SQLite in `npm test`, PostgreSQL in the system tier). */
export function describeApprovalStoreContract(name: string, createFixture: () => Promise<ApprovalStoreFixture>): void {
  describe(`ApprovalStore contract: ${name}`, () => {
    let fixture: ApprovalStoreFixture;
    let store: ApprovalStore;

    beforeEach(async () => {
      fixture = await createFixture();
      store = await fixture.open();
    });
    afterEach(() => fixture.dispose());

    it('keeps a request whole, and finds it again after a reopen', async () => {
      const asked = approval('a1');
      await store.insert(asked);
      expect(await store.get('a1')).toEqual(asked);
      const reopened = await fixture.open();
      expect(await reopened.get('a1')).toEqual(asked);
      expect(await reopened.get('nope')).toBeUndefined();
    });

    it('decides a pending request once: the first decision wins, the second gets nothing', async () => {
      await store.insert(approval('a1'));
      const approved = await store.decide('a1', decision('approved', 'token:ops', 'fine'));
      expect(approved).toMatchObject({ id: 'a1', state: 'approved', decidedBy: 'token:ops', note: 'fine', tool: 'mcp:files:delete' });
      expect(await store.decide('a1', decision('denied', 'token:other'))).toBeUndefined();
      expect(await store.get('a1')).toMatchObject({ state: 'approved', decidedBy: 'token:ops' });
      expect(await store.decide('missing', decision('approved', 'x'))).toBeUndefined();
    });

    it('lets only one of two concurrent decisions win (another process or replica deciding at once)', async () => {
      await store.insert(approval('race'));
      const other = await fixture.open();
      const outcomes = await Promise.all([
        store.decide('race', decision('approved', 'token:a')),
        other.decide('race', decision('denied', 'token:b')),
      ]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = outcomes.find(Boolean)!;
      expect(await store.get('race')).toMatchObject({ state: winner.state, decidedBy: winner.decidedBy });
    });

    it('lists newest first, by state, at most the limit', async () => {
      await store.insert(approval('old', { requestedAt: '2026-12-07T09:00:00.000Z' }));
      await store.insert(approval('mid', { requestedAt: '2026-12-07T09:30:00.000Z' }));
      await store.insert(approval('new', { requestedAt: '2026-12-07T10:00:00.000Z' }));
      await store.decide('mid', decision('expired', 'timeout'));
      expect((await store.list({ limit: 10 })).map((a) => a.id)).toEqual(['new', 'mid', 'old']);
      expect((await store.list({ state: 'pending', limit: 10 })).map((a) => a.id)).toEqual(['new', 'old']);
      expect((await store.list({ state: 'expired', limit: 10 })).map((a) => a.id)).toEqual(['mid']);
      expect((await store.list({ limit: 1 })).map((a) => a.id)).toEqual(['new']);
    });

    it('records the run that went on after a decision', async () => {
      await store.insert(approval('a1'));
      await store.decide('a1', decision('approved', 'loopback'));
      await store.setResumedBy('a1', 'run-after-restart');
      expect(await store.get('a1')).toMatchObject({ state: 'approved', resumedBy: 'run-after-restart' });
    });
  });
}
