import type { IncomingMessage } from 'node:http';
import { bearerToken } from '../../common/http/bearer-token';
import { SlidingWindowRateLimiter } from '../../common/rate-limit/sliding-window-rate-limiter';
import type { ConfigStore, EndpointKey, RuntimeSnapshot } from '../config';
import type { AuthEdge, AuthRefusals, GatewayMetrics, RateLimitedChannel } from '../metrics';
import { authenticateEndpointKey } from './endpoint-keys';

const RATE_LIMIT_WINDOW_MS = 60_000;

/** What the gate decided about a request; each endpoint answers it in its own protocol's shape. */
export type KeyGateVerdict =
  | { kind: 'admitted'; key: EndpointKey }
  /** No key, another scheme, an unknown token, a key whose variable is unset: one answer for all (401). */
  | { kind: 'unauthenticated' }
  /** The key is over `limit` requests in the last 60 seconds (429). */
  | { kind: 'rate-limited'; key: EndpointKey; limit: number };

/** What a gate reads per request: the keys and the rate of each (0: no limit). */
export interface KeyGateSettings {
  rateLimitPerMinute: number;
  keys: readonly EndpointKey[];
}

/** Where a gate counts: the edge of its refused credentials, the channel (and key label) of its rate limits. */
export interface KeyGateEdge {
  auth: AuthEdge;
  rateLimited: RateLimitedChannel;
  /** The `peer` label of a rate-limited key [its name]. */
  peerOf?(keyName: string): string;
}

/**
 * The key model the agent endpoints share (`gateway.http.endpoints.chatCompletions`, `.mcp`, and plugins' routes
 * through `api.createKeyGate`): the bearer key compared timing-safe, a refused credential counted and logged at the
 * endpoint's edge, a sliding 60-second window per key. Decided from the headers alone, before a byte of the body is
 * read. Each endpoint holds one gate.
 */
export class EndpointKeyGate {
  private readonly limiter = new SlidingWindowRateLimiter({ now: () => Date.now() });
  private unsubscribe?: () => void;

  /** The keys array the windows were last checked against (a new one drops the windows of keys it lacks). */
  private seenKeys?: readonly EndpointKey[];
  private readonly edge: KeyGateEdge;

  constructor(
    edge: 'openai' | 'mcp' | KeyGateEdge,
    private readonly settingsOf: (snapshot: RuntimeSnapshot) => KeyGateSettings,
    private readonly deps: { config: ConfigStore; metrics: GatewayMetrics; refusals: AuthRefusals },
  ) {
    this.edge = typeof edge === 'string' ? { auth: edge, rateLimited: edge } : edge;
  }

  /** Follows the applied config: a key removed takes its window with it. */
  start(): void {
    this.unsubscribe = this.deps.config.onApplied((_prev, next) => this.forgetAbsent(this.settingsOf(next).keys));
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /**
   * `count: false` leaves a refused credential uncounted: for a caller that answers the 401 through a path that
   * counts it itself (a plugin route with a challenge), so it is counted once.
   */
  admit(req: IncomingMessage, settings: KeyGateSettings, options: { countRefusal?: boolean } = {}): KeyGateVerdict {
    // Keys read from somewhere other than the applied config (a plugin's) change without telling: checked per request.
    if (settings.keys !== this.seenKeys) this.forgetAbsent(settings.keys);
    const key = authenticateEndpointKey(settings.keys, bearerToken(req.headers.authorization, 'rest-of-value'));
    if (!key) {
      if (options.countRefusal !== false) this.deps.refusals.refused(this.edge.auth, req);
      return { kind: 'unauthenticated' };
    }
    const limit = settings.rateLimitPerMinute;
    if (limit > 0 && !this.limiter.tryTake(key.name, limit, RATE_LIMIT_WINDOW_MS)) {
      this.deps.metrics.rateLimited(this.edge.rateLimited, this.edge.peerOf?.(key.name) ?? key.name);
      return { kind: 'rate-limited', key, limit };
    }
    return { kind: 'admitted', key };
  }

  private forgetAbsent(keys: readonly EndpointKey[]): void {
    this.seenKeys = keys;
    const names = new Set(keys.map((k) => k.name));
    for (const name of this.limiter.keys()) if (!names.has(name)) this.limiter.forget(name);
  }
}
