import type { IncomingMessage } from 'node:http';
import type { PluginCallerKey, PluginEndpointKey, PluginKeyGate, PluginKeyGateOptions } from '../../plugin-sdk';
import type { ConfigStore, EndpointKey } from '../config';
import { agentsForKey, EndpointKeyGate, keyMayUse, type KeyGateSettings } from '../endpoint-keys';
import type { AuthEdge, AuthRefusals, GatewayMetrics } from '../metrics';

/** What `admitByGate` decided; the route answers a refusal (401, 429) in its own shape. */
export type PluginGateVerdict =
  { kind: 'admitted'; key: PluginCallerKey } | { kind: 'unauthenticated' } | { kind: 'rate-limited'; key: string; limit: number };

interface GateInternals {
  gate: EndpointKeyGate;
  options: PluginKeyGateOptions;
  /** The keys as the gateway's key model has them, per array the plugin handed over (so indexes and windows follow it). */
  converted: WeakMap<readonly PluginEndpointKey[], EndpointKey[]>;
}

/** The gates plugins made: the handle a plugin holds is opaque, its workings stay here. */
const internals = new WeakMap<PluginKeyGate, GateInternals>();

export interface KeyGateDeps {
  config: ConfigStore;
  metrics: GatewayMetrics;
  refusals: AuthRefusals;
}

/**
 * `api.createKeyGate` (docs/plugins.md#bearer-keys): the core's EndpointKeyGate — the same token index, agent
 * patterns and rate windows as the OpenAI-compatible endpoint's and the MCP server's — over keys the plugin reads. A
 * rate-limited key counts under the plugin's edge: `openai` for the bundled OpenAI-compatible endpoint (its keys are
 * `gateway.http.endpoints.chatCompletions`), else `plugin` with the peer `<plugin>/<key>`.
 */
export function createPluginKeyGate(plugin: string, edge: AuthEdge, options: PluginKeyGateOptions, deps: KeyGateDeps): PluginKeyGate {
  if (!options || typeof options.settings !== 'function')
    throw new TypeError('createKeyGate(options): options.settings must be a function');
  const gateEdge =
    edge === 'openai' ? ('openai' as const) : { auth: edge, rateLimited: 'plugin' as const, peerOf: (name: string) => `${plugin}/${name}` };
  // The settings are the plugin's, read per request (the snapshot is not where they are).
  const gate = new EndpointKeyGate(gateEdge, () => ({ keys: [], rateLimitPerMinute: 0 }), deps);
  const handle: PluginKeyGate = Object.freeze({ kind: 'key-gate' as const });
  internals.set(handle, { gate, options, converted: new WeakMap() });
  return handle;
}

/** Whether `value` is a gate made by `createKeyGate` (a route's `keyGate` must be one). */
export function isPluginKeyGate(value: unknown): value is PluginKeyGate {
  return typeof value === 'object' && value !== null && internals.has(value as PluginKeyGate);
}

/** Runs the gate on a request (a refused credential is counted by the route's refusal, not here). */
export function admitByGate(handle: PluginKeyGate, req: IncomingMessage, config: ConfigStore): PluginGateVerdict {
  const inner = internals.get(handle);
  if (!inner) throw new Error('keyGate is not a gate made by api.createKeyGate');
  const verdict = inner.gate.admit(req, settingsOf(inner), { countRefusal: false });
  if (verdict.kind === 'unauthenticated') return verdict;
  if (verdict.kind === 'rate-limited') return { kind: 'rate-limited', key: verdict.key.name, limit: verdict.limit };
  const key = verdict.key;
  return {
    kind: 'admitted',
    key: Object.freeze({
      name: key.name,
      mayUse: (agentId: string) => typeof agentId === 'string' && keyMayUse(key, agentId),
      agents: () => agentsForKey(key, config.current().config.agents).map((agent) => agent.id),
    }),
  };
}

const NO_KEYS: readonly PluginEndpointKey[] = [];

function settingsOf(inner: GateInternals): KeyGateSettings {
  const settings = inner.options.settings();
  // The plugin's code is not trusted to keep to its types: each key is checked as it comes.
  const raw: readonly PluginEndpointKey[] = Array.isArray(settings?.keys) ? settings.keys : NO_KEYS;
  let keys = inner.converted.get(raw);
  if (!keys) {
    keys = raw
      .filter((k: PluginEndpointKey | undefined): k is PluginEndpointKey => !!k && typeof k.name === 'string' && !!k.name)
      .map((k: PluginEndpointKey) => ({
        name: k.name,
        ...(typeof k.token === 'string' && k.token ? { token: k.token } : {}),
        agents: Array.isArray(k.agents) ? k.agents.filter((a: unknown): a is string => typeof a === 'string') : [],
        usable: k.usable !== false && typeof k.token === 'string' && !!k.token,
      }));
    inner.converted.set(raw, keys);
  }
  const rate = settings?.rateLimitPerMinute;
  return { keys, rateLimitPerMinute: typeof rate === 'number' && Number.isFinite(rate) && rate > 0 ? Math.floor(rate) : 0 };
}
