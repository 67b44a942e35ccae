import { canonicalize } from 'json-canonicalize';
import request from 'supertest';
import { a2aRpc } from '../support/a2a-rpc';
import { hostJose } from '../support/admin-jose';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * Signed Agent Cards (docs/a2a.md#signed-cards), checked as a client that has no token yet would: fetch the card over
 * HTTP, take `signatures` off, canonicalize the rest with JCS (RFC 8785), put that back as the JWS payload and verify
 * it with `jose` against the key the gateway publishes at the signature's `jku`. The public card in both forms, the
 * extended card over both bindings and in 0.3; a card changed on the way fails; a reload that changes the card is
 * signed anew, one that does not keeps the very same bytes.
 */
const HERMES = 'hermes-token-0123456789abcdef';
const JWKS_PATH = '/.well-known/a2a-push-jwks.json';

type Card = Record<string, unknown> & { signatures?: Array<{ protected: string; signature: string }> };

const config = (name: string, replyTimeoutMs = 120000) => `{
  gateway: { reload: { mode: "off" } },
  agents: { list: [
    { id: "main", default: true, identity: { name: "${name}" }, description: "Answers the questions of partner agents." },
  ] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, replyTimeoutMs: ${replyTimeoutMs}, peers: { hermes: { token: "${HERMES}" } } } },
}`;

describe('Signed Agent Cards (e2e)', () => {
  let gw: TestGateway;
  const jose = hostJose();

  /** What a verifying client does; resolves with the protected header, rejects when the card does not verify. */
  const verify = async (card: Card) => {
    const { signatures, ...content } = card;
    expect(signatures).toHaveLength(1);
    const [signature] = signatures!;
    const header = jose.decodeProtectedHeader(signature);
    // The key set named by the signature, fetched over HTTP, and the key in it named by the signature.
    const jwks = (
      await request(gw.url)
        .get(new URL(String(header.jku)).pathname)
        .expect(200)
    ).body as { keys: Array<{ kid: string }> };
    const jwk = jwks.keys.find((k) => k.kid === header.kid);
    expect(jwk).toBeDefined();
    const key = await jose.importJWK(jwk!, String(header.alg));
    await jose.flattenedVerify({ ...signature, payload: jose.base64url.encode(canonicalize(content)) }, key);
    return header;
  };
  const publicCard = async (path = '/.well-known/agent-card.json') => (await request(gw.url).get(path).expect(200)).body as Card;
  const reload = async (text: string) => {
    await gw.writeConfig(text);
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT)).body.status).toBe('applied');
  };

  beforeAll(async () => {
    gw = await startTestGateway(config('Main Bot'));
  });
  afterAll(() => gw?.stop());

  it('the public card carries a JWS over its JCS form, by the key the gateway publishes', async () => {
    const card = await publicCard();
    const header = await verify(card);
    const { keys } = (await request(gw.url).get(JWKS_PATH).expect(200)).body as { keys: Array<{ kid: string }> };
    expect(header).toEqual({ alg: 'ES256', typ: 'JOSE', kid: keys[0].kid, jku: `${gw.url}${JWKS_PATH}` });
    // Detached: the payload is not repeated in the card, and nothing else is.
    expect(Object.keys(card.signatures![0]).sort()).toEqual(['protected', 'signature']);
    // The 0.3 form has the field too, and its own signature over its own content.
    const v03 = await publicCard('/.well-known/agent.json');
    expect(v03.protocolVersion).toBe('0.3.0');
    await verify(v03);
  });

  it('the extended card is signed as the peer reads it: JSON-RPC, HTTP+JSON, and its 0.3 form', async () => {
    const rpc = await a2aRpc(gw.url, HERMES, 'GetExtendedAgentCard', {});
    expect(rpc.result.skills[0].description).toBe('Answers the questions of partner agents.');
    await verify(rpc.result as Card);
    const rest = await request(gw.url).get('/a2a/v1/extendedAgentCard').set('Authorization', `Bearer ${HERMES}`).expect(200);
    await verify(rest.body as Card);
    const v03 = await a2aRpc(gw.url, HERMES, 'agent/getAuthenticatedExtendedCard', {});
    expect(v03.result.protocolVersion).toBe('0.3.0');
    await verify(v03.result as Card);
  });

  it('a card changed after it was fetched fails the check', async () => {
    const card = await publicCard();
    await verify(card);
    await expect(verify({ ...card, name: 'Impostor' })).rejects.toThrow(/signature verification failed/);
    const moved = {
      ...card,
      supportedInterfaces: [{ url: 'https://evil.example/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    };
    await expect(verify(moved)).rejects.toThrow(/signature verification failed/);
    const extended = (await a2aRpc(gw.url, HERMES, 'GetExtendedAgentCard', {})).result as Card;
    await expect(verify({ ...extended, skills: [] })).rejects.toThrow(/signature verification failed/);
  });

  it('a reload that changes the card gets it signed anew; one that does not keeps the same bytes', async () => {
    const before = await request(gw.url).get('/.well-known/agent-card.json').expect(200);
    // A new snapshot, and nothing on the card changed.
    await reload(config('Main Bot', 60000));
    const same = await request(gw.url).get('/.well-known/agent-card.json').expect(200);
    expect(same.text).toBe(before.text);
    expect(same.headers.etag).toBe(before.headers.etag);

    await reload(config('Renamed Bot'));
    const after = (await request(gw.url).get('/.well-known/agent-card.json').expect(200)).body as Card;
    expect(after.name).toBe('Renamed Bot');
    await verify(after);
    // The old signature does not cover the new card.
    await expect(verify({ ...after, signatures: (before.body as Card).signatures })).rejects.toThrow(/signature verification failed/);
    const extended = (await a2aRpc(gw.url, HERMES, 'GetExtendedAgentCard', {})).result as Card;
    expect(extended.name).toBe('Renamed Bot');
    await verify(extended);
  });
});
