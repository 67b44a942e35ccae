import { Injectable } from '@nestjs/common';
import { bearerToken } from '../../common/http/bearer-token';
import { isTrustedAddress } from '../../common/net/trusted-proxies';
import { ConfigStore, type GatewaySettings } from '../config';
import { ADMIN_REALM, AdminDenial, AdminPrincipal } from './admin-principal';
import { matchAdminToken } from './admin-tokens';
import { JwtAssertionVerifier } from './jwt-assertion';
import { isLoopbackAddress, peerAddress, PeerRequest } from './peer-address';
import { identityFromClaims, identityFromHeaders, roleForGroups, SsoIdentity } from './sso-identity';

type AdminSettings = GatewaySettings['admin'];
export type AuthOutcome = { principal: AdminPrincipal } | { denial: AdminDenial };

/**
 * True once the operator configured any way to authenticate: a token entry (even one whose ${VAR} is unset)
 * or SSO. From then on nobody — loopback included — gets in without an identity.
 */
export function adminAuthConfigured(admin: AdminSettings): boolean {
  return admin.tokens.length > 0 || admin.sso.enabled;
}

const NO_IDENTITY: AdminDenial = {
  status: 401,
  detail: 'authentication required: send "Authorization: Bearer <admin token>" or sign in through the SSO proxy',
  challenge: ADMIN_REALM,
  refusal: 'missing',
};
const BAD_TOKEN: AdminDenial = {
  status: 401,
  detail: 'the bearer token is not valid',
  challenge: `${ADMIN_REALM}, error="invalid_token"`,
  refusal: 'invalid',
};
const BAD_ASSERTION: AdminDenial = {
  status: 401,
  detail: 'the SSO identity assertion could not be verified',
  challenge: ADMIN_REALM,
  refusal: 'invalid',
};
const REMOTE_WITHOUT_AUTH: AdminDenial = {
  status: 403,
  detail: 'the admin API only answers on loopback until admin authentication is configured (gateway.admin)',
};

/**
 * Establishes who is calling the admin API. Reads `gateway.admin` from the current snapshot on
 * every request, so revoked tokens, new proxies and changed role mappings apply with the next request.
 *
 * Order: a matching admin bearer token; else, only when the TCP peer is inside `sso.trustedProxies`, the SSO
 * identity — from a verified JWT when `sso.jwt` is set (plain identity headers are then ignored), otherwise
 * from the identity headers. A bearer token that matches nothing is not fatal when a trusted proxy vouches
 * for the user (oauth2-proxy forwards its own `Authorization: Bearer <id token>`).
 * Described in docs/admin-security.md#4-sso-through-a-reverse-proxy.
 */
@Injectable()
export class AdminAuthService {
  private readonly jwt = new JwtAssertionVerifier();

  constructor(private readonly config: ConfigStore) {}

  async authenticate(req: PeerRequest): Promise<AuthOutcome> {
    const admin = this.config.current().config.gateway.admin;
    if (!adminAuthConfigured(admin)) {
      // Today's behaviour until auth is configured: full access on this machine, nothing from elsewhere.
      return isLoopbackAddress(peerAddress(req))
        ? { principal: { subject: 'loopback', role: 'admin', via: 'loopback' } }
        : { denial: REMOTE_WITHOUT_AUTH };
    }

    const presented = bearerToken(req.headers.authorization, 'single-word');
    const token = matchAdminToken(admin.tokens, presented);
    if (token) return { principal: { subject: `token:${token.name}`, role: token.role, via: 'token' } };

    const sso = admin.sso;
    if (sso.enabled && isTrustedAddress(peerAddress(req), sso.trustedProxies)) {
      const identity = sso.jwt ? await this.fromAssertion(req, sso.jwt) : identityFromHeaders(req.headers, sso);
      if (identity === 'invalid') return { denial: BAD_ASSERTION };
      if (identity) return { principal: { subject: `sso:${identity.subject}`, role: roleForGroups(identity.groups, sso), via: 'sso' } };
    }
    return { denial: presented ? BAD_TOKEN : NO_IDENTITY };
  }

  /** Identity from the JWT header: undefined when absent, 'invalid' when present but not acceptable. */
  private async fromAssertion(
    req: PeerRequest,
    jwt: NonNullable<AdminSettings['sso']['jwt']>,
  ): Promise<SsoIdentity | 'invalid' | undefined> {
    const raw = req.headers[jwt.header.toLowerCase()];
    if (typeof raw !== 'string' || !raw.trim()) return undefined;
    // The header may be Authorization itself (some proxies forward the assertion as a bearer token).
    const assertion = bearerToken(raw, 'single-word') ?? raw.trim();
    const claims = await this.jwt.verify(assertion, jwt);
    if (!claims) return 'invalid';
    return identityFromClaims(claims) ?? 'invalid';
  }
}
