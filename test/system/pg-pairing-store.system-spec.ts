import { PgPairingStore } from '../../src/modules/channels/pairing/pg-pairing.store';
import { describePairingStoreContract } from '../support/pairing-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(90_000);

const postgres = postgresForSuite('pairing');

describePairingStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgPairingStore[] = [];
  return {
    open: async (now) => {
      const store = await PgPairingStore.open(url, now);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close().catch(() => undefined);
    },
  };
});

describe('PgPairingStore across replicas', () => {
  it('gives two replicas asking at once for ten senders exactly three codes, and an approval on one passes on the other', async () => {
    const url = await postgres.freshDatabase();
    const [a, b] = await Promise.all([PgPairingStore.open(url), PgPairingStore.open(url)]);
    try {
      const asks = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).ask('telegram', 'home', { id: `sender-${i}` })));
      const codes = asks.flatMap((r) => (r.kind === 'code' ? [r.request.code] : []));
      expect(codes).toHaveLength(3);
      expect(asks.filter((r) => r.kind === 'full')).toHaveLength(7);
      const given = asks.find((r) => r.kind === 'code');
      if (given?.kind !== 'code') throw new Error('no code was given');
      expect(await b.isApproved('telegram', 'home', given.request.senderId)).toBe(false);
      await a.approve('telegram', given.request.code);
      expect(await b.isApproved('telegram', 'home', given.request.senderId)).toBe(true);
      expect(await b.deny('telegram', given.request.code)).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
