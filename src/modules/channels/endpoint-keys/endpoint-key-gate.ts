import type { IncomingMessage } from 'node:http';
import { bearerToken } from '../../../common/http/bearer-token';
import { SlidingWindowRateLimiter } from '../../../common/rate-limit/sliding-window-rate-limiter';
import type { ConfigStore, EndpointKey, KeyedEndpointSettings, RuntimeSnapshot } from '../../config';
import type { AuthRefusals, GatewayMetrics } from '../../metrics';
import { authenticateEndpointKey } from './endpoint-keys';

const RATE_LIMIT_WINDOW_MS = 60_000;

/** What the gate decided about a request; each endpoint answers it in its own protocol's shape. */
export type KeyGateVerdict =
  | { kind: 'admitted'; key: EndpointKey }
  /** No key, another scheme, an unknown token, a key whose variable is unset: one answer for all (401). */
  | { kind: 'unauthenticated' }
  /** The key is over `limit` requests in the last 60 seconds (429). */
  | { kind: 'rate-limited'; key: EndpointKey; limit: number };

/**
 * The key model the agent endpoints share (`gateway.http.endpoints.chatCompletions`, `.mcp`): the bearer key
 * compared timing-safe, a refused credential counted and logged at the endpoint's edge, a sliding 60-second
 * window per key. Decided from the headers alone, before a byte of the body is read. Each endpoint holds one gate.
 */
export class EndpointKeyGate {
  private readonly limiter = new SlidingWindowRateLimiter({ now: () => Date.now() });
  private unsubscribe?: () => void;

  constructor(
    private readonly edge: 'openai' | 'mcp',
    private readonly settingsOf: (snapshot: RuntimeSnapshot) => KeyedEndpointSettings,
    private readonly deps: { config: ConfigStore; metrics: GatewayMetrics; refusals: AuthRefusals },
  ) {}

  /** Follows the applied config: a key removed takes its window with it. */
  start(): void {
    this.unsubscribe = this.deps.config.onApplied((_prev, next) => {
      const names = new Set(this.settingsOf(next).keys.map((k) => k.name));
      for (const name of this.limiter.keys()) if (!names.has(name)) this.limiter.forget(name);
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  admit(req: IncomingMessage, settings: KeyedEndpointSettings): KeyGateVerdict {
    const key = authenticateEndpointKey(settings.keys, bearerToken(req.headers.authorization, 'rest-of-value'));
    if (!key) {
      this.deps.refusals.refused(this.edge, req);
      return { kind: 'unauthenticated' };
    }
    const limit = settings.rateLimitPerMinute;
    if (limit > 0 && !this.limiter.tryTake(key.name, limit, RATE_LIMIT_WINDOW_MS)) {
      this.deps.metrics.rateLimited(this.edge, key.name);
      return { kind: 'rate-limited', key, limit };
    }
    return { kind: 'admitted', key };
  }
}
