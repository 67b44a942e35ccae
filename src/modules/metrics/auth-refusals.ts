import { Injectable, Logger, Optional } from '@nestjs/common';
import { clientAddress, type PeerRequest } from '../../common/net/client-address';
import { LogThrottle } from '../../common/logging/log-throttle';
import { ConfigStore } from '../config';
import { GatewayMetrics, type AuthEdge, type AuthRefusalReason } from './gateway-metrics';

/** One warning per edge and address a minute: a client retrying a bad token every second is one line, not sixty. */
const WARNING_WINDOW_MS = 60_000;
/** Addresses remembered per gateway; beyond them, new ones share one warning a minute (a spray of addresses too). */
const MAX_REMEMBERED_SOURCES = 1_000;

/** What each edge calls the credential, and where the operator configures the ones it accepts. */
const EDGE_TEXT: Record<AuthEdge, { what: string; configured: string }> = {
  a2a: { what: 'A2A request', configured: 'no peer token (channels.a2a.peers)' },
  http: { what: 'http channel message', configured: 'no account token (channels.http.accounts)' },
  openai: { what: 'OpenAI-compatible request', configured: 'no key (gateway.http.endpoints.chatCompletions.keys)' },
  mcp: { what: 'MCP request', configured: 'no key (gateway.http.endpoints.mcp.keys)' },
  admin: { what: 'admin API request', configured: 'no admin token (gateway.admin.tokens) nor a verified SSO identity' },
  plugin: { what: 'plugin route request', configured: "no credential the plugin's route accepts" },
};

/**
 * A request refused for its credential, at any of the gateway's edges (docs/operations.md#refused-credentials):
 * counted in `clawgate_auth_refusals_total{edge,reason}` every time, and logged as a warning naming the edge, the
 * reason and the client's address — the first refusal from an address, then at most one a minute per address,
 * saying how many were held back. Never the credential: the line names what it failed to match, not what was sent.
 */
@Injectable()
export class AuthRefusals {
  private readonly logger = new Logger('auth');
  private readonly throttle: LogThrottle;

  constructor(
    private readonly metrics: GatewayMetrics,
    @Optional() private readonly config?: ConfigStore,
  ) {
    this.throttle = new LogThrottle({ windowMs: WARNING_WINDOW_MS, maxKeys: MAX_REMEMBERED_SOURCES });
  }

  /**
   * Records one refusal of `req` at `edge`. `reason` defaults to what the request shows: `missing` without an
   * `Authorization` header, else `invalid`.
   */
  refused(edge: AuthEdge, req: PeerRequest, reason: AuthRefusalReason = req.headers.authorization ? 'invalid' : 'missing'): void {
    this.metrics.authRefused(edge, reason);
    const address = this.addressOf(req) ?? 'an unknown address';
    const verdict = this.throttle.take(`${edge} ${address}`);
    if (!verdict.log) return;
    const { what, configured } = EDGE_TEXT[edge];
    const why = reason === 'missing' ? 'no credential was sent' : `the credential matches ${configured}`;
    const held = verdict.suppressed > 0 ? `; ${verdict.suppressed} more refused from there since the last warning` : '';
    this.logger.warn(
      { event: 'auth.refused', edge, reason, address, suppressed: verdict.suppressed },
      `${what} from ${address} refused: ${why}${held} (one warning a minute per address)`,
    );
  }

  /** The client behind a proxy the operator trusts (`gateway.trustedProxies`), else the TCP peer. */
  private addressOf(req: PeerRequest): string | undefined {
    const trusted = this.config?.isLoaded() ? this.config.current().config.gateway.trustedProxies : [];
    return clientAddress(req, trusted);
  }
}
