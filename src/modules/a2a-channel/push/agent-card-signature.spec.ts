import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { canonicalize } from 'json-canonicalize';
import { hostJose } from '../../../../test/support/admin-jose';
import { snapshotFrom } from '../../../../test/support/config-snapshot';
import { renderAgentCard } from '../card/agent-card';
import { AgentCardSigner, cardSigningInput } from './agent-card-signature';
import { PushSigningKey, pushSigningKeyPath } from './push-signing-key';

describe('AgentCardSigner', () => {
  const jose = hostJose();
  const origin = 'https://claw.example';
  let dir: string;
  let key: PushSigningKey;
  let signings: number;
  let errors: string[];

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-card-sig-'));
    key = new PushSigningKey(pushSigningKeyPath(dir));
    signings = 0;
    const signDetached = key.signDetached.bind(key);
    key.signDetached = (payload, header) => (signings++, signDetached(payload, header));
    errors = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('signs what a client checks: the card without signatures, JCS, whatever the key order', () => {
    const a = { name: 'x', signatures: [{ protected: 'p', signature: 's' }], capabilities: { streaming: true, b: [1, 'é'] } };
    const b = { capabilities: { b: [1, 'é'], streaming: true }, name: 'x' };
    expect(cardSigningInput(a)).toBe(cardSigningInput(b));
    expect(cardSigningInput(a)).toBe('{"capabilities":{"b":[1,"é"],"streaming":true},"name":"x"}');
  });

  it('one signature per card content: a snapshot that renders the same card again is not signed again', async () => {
    const signer = new AgentCardSigner(key);
    const config = async (name: string) =>
      (await snapshotFrom({ agents: { list: [{ id: 'main', default: true, identity: { name } }] } })).config;
    const first = await signer.signedRendering(renderAgentCard(await config('One'), origin), origin);
    // Another snapshot object with the same card: the same bytes (so the same ETag), no new signature.
    const again = await signer.signedRendering(renderAgentCard(await config('One'), origin), origin);
    expect(again).toEqual(first);
    expect(signings).toBe(1);
    const other = await signer.signedRendering(renderAgentCard(await config('Two'), origin), origin);
    expect(other.etag).not.toBe(first.etag);
    expect(signings).toBe(2);
    const card = JSON.parse(other.body) as { signatures: Array<{ protected: string; signature: string }> };
    const { keys } = await key.jwks();
    await jose.flattenedVerify(
      { ...card.signatures[0], payload: jose.base64url.encode(canonicalize({ ...card, signatures: undefined })) },
      await jose.importJWK(keys[0], 'ES256'),
    );
  });

  it('serves the card unsigned while the key cannot be had, saying why, and signs once it can', async () => {
    await fs.mkdir(path.dirname(pushSigningKeyPath(dir)), { recursive: true });
    await fs.writeFile(pushSigningKeyPath(dir), 'not a key');
    const signer = new AgentCardSigner(key);
    const card = { name: 'clawgate' };
    expect(await signer.sign(card, origin)).toEqual(card);
    expect(errors.join('\n')).toMatch(/served unsigned: .*does not hold a private P-256 JWK/);
    await fs.rm(pushSigningKeyPath(dir));
    expect((await signer.sign(card, origin)).signatures).toHaveLength(1);
  });
});
