import type { GatewayAuthMode } from '../schema/gateway-auth.schema';
import type { AdminRole } from '../../../common/auth/roles';

/** The normalized `gateway` section: the listener, admin access, the agent endpoints, telemetry, metrics, state and cluster. */

export type TlsSettings = { enabled: false } | { enabled: true; certPath: string; keyPath: string; caPath?: string };

export interface GatewaySettings {
  port: number;
  /** The address listened on: gateway.bind's mode (loopback, lan, auto, custom, tailnet) resolved, or its IP. */
  bind: string;
  /** OpenClaw's gateway.auth mode in effect, inferred when unset (its credentials are among admin.tokens, or admin.sso). */
  auth: { mode: GatewayAuthMode };
  trustedProxies: string[];
  publicUrl?: string;
  reload: { mode: 'hybrid' | 'off'; debounceMs: number };
  /** HTTPS on the listener: the files' resolved paths (read at start), or off. */
  tls: TlsSettings;
  /** How long a stop lets the runs in flight finish before aborting them (0: at once). */
  drainMs: number;
  admin: {
    /** `token` is undefined when its ${VAR} is unset: the entry counts as configured and matches nobody. */
    tokens: Array<{ name: string; token?: string; role: AdminRole }>;
    sso: {
      enabled: boolean;
      trustedProxies: string[];
      userHeader: string;
      emailHeader: string;
      groupsHeader: string;
      jwt?: { header: string; jwksUrl: string; issuer?: string; audience?: string; algorithms?: string[] };
      roleMapping: Record<string, AdminRole>;
      defaultRole: 'none' | AdminRole;
    };
    publicDocs: boolean;
  };
  http: { endpoints: { chatCompletions: ChatCompletionsSettings; mcp: McpEndpointSettings } };
  telemetry: TelemetrySettings;
  metrics: MetricsSettings;
  state: StateSettings;
  /** Absent: a single process (docs/deploy.md#cluster-coordination). */
  cluster?: ClusterSettings;
}

/** `gateway.cluster`: the Redis server the replicas coordinate through. */
export interface ClusterSettings {
  redis: {
    url: string;
    /** Undefined when not set, or when its ${VAR} was unset (then Redis is dialled without AUTH). */
    password?: string;
  };
}

/** `gateway.state` (docs/deploy.md): `url` is set exactly when the backend is postgres. */
export type StateSettings = { backend: 'sqlite' } | { backend: 'postgres'; url: string };

/** `gateway.metrics`: who may read `GET /metrics` (docs/operations.md#who-may-scrape). */
export interface MetricsSettings {
  /** A token is configured, even one whose ${VAR} is unset (then nobody matches: closed, never open). */
  tokenRequired: boolean;
  /** Absent when not configured or its ${VAR} is unset. */
  token?: string;
}

/** `gateway.telemetry` (docs/telemetry.md). Unset fields leave the choice to the OTEL_* variables. */
export interface TelemetrySettings {
  enabled: boolean;
  serviceName?: string;
  sampleRatio?: number;
}

/** An agent endpoint's settings: `gateway.http.endpoints.chatCompletions` and `.mcp` share the key model. */
export interface KeyedEndpointSettings {
  enabled: boolean;
  rateLimitPerMinute: number;
  keys: EndpointKey[];
}

/** `gateway.http.endpoints.chatCompletions` (docs/openai-endpoint.md). */
export type ChatCompletionsSettings = KeyedEndpointSettings;
/** `gateway.http.endpoints.mcp` (docs/mcp.md). */
export type McpEndpointSettings = KeyedEndpointSettings;
export type ChatCompletionsKey = EndpointKey;

/** A bearer key of an agent endpoint and the agents it may use. */
export interface EndpointKey {
  name: string;
  /** Undefined when its ${VAR} was unset: the key cannot authenticate until it is. */
  token?: string;
  /** Agent ids or `*` patterns, as written (trimmed). */
  agents: string[];
  usable: boolean;
}
