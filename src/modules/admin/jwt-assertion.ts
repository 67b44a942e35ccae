import { Logger } from '@nestjs/common';
import type { GatewaySettings } from '../config';
import { JoseApi, loadJose } from '../../common/auth/jose-loader';

type JwtSettings = NonNullable<GatewaySettings['admin']['sso']['jwt']>;
type RemoteKeySet = ReturnType<JoseApi['createRemoteJWKSet']>;

/** Asymmetric algorithms only unless the config names others: an HMAC "key" from a JWKS is no proof. */
export const DEFAULT_JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Proxies and the gateway disagree a little about the time; 30 s is what the assertion issuers allow too. */
export const JWT_CLOCK_TOLERANCE_SECONDS = 30;
/** A real assertion is a few KiB; anything far larger is refused before any parsing. */
const MAX_ASSERTION_LENGTH = 16 * 1024;
/** Key sets of URLs no longer configured are dropped once there are more than this many. */
const MAX_KEY_SETS = 4;

/**
 * Verifies the signed identity assertion an SSO proxy adds to each request (Pomerium's
 * X-Pomerium-Jwt-Assertion, Cloudflare's Cf-Access-Jwt-Assertion, IAP's x-goog-iap-jwt-assertion):
 * signature against the proxy's JWKS, exp/nbf (30 s leeway), and iss/aud when configured.
 * Key sets are cached per JWKS URL; jose keeps the keys [10 min] and refetches (at most every 30 s) when a
 * token names an unknown key, so a rotated key works without a restart.
 */
export class JwtAssertionVerifier {
  private readonly logger = new Logger('admin-auth');
  private readonly keySets = new Map<string, RemoteKeySet>();

  /** The verified claims, or undefined when the assertion is not acceptable (reason logged at debug). */
  async verify(assertion: string, settings: JwtSettings): Promise<Record<string, unknown> | undefined> {
    if (assertion.length > MAX_ASSERTION_LENGTH) return undefined;
    try {
      const jose = await loadJose();
      const { payload } = await jose.jwtVerify(assertion, this.keySet(jose, settings.jwksUrl), {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: settings.algorithms?.length ? settings.algorithms : DEFAULT_JWT_ALGORITHMS,
        clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      });
      return payload;
    } catch (err) {
      // The code says why (expired, wrong audience, unknown key, JWKS unreachable); never log the token.
      const e = err as { code?: string; claim?: string; message?: string };
      const reason = e.code ? `${e.code}${e.claim ? ` (${e.claim})` : ''}` : (e.message ?? String(err));
      const unreachable = !e.code || e.code === 'ERR_JWKS_TIMEOUT' || e.code === 'ERR_JWKS_INVALID';
      if (unreachable) this.logger.warn(`SSO assertion not verified: ${reason} (JWKS ${settings.jwksUrl})`);
      else this.logger.debug(`SSO assertion rejected: ${reason}`);
      return undefined;
    }
  }

  private keySet(jose: JoseApi, url: string): RemoteKeySet {
    let set = this.keySets.get(url);
    if (!set) {
      set = jose.createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
      this.keySets.set(url, set);
      if (this.keySets.size > MAX_KEY_SETS) this.keySets.delete(this.keySets.keys().next().value as string);
    }
    return set;
  }
}
