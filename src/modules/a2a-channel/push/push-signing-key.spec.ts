import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { JWK } from 'jose';
import { hostJose } from '../../../../test/support/admin-jose';
import type { PushKeyOrigin, PushKeyStore } from '../store/push-key-store.port';
import { PushSigningKey, pushSigningKeyPath } from './push-signing-key';

/** A shared store as the PostgreSQL one behaves: the first key offered stays, later offers get it back. */
class OneKeyStore implements PushKeyStore {
  key?: JWK;
  origin?: PushKeyOrigin;
  offers = 0;
  async stored(): Promise<JWK | undefined> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.key && { ...this.key };
  }
  async keepFirst(candidate: JWK, origin: PushKeyOrigin): Promise<JWK> {
    this.offers++;
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.key) [this.key, this.origin] = [{ ...candidate }, origin];
    return { ...this.key };
  }
}

describe('PushSigningKey', () => {
  const jose = hostJose();
  let dir: string;
  let logs: string[];

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-push-key-'));
    logs = [];
    const record = (message: unknown): void => void logs.push(String(message));
    jest.spyOn(Logger.prototype, 'log').mockImplementation(record);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(record);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(record);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const stateDir = (name: string) => path.join(dir, name);
  const verifies = async (key: PushSigningKey, jwks: { keys: JWK[] }) => {
    const jwt = await key.sign({ url: 'https://hooks.example/x', body: '{}', taskId: 't1', event: 1 });
    const { payload } = await jose.jwtVerify(jwt, jose.createLocalJWKSet(jwks as never), { audience: 'https://hooks.example/x' });
    return payload.task_id;
  };

  it('alone (no shared store): makes the key file on first use, 0600, and publishes its public half only', async () => {
    const file = pushSigningKeyPath(stateDir('solo'));
    const key = new PushSigningKey(file);
    const { keys } = await key.jwks();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const again = new PushSigningKey(file);
    expect((await again.jwks()).keys[0].kid).toBe(keys[0].kid);
    expect(await verifies(again, { keys })).toBe('t1');
  });

  it('two replicas on one shared store, first use at once: one key offered first wins, both publish it, either signature verifies', async () => {
    const store = new OneKeyStore();
    const a = new PushSigningKey(pushSigningKeyPath(stateDir('a')), () => Promise.resolve(store));
    const b = new PushSigningKey(pushSigningKeyPath(stateDir('b')), () => Promise.resolve(store));
    const [fromA, fromB] = await Promise.all([a.jwks(), b.jwks()]);
    expect(fromA).toEqual(fromB);
    expect(store.origin).toBe('generated');
    expect(await verifies(a, fromB)).toBe('t1');
    expect(await verifies(b, fromA)).toBe('t1');
    // The shared store is the only place the key went: no replica wrote a key file.
    for (const name of ['a', 'b']) await expect(fs.stat(pushSigningKeyPath(stateDir(name)))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(logs.join('\n')).not.toContain(store.key!.d!);
  });

  it('imports a key file when the shared store has none, so a JWKS receivers pinned stays valid; the file is left as it was', async () => {
    const file = pushSigningKeyPath(stateDir('copied'));
    const pinned = await new PushSigningKey(file).jwks();
    const before = await fs.readFile(file, 'utf8');
    const store = new OneKeyStore();
    const shared = new PushSigningKey(file, () => Promise.resolve(store));
    expect(await shared.jwks()).toEqual(pinned);
    expect(store.origin).toBe('imported');
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(logs.some((l) => l.includes(pinned.keys[0].kid!) && l.includes('every replica signs with'))).toBe(true);
  });

  it('a key file other than the stored key is not used, with a warning naming both kids and neither private key', async () => {
    const store = new OneKeyStore();
    const first = await new PushSigningKey(pushSigningKeyPath(stateDir('first')), () => Promise.resolve(store)).jwks();
    const file = pushSigningKeyPath(stateDir('own'));
    const own = await new PushSigningKey(file).jwks();
    const shared = new PushSigningKey(file, () => Promise.resolve(store));
    expect(await shared.jwks()).toEqual(first);
    const warning = logs.find((l) => l.includes('is not used'));
    expect(warning).toContain(own.keys[0].kid);
    expect(warning).toContain(first.keys[0].kid);
    const fileKey = JSON.parse(await fs.readFile(file, 'utf8')) as JWK;
    expect(logs.join('\n')).not.toContain(fileKey.d!);
    expect(logs.join('\n')).not.toContain(store.key!.d!);
  });

  it('a key file that holds no private key is an error naming the file, never quoting it; a later call tries again', async () => {
    const file = pushSigningKeyPath(stateDir('broken'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"kty":"EC","crv":"P-256","x":"secret-looking-x"');
    const key = new PushSigningKey(file);
    const err = (await key.jwks().catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(`the push signing key file ${file} does not hold a private P-256 JWK`);
    expect(err.message).not.toContain('secret-looking');
    await fs.rm(file);
    expect((await key.jwks()).keys).toHaveLength(1);
  });
});
