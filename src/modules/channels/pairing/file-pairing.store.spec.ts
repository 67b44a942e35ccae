import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describePairingStoreContract } from '../../../../test/support/pairing-store-contract';
import { FilePairingStore } from './file-pairing.store';
import type { PairingStore } from './pairing-store.port';

describePairingStoreContract('files', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-pairing-contract-'));
  const opened: PairingStore[] = [];
  return {
    open: async (now) => {
      const store = new FilePairingStore(dir, now);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('FilePairingStore files', () => {
  it('are private: the directory 0700, each channel file 0600', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-pairing-modes-'));
    const store = new FilePairingStore(dir);
    await store.ask('telegram', 'home', { id: '42' });
    await store.close();
    expect(statSync(path.join(dir, 'pairing')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'pairing', 'telegram.json')).mode & 0o777).toBe(0o600);
  });
});

describe('FilePairingStore', () => {
  it('scopes an approval to the bot account it was asked on, as OpenClaw does', async () => {
    const store = new FilePairingStore(mkdtempSync(path.join(os.tmpdir(), 'clawgate-pairing-')));
    const asked = await store.ask('telegram', 'home', { id: '42', name: 'Ann' });
    if (asked.kind !== 'code') throw new Error(`expected a code, got ${asked.kind}`);
    await store.approve('telegram', asked.request.code);
    // Bot `work` may route to another agent: the same person pairs with it on their own.
    const onWork = await store.ask('telegram', 'work', { id: '42', name: 'Ann' });
    expect(onWork).toMatchObject({ kind: 'code', fresh: true, request: { accountId: 'work' } });
    expect(await store.isApproved('telegram', 'home', '42')).toBe(true);
    expect(await store.isApproved('telegram', 'work', '42')).toBe(false);
    expect(await store.ask('telegram', 'home', { id: '42' })).toEqual({ kind: 'approved' });
  });
});
