/**
 * The bearer-key half of the plugin SDK (docs/plugins.md#bearer-keys): a gate a plugin's public routes put in front of
 * themselves, so callers with an API key of their own (a key per client, the agents each may use, a request rate per
 * key) are checked by the gateway's own key model — the one of the OpenAI-compatible endpoint and the MCP server.
 * Like plugin-api.ts, this file imports nothing of the gateway's modules.
 */

/** One key, as the plugin's config holds it. */
export interface PluginEndpointKey {
  /** Unique among the gate's keys: the caller's identity (`request.key.name`), its rate window, its metric label. */
  name: string;
  /** The bearer token. Without one (a `${VAR}` left unset, say) the key never authenticates. */
  token?: string;
  /** Agent ids or `*` patterns (the syntax of `tools.agentToAgent.allow`) the key may use. */
  agents: readonly string[];
  /** False: the key never authenticates [true when `token` is set]. */
  usable?: boolean;
}

/** What the gate reads on every request (so a changed config applies at once). */
export interface PluginKeyGateSettings {
  keys: readonly PluginEndpointKey[];
  /** Requests per key in any 60 seconds; 0 or absent: no limit. */
  rateLimitPerMinute?: number;
}

export interface PluginKeyGateOptions {
  /**
   * The current keys, read per request. Return the same array while the config does not change: the token index and
   * the rate windows follow the array (a key gone from it takes its window with it).
   */
  settings(): PluginKeyGateSettings;
}

/**
 * A gate made by `api.createKeyGate`, given to routes as `keyGate`. Routes that share one share its rate windows.
 * The gateway runs it after the route's `precheck` and before the body is read: no valid key is a 401 (with the
 * route's `challenge`, counted and logged as a refused credential), a key over its rate a 429 (counted in
 * `clawgate_rate_limited_total`), and the admitted key reaches `handle` as `request.key`.
 */
export interface PluginKeyGate {
  readonly kind: 'key-gate';
}

/** The key a caller authenticated with (`request.key` of a route behind a key gate). */
export interface PluginCallerKey {
  name: string;
  /** Whether one of the key's agent patterns admits `agentId` (whether the agent exists or not). */
  mayUse(agentId: string): boolean;
  /** The configured agents the key may use, in config order. */
  agents(): string[];
}

/**
 * An error a route answers in its own shape (`PluginHttpRoute.errorResponse`): whatever the route's `precheck` or
 * `handle` threw, and the refusals the gateway makes for the route (body too large or unreadable, the key gate's
 * 401 and 429, a failure of the plugin's code).
 */
export interface PluginRouteError {
  /** The HTTP status the gateway answers with, unless the response says another. */
  status: number;
  /** The `ErrorCode` (`BAD_REQUEST`, `UNAUTHENTICATED`, `RATE_LIMITED`, `PAYLOAD_TOO_LARGE`, `INTERNAL`, …). */
  code: string;
  /** What went wrong, fit for the caller (a failure of the plugin's code says nothing of it). */
  message: string;
  /** What the route threw, as thrown (an `AppError`, or a subclass with fields of the plugin's): absent for the gateway's own refusals. */
  thrown?: unknown;
  /** The key gate's refusal, when it is one: `rate-limited` names the key and its limit. */
  keyGate?: { refusal: 'unauthenticated' } | { refusal: 'rate-limited'; key: string; limitPerMinute: number };
}
