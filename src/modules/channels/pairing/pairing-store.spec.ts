import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PairingStore } from './pairing-store';

describe('PairingStore', () => {
  it('scopes an approval to the bot account it was asked on, as OpenClaw does', async () => {
    const store = new PairingStore(mkdtempSync(path.join(os.tmpdir(), 'clawgate-pairing-')));
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
