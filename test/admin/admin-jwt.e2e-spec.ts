import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Jose from 'jose';
import request from 'supertest';
import { hostJose } from '../support/admin-jose';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * SSO with a signed identity assertion (Pomerium style): with `sso.jwt` configured the identity
 * comes only from a JWT verified against the proxy's JWKS — signature, exp (30 s leeway), iss, aud,
 * algorithm — and plain identity headers are ignored. The JWKS is served by a local node:http server.
 * See docs/admin-security.md#6-pomerium.
 */

const ROOT = 'jwt-suite-root-token-8c2d5e';
const HEADER = 'X-Pomerium-Jwt-Assertion';
const ISSUER = 'authenticate.corp.example';
const AUDIENCE = 'clawgate.corp.example';
type SigningKey = Parameters<Jose.SignJWT['sign']>[0];

describe('SSO JWT assertions (e2e, local JWKS)', () => {
  let jose: typeof Jose;
  let gw: TestGateway;
  let jwks: http.Server;
  let jwksUrl: string;
  let jwksFetches = 0;
  let signingKey: SigningKey;
  let rogueKey: SigningKey;

  const config = (trusted: string[]) => `{
    agents: { list: [{ id: "main" }] },
    gateway: { admin: {
      tokens: [{ name: "root", token: "${ROOT}", role: "admin" }],
      sso: {
        enabled: true, trustedProxies: ${JSON.stringify(trusted)},
        jwt: { header: "${HEADER}", jwksUrl: "${jwksUrl}", issuer: "${ISSUER}", audience: "${AUDIENCE}", algorithms: ["ES256"] },
        roleMapping: { ops: "operator", platform: "admin" }, defaultRole: "none",
      },
    } },
  }`;

  /** A JWT as Pomerium would mint it; `claims` and `opts` vary it for the negative cases. */
  async function assertion(
    claims: Record<string, unknown> = {},
    opts: { key?: SigningKey; kid?: string; expSeconds?: number; iss?: string; aud?: string } = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new jose.SignJWT({ email: 'alice@corp.example', groups: ['ops'], ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: opts.kid ?? 'proxy-1' })
      .setIssuer(opts.iss ?? ISSUER)
      .setAudience(opts.aud ?? AUDIENCE)
      .setSubject('user-123')
      .setIssuedAt(now - 60)
      .setExpirationTime(now + (opts.expSeconds ?? 300))
      .sign(opts.key ?? signingKey);
  }

  beforeAll(async () => {
    jose = hostJose();
    const pair = await jose.generateKeyPair('ES256', { extractable: true });
    signingKey = pair.privateKey;
    rogueKey = (await jose.generateKeyPair('ES256')).privateKey;
    const publicJwk = { ...(await jose.exportJWK(pair.publicKey)), kid: 'proxy-1', alg: 'ES256', use: 'sig' };
    jwks = http.createServer((req, res) => {
      jwksFetches++;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/pomerium/jwks.json`;
    gw = await startTestGateway(config(['127.0.0.1', '::1']));
  });
  afterAll(async () => {
    await gw?.stop();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  it('accepts a valid assertion and maps its groups claim (highest role wins)', async () => {
    const ops = await assertion();
    await request(gw.url).get('/admin/agents').set(HEADER, ops).expect(200);
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set(HEADER, ops).expect(200);
    const denied = await request(gw.url).post('/admin/agents').set(HEADER, ops).set('If-Match', '"x"').send({ id: 'y' }).expect(403);
    expect(denied.body.detail).toBe('this endpoint requires the "admin" role; sso:alice@corp.example has role "operator"');
    const admin = await assertion({ groups: ['ops', 'platform'] });
    const etag = (await request(gw.url).get('/admin/config').set(HEADER, admin).expect(200)).headers.etag;
    await request(gw.url).post('/admin/agents').set(HEADER, admin).set('If-Match', etag).send({ id: 'jwt-made' }).expect(201);
  });

  it('ignores plain identity headers when jwt is configured, alone or next to a valid assertion', async () => {
    const headers = { 'X-Forwarded-User': 'mallory', 'X-Forwarded-Email': 'mallory@corp.example', 'X-Forwarded-Groups': 'platform' };
    await request(gw.url).get('/admin/agents').set(headers).expect(401);
    const ops = await assertion();
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set(headers).set(HEADER, ops).expect(200);
    await request(gw.url).post('/admin/agents').set(headers).set(HEADER, ops).set('If-Match', '"x"').send({ id: 'z' }).expect(403);
  });

  it.each([
    ['signed by a key that is not in the JWKS', () => assertion({}, { key: rogueKey })],
    ['signed by an unknown key id', () => assertion({}, { key: rogueKey, kid: 'rogue' })],
    ['expired beyond the 30 s leeway', () => assertion({}, { expSeconds: -120 })],
    ['for another audience', () => assertion({}, { aud: 'other-app.corp.example' })],
    ['from another issuer', () => assertion({}, { iss: 'evil.example' })],
    [
      'without a subject, user or e-mail',
      () =>
        new jose.SignJWT({ groups: ['platform'] })
          .setProtectedHeader({ alg: 'ES256', kid: 'proxy-1' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('5m')
          .sign(signingKey),
    ],
    [
      'without an expiry',
      () =>
        new jose.SignJWT({ email: 'a@corp.example', groups: ['platform'] })
          .setProtectedHeader({ alg: 'ES256', kid: 'proxy-1' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .sign(signingKey),
    ],
    [
      'unsigned (alg none)',
      async () => {
        const body = Buffer.from(
          JSON.stringify({ email: 'a@corp.example', groups: ['platform'], iss: ISSUER, aud: AUDIENCE, exp: 4102444800 }),
        ).toString('base64url');
        return `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
      },
    ],
    [
      'HMAC-signed with the public key as secret (alg confusion)',
      async () =>
        new jose.SignJWT({ email: 'a@corp.example', groups: ['platform'] })
          .setProtectedHeader({ alg: 'HS256', kid: 'proxy-1' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(jwksUrl)),
    ],
    ['garbage', async () => 'not.a.jwt'],
  ])('refuses an assertion %s → 401', async (_what, make) => {
    const res = await request(gw.url)
      .get('/admin/agents')
      .set(HEADER, await make())
      .expect(401);
    expect(res.body.detail).toBe('the SSO identity assertion could not be verified');
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('allows 30 s of clock skew on exp', async () => {
    await request(gw.url)
      .get('/admin/agents')
      .set(HEADER, await assertion({}, { expSeconds: -10 }))
      .expect(200);
  });

  it('fetches the JWKS once and serves later requests from the cache', async () => {
    expect(jwksFetches).toBeGreaterThanOrEqual(1);
    const before = jwksFetches;
    for (let i = 0; i < 5; i++)
      await request(gw.url)
        .get('/admin/agents')
        .set(HEADER, await assertion())
        .expect(200);
    expect(jwksFetches).toBe(before);
  });

  it('trusts a valid assertion only from a trusted proxy (hot-reloaded list)', async () => {
    await gw.writeConfig(config(['10.0.0.0/8']));
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set('Authorization', `Bearer ${ROOT}`).expect(200);
    await request(gw.url)
      .get('/admin/agents')
      .set(HEADER, await assertion())
      .expect(401);
  });
});
