import { MAX_PENDING_PER_CHANNEL, PAIRING_CODE_TTL_MS, type PairingStore } from '../../src/modules/channels/pairing/pairing-store.port';

/** Storage for one test: opening it again is another process (a restart, or another replica when shared). */
export interface PairingStoreFixture {
  /** A store over the test's storage, reading the time from `now`. */
  open(now: () => number): Promise<PairingStore>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

const code = async (store: PairingStore, account: string, id: string, name?: string) => {
  const asked = await store.ask('telegram', account, { id, ...(name ? { name } : {}) });
  if (asked.kind !== 'code') throw new Error(`expected a code for ${id}, got ${asked.kind}`);
  return asked;
};

/** What every PairingStore does, run on each implementation (files in `npm test`, PostgreSQL in the system tier). */
export function describePairingStoreContract(name: string, createFixture: () => Promise<PairingStoreFixture>): void {
  describe(`PairingStore contract: ${name}`, () => {
    let fixture: PairingStoreFixture;
    let clock: number;
    const now = () => clock;

    beforeEach(async () => {
      clock = Date.parse('2026-12-07T10:00:00.000Z');
      fixture = await createFixture();
    });
    afterEach(() => fixture.dispose());

    it('gives a sender one code, the same on asking again, and approves it for that bot account only', async () => {
      const store = await fixture.open(now);
      const first = await code(store, 'home', '42', 'Ann');
      expect(first).toMatchObject({ fresh: true, request: { channel: 'telegram', accountId: 'home', senderId: '42', senderName: 'Ann' } });
      expect(first.request.code).toMatch(/^[A-Z0-9]{8}$/);
      expect(first.request.expiresAt).toBe(new Date(clock + PAIRING_CODE_TTL_MS).toISOString());
      expect(await store.ask('telegram', 'home', { id: '42' })).toEqual({ kind: 'code', request: first.request, fresh: false });

      expect(await store.approve('telegram', first.request.code)).toEqual({
        senderId: '42',
        senderName: 'Ann',
        accountId: 'home',
        approvedAt: new Date(clock).toISOString(),
      });
      expect(await store.isApproved('telegram', 'home', '42')).toBe(true);
      expect(await store.isApproved('telegram', 'work', '42')).toBe(false);
      expect(await store.isApproved('discord', 'home', '42')).toBe(false);
      expect(await store.ask('telegram', 'home', { id: '42' })).toEqual({ kind: 'approved' });
      // The code is spent: a second decision finds nothing.
      expect(await store.approve('telegram', first.request.code)).toBeUndefined();
      expect(await store.deny('telegram', first.request.code)).toBeUndefined();
    });

    it('keeps at most three codes waiting per channel; a denied code frees a place and its sender gets a new one', async () => {
      const store = await fixture.open(now);
      const asked = [];
      for (let i = 0; i < MAX_PENDING_PER_CHANNEL; i++) asked.push(await code(store, 'home', `s${i}`));
      expect(await store.ask('telegram', 'home', { id: 'late' })).toEqual({ kind: 'full', pending: MAX_PENDING_PER_CHANNEL });
      // Another channel has its own three.
      expect((await store.ask('slack', 'home', { id: 'late' })).kind).toBe('code');

      expect(await store.deny('telegram', asked[0].request.code)).toEqual(asked[0].request);
      const again = await code(store, 'home', 's0');
      expect(again.fresh).toBe(true);
      expect(again.request.code).not.toBe(asked[0].request.code);
      const [listed] = await store.list(['telegram']);
      expect(listed.pending.map((p) => p.senderId).sort()).toEqual(['s0', 's1', 's2']);
      expect(listed.approved).toEqual([]);
    });

    it('lets a code expire after an hour: it cannot be approved, no longer counts, and the sender gets a new one', async () => {
      const store = await fixture.open(now);
      const first = await code(store, 'home', '42');
      clock += PAIRING_CODE_TTL_MS + 1;
      expect(await store.approve('telegram', first.request.code)).toBeUndefined();
      const second = await code(store, 'home', '42');
      expect(second.fresh).toBe(true);
      expect((await store.list(['telegram']))[0].pending).toEqual([second.request]);
    });

    it('keeps codes and approvals for the next process, and lists every channel it knows', async () => {
      const before = await fixture.open(now);
      const waiting = await code(before, 'home', 'w1');
      const approved = await code(before, 'work', 'a1', 'Bo');
      await before.approve('telegram', approved.request.code);
      await before.close();

      const after = await fixture.open(now);
      expect(await after.isApproved('telegram', 'work', 'a1')).toBe(true);
      expect(await after.ask('telegram', 'home', { id: 'w1' })).toEqual({ kind: 'code', request: waiting.request, fresh: false });
      expect(await after.list()).toEqual([
        {
          channel: 'telegram',
          pending: [waiting.request],
          approved: [{ senderId: 'a1', senderName: 'Bo', accountId: 'work', approvedAt: new Date(clock).toISOString() }],
        },
      ]);
    });
  });
}
